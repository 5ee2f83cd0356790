"""Search-first: the dearest group by the beam (with rings for the invariants), the rest by macros; replays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble, scrambled
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.solve import solve
from hlavolamy.solve.macros.pairing import paired_plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from hlavolamy.solve.strategies import beam as beam_module
from hlavolamy.solve.strategies import search_first
from hlavolamy.solve.strategies.insertion import turns_per_cell
from hlavolamy.solve.strategies.search_first import (
    ring_problem,
    ring_puzzle,
    searched_group,
)
from hlavolamy.solve.tables.quotient import invariant_vector, moduli
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik3():
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def test_the_group_searched_has_the_dearest_macros(rubik3):
    plan = paired_plan(rubik3)
    g = searched_group(plan)
    costs = [turns_per_cell(t) for t in plan.tables if t is not None]
    assert turns_per_cell(plan.tables[g]) == max(costs)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), length=st.integers(0, 25))
def test_the_rings_follow_the_invariant_vector_and_the_cells_follow_the_group(rubik3, seed, length):
    plan = paired_plan(rubik3)
    cells = plan.groups[searched_group(plan)]
    turns = random_scramble(rubik3, length, seed)
    problem = Problem.from_input(rubik3, State.solved(rubik3))
    start = ring_problem(problem, cells)
    problem.play(turns)
    rings = ring_puzzle(rubik3, cells)
    after = start.labels[rings.perm_of([t for t in turns if t.move in rings.moves])]
    assert np.array_equal(after, ring_problem(problem, cells).labels)
    # the cells part is the group's own; each ring shows the component's value
    assert np.array_equal(after[: cells.size] == start.goal[: cells.size],
                          problem.labels[cells] == problem.goal[cells])
    top = int(start.goal[: cells.size].max()) + 1
    for m, v in zip(moduli(rubik3), invariant_vector(rubik3, problem.labels)):
        assert after[top] == top + v % m
        top += int(m)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_exact_positions_are_solved_and_replay(rubik3, seed):
    state = scrambled(rubik3, 30, seed)
    solution = solve(rubik3, state, strategy="search-first")
    assert solution.strategy == "search-first"
    assert state.apply(solution.moves).is_solved()


def test_a_position_by_colours_is_solved(rubik3):
    position = scrambled(rubik3, 30, 7)
    colours = np.asarray(rubik3.colour_ids)[position.perm]
    solution = solve(rubik3, colours, strategy="search-first")
    assert np.array_equal(colours[rubik3.perm_of(solution.moves)], rubik3.colour_ids)


def test_wider_beams_only_ever_shorten_the_groups_answer(rubik3):
    from hlavolamy.solve.strategies.beam import beam
    from hlavolamy.solve.strategies.search_first import WIDTH, widening_beam

    plan = paired_plan(rubik3)
    cells = plan.groups[searched_group(plan)]
    problem = Problem.from_input(rubik3, scrambled(rubik3, 30, 3))
    first = ring_problem(problem, cells)
    beam(first, width=WIDTH)
    widened = widening_beam(ring_problem(problem, cells), 1e10, CancelToken())  # work units (10 s idle)
    assert widened.is_solved() and widened.answer_length() <= first.answer_length()


def test_a_group_whose_colours_tell_its_pieces_apart_is_searched_exactly():
    from tests.analysis_helpers import cube

    puzzle = cube(4)
    plan = paired_plan(puzzle)
    cells = plan.groups[searched_group(plan)]  # the wings: 24 pieces, 24 ordered colour pairs
    colours = np.asarray(puzzle.colour_ids)[scrambled(puzzle, 60, 5).perm]
    problem = Problem.from_input(puzzle, colours)
    problem.cast_shadow()
    sub = ring_problem(problem, cells)
    assert sub.exact and np.array_equal(np.sort(sub.goal), np.arange(sub.goal.size))
    # every searched cell holds the piece that shows its colour there
    assert np.array_equal(puzzle.colour_ids[cells[sub.labels[: cells.size]]], colours[cells])


def test_one_cell_pieces_are_searched_by_colour_even_when_every_colour_differs():
    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.solve.strategies.search_first import tracks_pieces

    ring = Puzzle(["a", "b", "c", "d", "e"], {"t": [1, 2, 3, 4, 0]})  # five cells: no blocks
    problem = Problem.from_input(ring, np.array([1, 2, 3, 4, 0]))
    problem.cast_shadow()
    assert not tracks_pieces(problem, np.arange(5))
    assert not ring_problem(problem, np.arange(5)).exact


def test_exact_positions_keep_the_beam_over_cells():
    from hlavolamy.solve.strategies.search_first import tracks_pieces
    from tests.analysis_helpers import cube

    four = cube(4)
    plan = paired_plan(four)
    cells = plan.groups[searched_group(plan)]
    problem = Problem.from_input(four, scrambled(four, 40, 2))
    assert not tracks_pieces(problem, cells)
    assert not ring_problem(problem, cells).exact


def test_groups_as_dear_whose_colours_tell_pieces_apart_are_searched_together_within_the_cells_a_beam_solves(
        monkeypatch):
    from hlavolamy.solve.strategies.insertion import turns_per_cell
    from hlavolamy.solve.strategies.search_first import searched_groups
    from tests.analysis_helpers import cube

    five = cube(5, centre_slices=True)  # wings (48 cells) and middle edges (24): 1.33 turns a cell each
    plan = paired_plan(five)
    dearest = searched_group(plan)
    dear = {g for g, t in enumerate(plan.tables)
            if t is not None and turns_per_cell(t) == turns_per_cell(plan.tables[dearest])}
    assert len(dear) == 2 and plan.groups[dearest].size == max(plan.groups[g].size for g in dear) == 48
    solved = Problem.from_input(five, np.asarray(five.colour_ids))
    # together 72 cells: more than the first beam solves, so the wings alone, then wings and corners
    assert searched_groups(plan, solved) == [dearest]
    corners = next(g for g, cells in enumerate(plan.groups) if cells.size == 24 and g not in dear
                   and turns_per_cell(plan.tables[g]) >= search_first.ALSO_DEAR * turns_per_cell(plan.tables[dearest]))
    (middle,) = dear - {dearest}
    # the dearest group left, the middle edges, would cost the macros half what the wings do: no third beam
    assert search_first._dearest_left(plan, solved, {dearest, corners}) == [middle]
    assert search_first._groupings(plan, solved) == [[dearest], [dearest, corners]]
    monkeypatch.setattr(search_first, "SOLVED_CELLS", 72)
    assert set(searched_groups(plan, solved)) == dear and searched_groups(plan, solved)[0] == dearest
    # exact positions tell every piece apart too; a 4x4x4's corners are cheaper than its wings: alone
    four = cube(4)
    plan = paired_plan(four)
    assert searched_groups(plan, Problem.from_input(four, State.solved(four))) == [searched_group(plan)]


def test_more_beams_search_the_dearest_group_no_beam_has_searched_alone_and_joined():
    """A 6x6x6 by colours: wings, wings and corners, then the other wings, and they with the corners; none where
    every group whose colours tell its pieces apart is searched already (a 3x3x3) or the rest do not (a 4x4x4's
    centres)."""
    from tests.analysis_helpers import cube

    six = cube(6)
    plan = paired_plan(six)
    colours = np.asarray(six.colour_ids)[scrambled(six, 60, 5).perm]
    first, second, third, fourth = search_first._groupings(plan, Problem.from_input(six, colours))
    wings = {g for g, t in enumerate(plan.tables)
             if t is not None and turns_per_cell(t) == turns_per_cell(plan.tables[searched_group(plan)])}
    assert len(wings) == 2 and set(first) < wings and set(third) == wings - set(first)
    corners = set(second) - set(first)
    assert set(first) < set(second) and not set(second) & set(third) and set(fourth) == set(third) | corners
    for n in (3, 4):
        puzzle = cube(n)
        plan = paired_plan(puzzle)
        groupings = search_first._groupings(plan, Problem.from_input(puzzle, np.asarray(puzzle.colour_ids)))
        assert len(groupings) == 2 and search_first._dearest_left(plan, Problem.from_input(
            puzzle, np.asarray(puzzle.colour_ids)), set(groupings[1])) is None


def test_a_second_beam_searches_the_groups_nearly_as_dear_and_both_are_finished(monkeypatch):
    """A 4x4x4 by colours: one beam on the wings, another from the start on wings and corners; every hand-over
    position of both is finished and the shortest whole answer kept. Exact positions keep one beam."""
    from tests.analysis_helpers import cube

    four = cube(4)
    plan = paired_plan(four)
    wings, corners = searched_group(plan), 0
    assert plan.groups[corners].size == 24 and turns_per_cell(plan.tables[corners]) < turns_per_cell(
        plan.tables[wings]) * search_first.AS_DEAR
    colours = np.asarray(four.colour_ids)[scrambled(four, 60, 3).perm]
    assert search_first._groupings(plan, Problem.from_input(four, colours)) == [[wings], [wings, corners]]
    assert search_first._groupings(plan, Problem.from_input(four, scrambled(four, 60, 3))) == [[wings]]

    searched, finished = [], []
    finish_real = search_first._finished

    def beam_stand_in(sub, units, cancel, others=None):
        """A quarter turn per beam so far: each beam hands over its own position (the real beam is tested above)."""
        searched.append(sub.puzzle.n_cells)
        sub.play([Turn(sorted(sub.puzzle.moves)[0], len(searched))])
        return sub

    def finish_spy(problem, plan, context, group_solver):
        done = finish_real(problem, plan, context, group_solver)
        finished.append(done.answer_length())
        return done

    offered = []

    def offer(answer, name):
        """The anytime runner's hold: told the first beam's best before the second beam runs."""
        assert answer.replays_to_goal(answer.turns)
        offered.append((len(searched), answer.answer_length(), name))

    monkeypatch.setattr(search_first, "widening_beam", beam_stand_in)
    monkeypatch.setattr(search_first, "_finished", finish_spy)
    problem = Problem.from_input(four, colours)
    search_first.solve_search_first(problem, Context(CancelToken(), offer=offer))
    assert offered == [(1, min(finished[:2]), "search-first")]  # the first beam's position, plainly and widely
    rings = int(moduli(four).sum())
    assert searched == [48 + rings, 72 + rings]
    assert problem.replays_to_goal(problem.turns)
    assert len(finished) == 4 and problem.answer_length() == min(finished)  # two positions, each finished twice


def test_positions_with_wildcards_are_taken_and_solved_within_them(rubik3):
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.solve.registry import Context, names, strategy

    assert "search-first" in names()
    record = strategy("search-first")
    assert record.applies(Problem.from_input(rubik3, State.solved(rubik3)), Context(CancelToken()))
    assert record.applies(Problem.from_input(rubik3, State.solved(rubik3), wildcards=2), Context(CancelToken()))
    position = scrambled(rubik3, 20, 4)
    solution = solve(rubik3, position, strategy="search-first", wildcards=2)
    end = position.apply(solution.moves)
    assert np.count_nonzero(end.perm != np.arange(rubik3.n_cells)) <= 2


@pytest.mark.slow
def test_the_4x4x4_by_colours_comes_out_shorter_than_insertion():
    puzzle = load_puzzle(PUZZLES / "rubik4.json").puzzle
    state = scrambled(puzzle, 200, 1)
    colours = np.asarray(puzzle.colour_ids)[state.perm]
    first = solve(puzzle, colours, strategy="search-first")
    insertion = solve(puzzle, colours, strategy="insertion")
    assert np.array_equal(colours[puzzle.perm_of(first.moves)], puzzle.colour_ids)
    assert first.length < insertion.length


def test_the_beams_work_follows_what_the_searched_cells_hold():
    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.solve.strategies import search_first as sf
    from tests.analysis_helpers import cube

    four = cube(4)
    plan = paired_plan(four)
    g = searched_group(plan)
    assert sf.search_work(four, plan.groups[g]) == sf.WORK  # wings: pieces of two cells

    def ring(n: int) -> Puzzle:
        swap = [1, 0] + list(range(2, n))  # with the turn: every permutation, so no blocks
        return Puzzle([str(c % 3) for c in range(n)], {"t": list(range(1, n)) + [0], "u": swap})

    assert sf.search_work(ring(16), np.arange(16)) == sf.ONE_CELL_WORK < sf.WORK  # one-cell pieces


def test_the_rest_is_finished_with_and_without_the_opening_and_the_shorter_kept(rubik3, monkeypatch):
    """Both finishes run after the beam, for each of its answers; the answer is the shortest (the opened one alone
    was often longer)."""
    openers, lengths = [], []
    real = search_first.solve_decomposed

    def recorded(problem, **kwargs):
        openers.append(kwargs.get("opener"))
        real(problem, **kwargs)
        lengths.append(problem.answer_length())

    monkeypatch.setattr(search_first, "solve_decomposed", recorded)
    colours = np.asarray(rubik3.colour_ids)[scrambled(rubik3, 30, 11).perm]
    problem = Problem.from_input(rubik3, colours)
    search_first.solve_search_first(problem, Context(CancelToken()))
    assert openers and openers == [search_first.open_cheaply, None] * (len(openers) // 2)
    assert problem.replays_to_goal(problem.turns)
    assert problem.answer_length() == min(lengths)


def test_every_answer_the_beam_gives_is_finished_and_the_shortest_whole_answer_kept(rubik3, monkeypatch):
    """The beam's other answers end in other positions of the other groups; each is finished, the shortest kept."""
    finished: list[int] = []
    real = search_first._finished

    def spy(problem, plan, context, group_solver):
        done = real(problem, plan, context, group_solver)
        finished.append(done.answer_length())
        return done

    monkeypatch.setattr(search_first, "_finished", spy)
    monkeypatch.setattr(beam_module, "OTHERS_SLACK", 2)
    colours = np.asarray(rubik3.colour_ids)[scrambled(rubik3, 30, 11).perm]
    problem = Problem.from_input(rubik3, colours)
    search_first.solve_search_first(problem, Context(CancelToken()))
    assert problem.replays_to_goal(problem.turns)
    assert len(finished) > 1
    assert problem.answer_length() == min(finished)


