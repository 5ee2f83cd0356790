"""The "beam" strategy (wreaths, globes) and the "windows" shortening pass."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hlavolamy.solve.passes.shorten as shorten_module
import hlavolamy.solve.strategies.beam as beam_module
import hlavolamy.solve.tables.pdb as pdb
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.memo import forget_shared
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.solve import solve
from hlavolamy.solve.passes.shorten import shortcut, shorten
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.strategies.beam import SearchFailed, beam, nearest


def cycle(n: int, ring: list[int]) -> list[int]:
    """The move turning the cells of ``ring`` one place (cell ``ring[i]`` takes the content of ``ring[i+1]``)."""
    perm = list(range(n))
    for a, b in zip(ring, ring[1:] + ring[:1]):
        perm[a] = b
    return perm


def wreath(k: int) -> Puzzle:
    """Two rings of ``k`` cells meeting in two cells (Santa 2023's wreath_k/k), coloured A | B, C where they meet."""
    n = 2 * k - 2
    meet = k // 3
    left = list(range(k))
    extra = list(range(k, n))
    half = (k - 2) // 2
    right = [0] + extra[:half] + [meet] + extra[half:]
    colours = ["C" if c in (0, meet) else "A" if c < k else "B" for c in range(n)]
    return Puzzle(colours, {"l": cycle(n, left), "r": cycle(n, right)})


def globe(rows: int, columns: int) -> Puzzle:
    """Rows that turn and half-globe flips (Santa 2023's globe_(rows-1)/(columns/2)), two cells of a colour per row."""
    n = rows * columns
    moves = {f"r{r}": cycle(n, [r * columns + c for c in range(columns)]) for r in range(rows)}
    half = columns // 2
    for j in range(columns):
        flip = list(range(n))
        for r in range(rows):
            for c in range(j, j + half):
                source = (2 * j + half - 1 - c) % columns
                flip[r * columns + c % columns] = (rows - 1 - r) * columns + source
        moves[f"f{j}"] = flip
    colours = [f"{r}{c // 2}" for r in range(rows) for c in range(columns)]
    return Puzzle(colours, moves)


def scrambled(puzzle: Puzzle, length: int, seed: int) -> State:
    rng = np.random.default_rng(seed)
    steps = generators(puzzle)
    return State.solved(puzzle).apply([steps[i] for i in rng.integers(len(steps), size=length)])


@pytest.fixture(autouse=True)
def small_tables():
    """Fresh tables, kept small so the tests stay fast (the beam must still finish without a whole-space ball)."""
    forget_shared()
    with patch.object(beam_module, "BALL_STATES", 5_000), \
            patch.object(beam_module, "WIDTH", 2_000), patch.object(pdb, "MAX_PATTERN_STATES", 20_000), \
            patch.object(shorten_module, "BALL_STATES", 5_000):
        yield
    forget_shared()


@pytest.mark.parametrize("puzzle", [wreath(9), wreath(12), globe(3, 6)], ids=["wreath9", "wreath12", "globe3x6"])
def test_beam_solves_rings_by_colours_and_replays(puzzle):
    start = scrambled(puzzle, 200, seed=len(puzzle.moves))
    found = solve(puzzle, start.colour_ids(), strategy="beam")
    assert found.strategy == "beam"
    assert np.array_equal(start.apply(found.moves).colour_ids(), puzzle.colour_ids)


def test_beam_stops_within_the_wildcards():
    puzzle = wreath(12)
    start = scrambled(puzzle, 200, seed=3)
    found = solve(puzzle, start.colour_ids(), strategy="beam", wildcards=4)
    assert np.count_nonzero(start.apply(found.moves).colour_ids() != puzzle.colour_ids) <= 4


def test_beam_solves_exact_positions():
    puzzle = globe(2, 6)
    start = scrambled(puzzle, 60, seed=1)
    found = solve(puzzle, start, strategy="beam")
    assert start.apply(found.moves).is_solved()


def test_beam_without_pattern_databases_still_solves():
    """Where no projection fits, the guide has no table: the score falls back to the nearest-cell distances."""
    puzzle = wreath(9)
    start = scrambled(puzzle, 200, seed=4)
    with patch.object(beam_module, "patterns", lambda *args, **kwargs: []):
        found = solve(puzzle, start.colour_ids(), strategy="beam")
    assert np.array_equal(start.apply(found.moves).colour_ids(), puzzle.colour_ids)


@pytest.mark.parametrize("slack", [0, 2])
def test_the_beams_other_answers_solve_too_and_leave_the_one_played_alone(slack):
    """Other answers of the last levels (search-first finishes each) replay to the goal, no longer than the one
    played plus the slack; asking for them changes nothing in the answer played."""
    puzzle = wreath(12)
    colours = scrambled(puzzle, 200, seed=5).colour_ids()
    plain = Problem.from_input(puzzle, colours)
    beam(plain)
    asked = Problem.from_input(puzzle, colours)
    others: list[list[Turn]] = []
    with patch.object(beam_module, "OTHERS_SLACK", slack):
        beam(asked, others=others)
    assert asked.turns == plain.turns
    assert 0 < len(others) <= beam_module.OTHERS
    for way in others:
        assert way != plain.turns and len(way) <= len(plain.turns) + slack
        assert asked.replays_to_goal(way)
    if slack:
        assert max(len(way) for way in others) > len(plain.turns)


def test_beam_gives_up_when_it_cannot_beat_a_rival():
    puzzle = wreath(9)
    start = scrambled(puzzle, 200, seed=2)
    problem = Problem.from_input(puzzle, start.colour_ids())
    with pytest.raises(SearchFailed):
        beam(problem, shorter_than=1)
    assert problem.turns == []


def test_a_cancel_stops_the_beam_while_its_pattern_databases_are_built():
    """The tables can take seconds on a new puzzle: a time limit or the user's cancel must not wait for them, and
    a cut build must leave nothing half-made in the caches."""
    from hlavolamy.analysis.memo import analysis_cache
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.errors import Cancelled

    forget_shared()
    puzzle = wreath(12)
    problem = Problem.from_input(puzzle, scrambled(puzzle, 200, seed=5).colour_ids())
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        beam(problem, cancel=token)
    assert not any(name.startswith("solve.pdb") for name in analysis_cache(puzzle).memo)  # stopped, not finished
    beam(problem)  # built whole afterwards
    assert np.array_equal(problem.labels, problem.goal)


def test_a_cancel_stops_the_ball_between_chunks_of_a_level_and_keeps_nothing():
    """A rashkey's ball took 1.7 s at one go, past a 10 s limit: its build looks at the token every
    :data:`BALL_CHUNK` parents, and a cut build is not remembered (the next one is whole and the same)."""
    from hlavolamy.analysis.memo import analysis_cache
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.errors import Cancelled

    class CancelAfter(CancelToken):
        def __init__(self, checks: int):
            super().__init__()
            self.left = checks

        def check(self) -> None:
            self.left -= 1
            if self.left < 0:
                self.cancel()
            super().check()

    forget_shared()
    puzzle = wreath(12)
    goal = np.arange(puzzle.n_cells)
    with patch.object(beam_module, "BALL_CHUNK", 16):
        token = CancelAfter(5)
        with pytest.raises(Cancelled):
            beam_module.ball(puzzle, goal, np.uint8, 5000, token)
        assert token.left < 0  # cut inside the build, not before it
        assert not any(name.startswith("solve.beam.ball") for name in analysis_cache(puzzle).memo)
        chunked = beam_module.ball(puzzle, goal, np.uint8, 5000)
    whole = beam_module._grow_ball(puzzle, goal, np.uint8, 5000, CancelToken())
    assert chunked.hashes.size == 5000
    for field in ("hashes", "entry", "dist", "step", "parent"):
        assert np.array_equal(getattr(chunked, field), getattr(whole, field))


def test_nearest_counts_steps_to_the_nearest_wanted_cell():
    puzzle = wreath(6)
    near = nearest(puzzle, puzzle.colour_ids.astype(np.int64))
    a, b, c = (puzzle.colour_labels.index(x) for x in "ABC")
    assert near[1, a] == 0 and near[6, b] == 0
    assert near[6, c] == 1  # one turn of r brings cell 6's content to the meeting cell 0
    assert near[6, a] == 2  # ...and one turn of l from there to cell 5
    assert np.all(near[puzzle.colour_ids == b, b] == 0)


def test_windows_replace_a_braid_by_its_shorter_word():
    # s and t are neighbouring swaps: s t s = t s t, so s t s t = t s (no cancellation or commuting finds it)
    puzzle = Puzzle(list("abc"), {"s": [1, 0, 2], "t": [0, 2, 1]})
    turns = [Turn("s"), Turn("t"), Turn("s"), Turn("t")]
    out = shorten(puzzle, turns)
    assert puzzle.length(out) == 2
    assert np.array_equal(puzzle.perm_of(out), puzzle.perm_of(turns))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_windows_keep_the_product_and_never_lengthen(data):
    n = data.draw(st.integers(3, 8), label="cells")
    moves = {f"m{i}": data.draw(st.permutations(range(n)), label=f"m{i}") for i in range(data.draw(st.integers(1, 3)))}
    puzzle = Puzzle(["x"] * n, moves)
    steps = generators(puzzle)
    turns = data.draw(st.lists(st.sampled_from(steps), max_size=60), label="turns")
    forget_shared()
    out = shorten(puzzle, turns)
    assert np.array_equal(puzzle.perm_of(out), puzzle.perm_of(turns))
    assert puzzle.length(out) <= puzzle.length(turns)


def test_the_pass_runs_on_every_answer():
    from hlavolamy.solve.registry import passes

    assert {"windows", "shortcuts"} <= {p.name for p in passes()}


def test_shortcuts_remove_a_loop_in_colours():
    puzzle = Puzzle(list("AABB"), {"s": [1, 0, 2, 3], "t": [0, 2, 1, 3], "u": [0, 1, 3, 2]})
    problem = Problem.from_input(puzzle, [0, 1, 1, 0])
    # A B B A -s-> B A B A -u-> B A A B -t-> B A A B -u-> B A B A -t-> B B A A: the colours after s come back
    turns = [Turn("s"), Turn("u"), Turn("t"), Turn("u"), Turn("t")]
    end = problem.labels[puzzle.perm_of(turns)]
    cut = shortcut(problem, turns)
    assert puzzle.length(cut) < puzzle.length(turns)
    assert np.array_equal(problem.labels[puzzle.perm_of(cut)], end)


@pytest.mark.parametrize("won, lost, races", [(0, 0, True), (1, 0, True), (0, 1, True), (0, 2, False),
                                              (1, 1, True), (2, 1, True), (1, 8, False), (3, 4, False)])
def test_auto_races_the_beam_only_where_it_wins_at_least_half(won, lost, races):
    from hlavolamy.solve.auto import _pays

    assert _pays({"won": won, "lost": lost}) is races


@pytest.mark.parametrize("per_cell, stretch", [(2.5, 1), (5, 1), (10, 2), (20, 4), (200, 4)])
def test_the_beam_race_walks_further_against_a_very_long_answer(per_cell, stretch):
    """Santa wreath_100 (20 moves a cell): four times the budget, 4,020 -> 1,787 moves; short answers keep the plain
    budget, and no answer buys more than four times it."""
    from hlavolamy.solve.auto import BEAM_WORK, beam_work

    assert beam_work(per_cell) == pytest.approx(stretch * BEAM_WORK)


def test_the_beam_race_gets_the_stretched_budget_from_auto():
    """``auto`` hands the beam the budget :func:`beam_work` names for the answer it must beat."""
    import hlavolamy.solve.auto as auto
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.solve.registry import Context, RaceRecords

    puzzle = wreath(12)
    problem = Problem.from_input(puzzle, scrambled(puzzle, 200, seed=3).colour_ids())
    answer = problem.fork()
    answer.play([Turn("l"), Turn("r")] * (20 * 22))  # a long "answer": 40 moves a moved cell
    budgets = []

    def spy(start, *, work, **_):
        budgets.append(work.units)
        raise SearchFailed("spied")

    with patch.object(auto.beam, "beam", spy):
        assert not auto._beam_beats(problem, answer, Context(cancel=CancelToken(), records=RaceRecords()))
    assert budgets == [pytest.approx(auto.BEAM_MAX_STRETCH * auto.BEAM_WORK)]


def test_the_beam_race_budget_follows_the_longest_rival_not_the_winner():
    """A rival that wins by less (search-first against insertion) must not cut the beam's budget."""
    import hlavolamy.solve.auto as auto
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.solve.registry import Context, RaceRecords

    puzzle = wreath(12)
    problem = Problem.from_input(puzzle, scrambled(puzzle, 200, seed=3).colour_ids())
    answer = problem.fork()
    answer.play([Turn("l"), Turn("r")] * 33)  # the winner: 3 moves a moved cell, the plain budget
    budgets = []

    def spy(start, *, work, **_):
        budgets.append(work.units)
        raise SearchFailed("spied")

    context = Context(cancel=CancelToken(), records=RaceRecords())
    with patch.object(auto.beam, "beam", spy):
        assert not auto._beam_beats(problem, answer, context, longest=len(answer.turns) * 20)
        assert not auto._beam_beats(problem, answer, context, longest=len(answer.turns) * 3)
    assert budgets == [pytest.approx(auto.BEAM_MAX_STRETCH * auto.BEAM_WORK),
                       pytest.approx(auto.beam_work(len(answer.turns) * 3 / 22))]
    answer.play([Turn("l"), Turn("r")] * 11)  # ... and the winner alone: where it is long enough, its budget
    with patch.object(auto.beam, "beam", spy):
        assert not auto._beam_beats(problem, answer, Context(cancel=CancelToken(), records=RaceRecords()),
                                    longest=len(answer.turns))
    assert budgets[-1] == pytest.approx(auto.beam_work(len(answer.turns) / 22))


def test_the_beams_buckets_are_where_a_label_with_many_places_stands():
    """A label of few places (search-first's ring of a parity: two cells, one label each) would make two buckets of
    ``width // SPREAD`` positions each and starve every level; the bucket label has at least SPREAD ways to stand."""
    from hlavolamy.solve.strategies.beam import SPREAD, bucket_label

    eight = list(range(1, 8)) + [0]
    ring = Puzzle(["0", "0", "1", "1", "2", "2", "3", "3", "p", "q"],
                  {"t": eight + [9, 8], "u": [1, 0, 2, 3, 4, 5, 6, 7, 9, 8]})  # an odd 8-cycle and its parity ring
    goal = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 5])
    assert bucket_label(ring, goal) == 0  # two cells among eight: 28 ways; the ring's "p": 2 ways
    assert 28 >= SPREAD > 2
    # where every label is alone, the first one that moves (an exact position's cell 0 unless it is fixed)
    fixed_first = Puzzle(list("abcdefghijklmnopq"), {"t": [0] + list(range(2, 17)) + [1]})
    assert bucket_label(fixed_first, np.arange(17)) == 1


