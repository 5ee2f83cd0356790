"""The 3-cycle / small-support macro library and independent moves: every claim checked on the permutation."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.analysis import commutators
from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.commutators import LIBRARY_KINDS, three_cycle_library
from hlavolamy.analysis.independent import cell_groups, independent_moves, short_words
from hlavolamy.analysis.memo import analysis_cache
from hlavolamy.core import perm as P
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import invert
from hlavolamy.errors import Cancelled
from tests.conftest import PUZZLES


def check_macro(puzzle: Puzzle, m) -> None:
    perm = puzzle.perm_of(m.turns)
    assert tuple(P.support(perm).tolist()) == m.cells
    assert m.kind in LIBRARY_KINDS
    structure = pieces(puzzle)
    assert m.cells[0] in structure.orbits[m.orbit] or min(
        i for i, o in enumerate(structure.orbits) if set(o) & set(m.cells)) == m.orbit
    lengths = sorted(len(c) for c in P.cycles(perm))
    if m.kind == "3-cycle":
        assert lengths == [3]
    if m.kind == "double transposition" and len(m.cells) == 4:
        assert lengths == [2, 2]


@pytest.fixture(scope="module")
def rubik3() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def test_cube_library_has_every_kind_per_piece_orbit(rubik3):
    library = three_cycle_library(rubik3)
    for m in library:
        check_macro(rubik3, m)
    group_of, groups = cell_groups(rubik3)
    kinds = {(int(group_of[m.cells[0]]), m.kind) for m in library}
    for g, po in enumerate(pieces(rubik3).piece_orbits):
        if po.n_pieces >= 8:
            assert (g, "piece 3-cycle") in kinds
            assert (g, "twist") in kinds
    corner = [m for m in library if m.kind == "piece 3-cycle" and len(m.cells) == 9]
    assert corner and min(len(m.turns) for m in corner) <= 8


def test_batched_commutators_keep_what_offering_each_alone_keeps(rubik3, monkeypatch):
    """The pool offers a batch of commutators at once; it must keep exactly what offering them one by one keeps."""
    monkeypatch.setattr(commutators, "_BATCH_CELLS", 3_000)  # several batches
    structure, (group_of, _) = pieces(rubik3), cell_groups(rubik3)
    words = short_words(rubik3, 4, limit=300)
    batched = commutators._Pool(rubik3, structure, group_of)
    batched.add_commutators(words, words, float("inf"), None, max_overlap=rubik3.n_cells)
    alone = commutators._Pool(rubik3, structure, group_of)
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            perm = a.perm[b.perm][P.inverse(a.perm)][P.inverse(b.perm)]
            alone.add(commutators.Word(a.turns + b.turns + invert(a.turns) + invert(b.turns), perm))
    assert batched.best
    assert {k: (w.length, w.groups) for k, w in batched.best.items()} == {
        k: (w.length, w.groups) for k, w in alone.best.items()}
    for w in batched.best.values():
        assert np.array_equal(rubik3.perm_of(w.turns), w.perm)


def test_several_macros_per_orbit_shortest_first(rubik3):
    library = three_cycle_library(rubik3)
    per_orbit: dict[tuple[int, str], list[int]] = {}
    for m in library:
        per_orbit.setdefault((m.orbit, m.kind), []).append(rubik3.length(m.turns))
    assert any(len(v) > 1 for v in per_orbit.values())


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_groups_macros_move_exactly_their_cells(data):
    n = data.draw(st.integers(3, 9))
    moves = {f"m{i}": data.draw(st.permutations(range(n))) for i in range(data.draw(st.integers(1, 3)))}
    puzzle = Puzzle([str(i) for i in range(n)], moves)
    for m in three_cycle_library(puzzle, work=2e9):
        check_macro(puzzle, m)


def test_alternating_group_yields_three_cycles():
    puzzle = Puzzle(list("ABCDE"), {"a": [1, 2, 0, 3, 4], "b": [0, 1, 3, 4, 2]})
    library = three_cycle_library(puzzle)
    assert any(m.kind == "3-cycle" for m in library)


def test_independent_moves_fix_everything_else(rubik3):
    found = independent_moves(rubik3)
    group_of, _ = cell_groups(rubik3)
    assert found
    for ind in found[:50]:
        perm = rubik3.perm_of(ind.turns)
        moved = P.support(perm)
        assert tuple(moved.tolist()) == ind.cells
        assert len(set(group_of[moved].tolist())) == 1


def test_independent_moves_over_max_turns_are_left_out_and_the_rest_kept_as_they_were(rubik3):
    """A power ``w**k`` may list tens of thousands of turns (a radio chop's did: most of its 2.4 s was listing them);
    with ``max_turns`` they are priced, never listed, and the result is the unlimited one without them."""
    every = independent_moves(rubik3)
    capped = independent_moves(rubik3, max_turns=12)
    assert any(len(m.turns) > 12 for m in every)
    assert capped == [m for m in every if len(m.turns) <= 12]


def test_short_words_are_distinct_and_shortest_first():
    puzzle = Puzzle(list("ABCD"), {"r": [1, 2, 3, 0]})
    words = short_words(puzzle, 4)
    assert [len(w.turns) for w in words] == [1, 1, 2]
    assert len({w.perm.tobytes() for w in words}) == len(words)
    assert all(np.array_equal(puzzle.perm_of(w.turns), w.perm) for w in words)


def test_short_words_cut_short_keep_the_fewest_cells_up_to_a_length():
    # a 6-cycle and two swaps: of the two-step words, "a a" comes first in the order of the moves,
    # "b c" moves the fewest cells
    puzzle = Puzzle(list("ABCDEFGHIJ"), {"a": [1, 2, 3, 4, 5, 0, 6, 7, 8, 9], "b": [0, 1, 2, 3, 4, 5, 7, 6, 8, 9],
                                         "c": [0, 1, 2, 3, 4, 5, 6, 7, 9, 8]})
    plain = short_words(puzzle, 3, limit=5)
    fewest = short_words(puzzle, 3, limit=5, fewest_cells_upto=2)
    assert [w.turns for w in plain[:4]] == [w.turns for w in fewest[:4]]
    assert [(t.move, t.power) for t in plain[4].turns] == [("a", 1), ("a", 1)]
    assert np.count_nonzero(fewest[4].perm != np.arange(10)) == 4
    assert np.array_equal(puzzle.perm_of(fewest[4].turns), fewest[4].perm)
    assert len(short_words(puzzle, 3, limit=40, fewest_cells_upto=3)) == len(short_words(puzzle, 3, limit=40))
    longer = short_words(puzzle, 3, limit=5, fewest_cells_upto=1)  # the cut length, 2, is longer: order of the moves
    assert [w.turns for w in longer] == [w.turns for w in plain]


def _kind_by_locate(po, perm: np.ndarray) -> str:
    """The kind of one element, read off the whole permutation by :meth:`PieceOrbit.locate` (the reference)."""
    slots, turns = po.locate(perm)
    moved = np.flatnonzero(slots != np.arange(slots.size))
    if moved.size == 3:
        return "3-cycle" if po.piece_size == 1 else "piece 3-cycle"
    if moved.size == 4 and np.array_equal(slots[slots[moved]], moved):
        return "double transposition"
    if moved.size == 0 and np.any(turns != np.arange(po.piece_size)):
        return "twist"
    return "other"


def _pool_kinds(puzzle: Puzzle, *extra: list[int]) -> set[str]:
    """Fill a pool with commutators, twists and ``extra`` permutations, check each named kind against the
    reference; the kinds seen."""
    structure, (group_of, _) = pieces(puzzle), cell_groups(puzzle)
    words = short_words(puzzle, 4, limit=300)
    pool = commutators._Pool(puzzle, structure, group_of)
    for perm in extra:
        pool.add(commutators.Word([], np.array(perm)))
    pool.add_commutators(words, words, float("inf"), None, max_overlap=puzzle.n_cells)
    pool.add_twists(words[:50], {("piece 3-cycle", g) for g in range(len(structure.piece_orbits))}, None)
    pool.kept()
    seen = set()
    for g, keys in pool.by_group.items():
        for key in keys:
            kind = _kind_by_locate(structure.piece_orbits[g], pool.best[key].perm)
            assert pool.kinds[key] == kind
            seen.add(kind)
    return seen


def test_kinds_named_at_once_are_those_of_each_whole_permutation(rubik3):
    """The pool names a group's elements in one batch from their moved cells; each as its full permutation says."""
    assert {"piece 3-cycle", "twist"} <= _pool_kinds(rubik3)
    eight = Puzzle(list("ABCDEFGH"), {"a": [1, 2, 0, 3, 4, 5, 6, 7], "b": [1, 2, 3, 4, 5, 6, 7, 0]})
    kinds = _pool_kinds(eight, [1, 0, 3, 2, 4, 5, 6, 7], [0, 2, 1, 3, 5, 4, 6, 7], [1, 0, 2, 3, 4, 5, 6, 7])
    assert {"3-cycle", "double transposition", "other"} <= kinds


_LIBRARY_DIGEST = """
import hashlib, pickle, sys
from hlavolamy.analysis.commutators import small_support_macros
from hlavolamy.core.fileformat import load_puzzle
lib = small_support_macros(load_puzzle(sys.argv[1]).puzzle, complete=True)
print(hashlib.sha1(pickle.dumps([(m.turns, m.cells, m.kind) for m in lib])).hexdigest())
"""


def test_the_library_is_the_same_in_every_process(tmp_path):
    """Python salts the hashes of str and bytes per process (PYTHONHASHSEED), so anything iterating a set of
    them meets ties in another order: the 3x3x3's library (and a Santa 5x5x5's answer) differed between
    processes until the pool kept its elements in insertion order."""
    digests = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "HLAVOLAMY_CACHE_DIR": str(tmp_path / seed)}
        done = subprocess.run([sys.executable, "-c", _LIBRARY_DIGEST, str(PUZZLES / "rubik3.json")], env=env,
                              capture_output=True, text=True, check=True)
        digests.add(done.stdout.strip())
    assert len(digests) == 1


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 7), st.data())
def test_a_batch_keeps_the_first_of_each_distinct_commutator(m, data):
    """The pool's batch filter drops exact repeats only (hash clashes are checked), keeping first occurrences in
    order: what offering every row one by one would have kept."""
    perms = data.draw(st.lists(st.permutations(list(range(m))), min_size=1, max_size=30))
    pool = data.draw(st.lists(st.sampled_from(perms), min_size=1, max_size=60))
    comm = np.array(pool, dtype=np.int64)
    moved = comm != np.arange(m)
    keep = moved.any(axis=1)  # the pool is offered moving rows only
    if not keep.any():
        return
    comm, moved = comm[keep], moved[keep]
    seen, expected = set(), []
    for k, row in enumerate(comm.tolist()):
        if tuple(row) not in seen:
            seen.add(tuple(row))
            expected.append(k)
    assert commutators._first_of_each(moved, comm).tolist() == expected