def test_cubes_up_to_sixty_single_steps_are_searched_first_and_bigger_ones_not():
    """A 7x7x7 (42 steps) to a 10x10x10 (60) are taken (Santa cube_7..10: 7-15 % shorter); an 11x11x11's 66 steps
    are not: from there each finish is a long insertion solve."""
    from hlavolamy.solve.tables.steps import step_automaton
    from tests.analysis_helpers import cube

    def applies(n: int, steps: int) -> bool:
        puzzle = cube(n, centre_slices=n % 2 == 1)  # every slice turns, as in Santa's cubes
        assert len(step_automaton(puzzle).turns) == steps
        return search_first.search_first_applies(Problem.from_input(puzzle, State.solved(puzzle)),
                                                 Context(CancelToken()))

    assert applies(7, 42) and applies(10, 60)
    assert not applies(11, 66)


def test_bigger_puzzles_finish_fewer_of_the_beams_answers():
    """A finish costs about the puzzle's size: every answer the beam gives up to a 6x6x6, fewer beyond, one at least."""
    from tests.analysis_helpers import cube

    assert search_first.handovers(cube(4)) == search_first.handovers(cube(6)) == beam_module.OTHERS + 1
    assert search_first.handovers(cube(8)) == search_first.HANDOVER_CELLS // 384 == 9
    assert search_first.handovers(cube(10)) == 5
    assert search_first.handovers(cube(33)) == 1