def test_a_globe_search_first_ring_problem_buckets_by_a_colour_of_the_group():
    from hlavolamy.solve.macros.pairing import paired_plan
    from hlavolamy.solve.strategies.beam import bucket_label
    from hlavolamy.solve.strategies.search_first import ring_problem, searched_groups

    puzzle = globe(3, 8)
    problem = Problem.from_input(puzzle, np.asarray(puzzle.colour_ids)[scrambled(puzzle, 30, 1).perm])
    problem.cast_shadow()
    plan = paired_plan(puzzle)
    cells = np.sort(np.concatenate([plan.groups[g] for g in searched_groups(plan, problem)]))
    sub = ring_problem(problem, cells)
    assert sub.puzzle.n_cells > cells.size  # a ring of an invariant beside the group's cells
    label = bucket_label(sub.puzzle, sub.goal)
    assert np.flatnonzero(sub.goal == label).max() < cells.size


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(1, 12), st.integers(1, 6))
def test_selecting_from_the_best_scores_first_picks_what_sorting_all_picks(seed, width, spread, ties):
    """``_select`` sorts only the best scores when they fill the width; the choice must be the full sort's."""
    from hlavolamy.solve.strategies.beam import _capped, _select

    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 400))
    score = rng.integers(0, ties * 3, size=size)
    buckets = rng.integers(0, spread, size=size).astype(np.uint64)
    cap = max(1, width // spread)
    noise = np.random.default_rng(seed).random(size)
    everything = np.lexsort((noise, score))
    expected = everything if size <= width else _capped(everything, buckets, width, cap)
    assert np.array_equal(_select(score, buckets, width, cap, np.random.default_rng(seed)), expected)


def test_the_ball_finds_by_its_top_bits_what_a_full_search_finds():
    from hlavolamy.solve.strategies.beam import ball, row_hashes

    puzzle = wreath(9)
    goal = np.asarray(puzzle.colour_ids)
    known = ball(puzzle, goal, np.uint8, 5_000)
    rows = np.stack([goal[scrambled(puzzle, k % 7, k).perm] for k in range(300)]).astype(np.uint8)
    hashes = np.concatenate([row_hashes(rows), known.hashes[::50], np.arange(20, dtype=np.uint64)])
    at = np.minimum(np.searchsorted(known.hashes, hashes), known.hashes.size - 1)
    full = np.where(known.hashes[at] == hashes, known.entry[at], -1)
    found = known.find(hashes)
    assert np.array_equal(found, full) and (found >= 0).sum() > 20


@pytest.mark.parametrize("puzzle,labels", [(wreath(12), 3), (globe(3, 8), 12), (globe(3, 8), 300)],
                         ids=["wreath12", "globe3x8", "globe3x8-wide-labels"])
def test_a_levels_child_sums_are_those_of_the_childrens_rows(puzzle, labels):
    """The beam never makes its children's rows before it keeps them: their hashes, buckets and near sums, worked
    out from the parents' rows, must be what the children's own rows give (labels past 255: int32 rows)."""
    from hlavolamy.solve.strategies.beam import _Children, nearest, row_hashes
    from hlavolamy.solve.tables.steps import step_automaton

    rng = np.random.default_rng(labels)
    goal = rng.integers(0, labels, puzzle.n_cells)
    goal[0] = labels - 1
    dtype = np.uint8 if labels < 256 else np.int32
    perms = step_automaton(puzzle).perms
    children = _Children(nearest(puzzle, goal), goal, int(goal[1]), np.dtype(dtype).itemsize, perms)
    rows = np.stack([goal[rng.permutation(puzzle.n_cells)] for _ in range(40)]).astype(dtype)
    hashes, buckets, near = children.hashes(rows), children.buckets(rows), children.near_steps(rows)
    for g, perm in enumerate(perms):
        child = rows[:, perm]
        assert np.array_equal(hashes[:, g], row_hashes(child))
        assert np.array_equal(buckets[:, g], row_hashes(child == goal[1]))
        assert np.array_equal(children.near(rows) + near[:, g], children.near(child))
        assert np.array_equal(children.near(child) % children.scale, np.count_nonzero(child != goal, axis=1))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 70_000), st.integers(1, 300))