def test_the_batch_filter_keeps_rows_whose_hashes_clash(monkeypatch):
    """Two different commutators given one hash (a forced clash: the two 3-cycles of cells 0, 1, 2) are both
    kept."""
    comm = np.array([[1, 2, 0, 3], [2, 0, 1, 3], [1, 2, 0, 3]])
    moved = comm != np.arange(4)
    real = np.random.default_rng

    class Zero:
        def __init__(self, seed):
            pass

        def integers(self, low, high, size, dtype):
            return np.zeros(size, dtype=dtype)  # | 1 makes every weight 1: a row's key is the sum of its cells

    monkeypatch.setattr(commutators.np.random, "default_rng", Zero)
    assert commutators._first_of_each(moved, comm).tolist() == [0, 1]
    monkeypatch.setattr(commutators.np.random, "default_rng", real)


def fresh_rubik3(monkeypatch: pytest.MonkeyPatch) -> Puzzle:
    """The 3x3x3 as a new process without a disk cache sees it: no library anywhere."""
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", "off")
    monkeypatch.setattr(commutators, "_BY_MOVES", {})
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def test_a_quick_library_then_the_complete_one_is_the_library_a_search_at_one_go_finds(monkeypatch):
    """The first answer takes a quick library from the first stages; the race then needs the complete one, which
    goes on from the same pool (the quick library's local searches and twists were made on a copy)."""
    at_once = commutators.small_support_macros(fresh_rubik3(monkeypatch), complete=True)
    puzzle = fresh_rubik3(monkeypatch)
    quick = commutators.quick_library(puzzle, frozen_cells=0)
    assert quick and analysis_cache(puzzle).library_search is not None
    for m in quick:
        if m.kind in LIBRARY_KINDS:
            check_macro(puzzle, m)
    assert commutators.small_support_macros(puzzle, complete=True) == at_once
    assert analysis_cache(puzzle).library_search is None
    assert commutators.quick_library(puzzle, frozen_cells=0) == at_once  # the complete library, once at hand


