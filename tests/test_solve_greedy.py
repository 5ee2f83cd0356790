"""The greedy group solver: conjugates while one gains, aimed 3-cycles at dead ends, and a wider aim last."""

from __future__ import annotations

import numpy as np

from hlavolamy.core.scramble import scrambled
from hlavolamy.solve.macros import decompose, greedy
from hlavolamy.solve.problem import Problem


def test_when_the_usual_aim_and_the_rescue_fail_the_wide_aim_is_tried_before_giving_up(rubik3, monkeypatch):
    """A gigaminx's wings were left 26 wrong: no conjugate gained, the usual aim (3 macros from 4 wrong cells on
    groups of over 100 cells) and the pair rescue found nothing, and the group solver gave up. Here a 3x3x3
    group meets such a dead end (forced once); the wide aim (16 wrong cells, 48 macros) carries on, and the
    group is solved."""
    plan = decompose.plan(rubik3)
    usual_gains, usual_aim, usual_rescue = greedy._gains, greedy._targeted, greedy._rescue
    calls: list[int | None] = []
    dead_end = [True]

    def gains(*args):
        out = usual_gains(*args)
        return np.zeros_like(out) if dead_end[0] else out

    def targeted(*args, macros=None, **kwargs):
        calls.append(macros)
        if dead_end[0] and macros is None:
            return None
        dead_end[0] = False
        return usual_aim(*args, macros=macros, **kwargs)

    def rescue(*args, **kwargs):
        return None if dead_end[0] else usual_rescue(*args, **kwargs)

    monkeypatch.setattr(greedy, "_gains", gains)
    monkeypatch.setattr(greedy, "_targeted", targeted)
    monkeypatch.setattr(greedy, "_rescue", rescue)
    table = next(t for t in plan.tables if t is not None)
    problem = Problem.from_input(rubik3, scrambled(rubik3, 40, 1))
    decompose.phase0(problem, plan.frozen)
    assert greedy.solve_group(problem, table)
    assert np.array_equal(problem.labels[table.cells], problem.goal[table.cells])
    assert calls[:2] == [None, greedy.WIDE_MACROS]