def test_the_wrapping_product_is_numpys_integer_product(seed, most, cells):
    """Bit slices of the weights through float64 BLAS give exactly the uint64 product, whatever the values' size."""
    from hlavolamy.solve.strategies.beam import _Product

    rng = np.random.default_rng(seed)
    weights = rng.integers(0, 2**64, size=(cells, 5), dtype=np.uint64, endpoint=False)
    rows = rng.integers(0, most, size=(7, cells), endpoint=True)
    rows[0] = most
    assert np.array_equal(_Product(weights, most).times(rows), rows.astype(np.uint64) @ weights)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=200))
def test_the_first_occurrences_are_uniques_index(values):
    from hlavolamy.solve.strategies.beam import _first_occurrences

    values = np.array(values, dtype=np.uint64)
    assert np.array_equal(_first_occurrences(values), np.unique(values, return_index=True)[1])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3_000), st.integers(1, 40), st.booleans())
def test_the_first_occurrences_of_hashes_are_uniques_index(seed, count, distinct, near_twins):
    """Hashes take the packed-key sort; two hashes differing in their low bits alone must not pass for one."""
    from hlavolamy.solve.strategies.beam import _first_occurrences

    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 2**64, size=distinct, dtype=np.uint64, endpoint=False)
    if near_twins:
        pool[-1] = pool[0] ^ np.uint64(1)  # the same top bits, another value
    values = pool[rng.integers(0, distinct, size=count)]
    assert np.array_equal(_first_occurrences(values), np.unique(values, return_index=True)[1])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2_000), st.integers(1, 200))