@pytest.mark.parametrize("frozen_cells, stages, searched", [(10**6, 1, []), (0, 5, [0])])
def test_the_quick_library_goes_on_only_while_the_groups_without_3_cycles_hold_too_many_cells(
        monkeypatch, frozen_cells, stages, searched):
    """More global stages, then local searches (biggest group first, each once), only while the groups left
    without 3-cycles hold more than ``frozen_cells`` cells: phase 0 solves fewer cheaply without macros.
    Here group 0 is made to lack 3-cycles whatever is found."""
    puzzle = fresh_rubik3(monkeypatch)
    monkeypatch.setattr(commutators.LibrarySearch, "_lacking", lambda self, kept: [0])
    local: list[int] = []
    usual_local = commutators._Pool.add_local
    monkeypatch.setattr(commutators._Pool, "add_local",
                        lambda pool, g, *args: local.append(g) or usual_local(pool, g, *args))
    commutators.quick_library(puzzle, frozen_cells=frozen_cells)
    search = analysis_cache(puzzle).library_search
    assert (search.done, local) == (stages, searched)
    entries = len(search.pool.best)
    commutators.quick_library(puzzle, frozen_cells=frozen_cells)
    assert len(search.pool.best) == entries  # the local searches went to a copy


def test_a_cancelled_stage_leaves_the_search_to_be_started_afresh(monkeypatch):
    puzzle = fresh_rubik3(monkeypatch)
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        commutators.quick_library(puzzle, frozen_cells=0, cancel=cancel)
    assert analysis_cache(puzzle).library_search.broken
    assert commutators.small_support_macros(puzzle, complete=True) == commutators.small_support_macros(
        fresh_rubik3(monkeypatch), complete=True)


def test_groups_whose_3_cycles_are_long_get_a_local_search_too():
    """The global stages' caps can miss short words that only a few moves make: a 6x6x6's corners get only long
    3-cycles from them, and the local search of that group finds short ones (on a Santa 8x8x8's wings: 18 turns
    -> 8, its answers a third shorter)."""
    from hlavolamy.plugins.manager import PluginHost
    from tests.test_cubes import REPO

    cube6 = PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes").build(size=6)
    search = commutators.LibrarySearch(cube6, commutators.LIBRARY_WORK)
    search.run(len(search.stages), None, None)
    assert search._long(search.pool.kept()) == [0]
    library, _ = search.finish(True, None, None)
    assert search._long(library) == []
    assert search._cheapest(library)[0] <= 8
    for m in library:
        if m.kind in LIBRARY_KINDS:
            check_macro(cube6, m)