def test_a_level_is_ordered_by_score_then_noise(seed, count, spread):
    """The single-key sort orders as ``np.lexsort`` does, equal noise included (then by index)."""
    from hlavolamy.solve.strategies.beam import _by_score

    rng = np.random.default_rng(seed)
    score = rng.integers(0, spread, size=count) * rng.integers(1, 2**40)
    noise = rng.random(count)
    if count > 3:
        noise[1] = noise[3]
        score[1] = score[3]
    among = np.flatnonzero(rng.random(count) < 0.7)
    assert np.array_equal(_by_score(score, noise, among), among[np.lexsort((noise[among], score[among]))])


def test_the_children_of_a_position_no_database_reaches_are_not_reached_either():
    """A rank of -1 (a projection the cut build never reached) must give its children -1, not another row's."""
    from hlavolamy.solve.strategies.beam import _Guide
    from hlavolamy.solve.tables.steps import step_automaton

    puzzle = globe(3, 6)
    problem = Problem.from_input(puzzle, np.asarray(puzzle.colour_ids)[scrambled(puzzle, 12, 3).perm])
    guide = _Guide(problem, 0)
    steps = len(step_automaton(puzzle).turns)
    ranks = guide.ranks(problem.labels[None, :].astype(np.uint8))
    assert ranks.shape[0] == len(guide.tables) > 0 and (ranks >= 0).all()
    ranks = np.concatenate([ranks, np.full_like(ranks, -1)], axis=1)
    child = np.arange(2 * steps)  # every step of the position, then of a row of -1
    after = guide.step(ranks, child)
    expected = np.stack([table.table[ranks[k, 0]] for k, table in enumerate(guide.tables)])
    assert np.array_equal(after[:, :steps], expected) and (after[:, steps:] == -1).all()
