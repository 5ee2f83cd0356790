"""The host's hlavolamy_recognise hook: a plugin's drawing is attached to an import only when it checks out."""

from __future__ import annotations

import textwrap

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.plugins.manager import PluginHost

PLUGIN = """
from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry, hookimpl


class Swap(Geometry):
    name = "{name}"

    def build(self, **params):
        return Puzzle("AB", self.moves({{}}))

    def moves(self, data):
        return {{"s": {moves}}}


@hookimpl
def hlavolamy_geometries():
    return [Swap()]


@hookimpl
def hlavolamy_recognise(puzzle):
    {body}
"""


def host_with(tmp_path, **plugins: tuple[str, str]) -> PluginHost:
    for name, (moves, body) in plugins.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(PLUGIN.format(name=name, moves=moves, body=body)))
    return PluginHost([tmp_path], entry_points=False)


def swap() -> Puzzle:
    return Puzzle("AB", {"s": [1, 0]})


def test_a_checked_answer_is_attached(tmp_path):
    host = host_with(tmp_path, good=("[1, 0]", "return PluginRecord('good', {'n': 2})"))
    puzzle = swap()
    assert host.recognise(puzzle) and puzzle.plugin.name == "good" and puzzle.plugin.data == {"n": 2}
    assert not host.recognise(puzzle)  # already drawn: left alone


def test_wrong_raising_and_foreign_answers_are_passed_over(tmp_path):
    host = host_with(tmp_path,
                     a_liar=("[0, 1]", "return PluginRecord('a_liar', {})"),
                     b_broken=("[1, 0]", "raise RuntimeError('boom')"),
                     c_thief=("[1, 0]", "return PluginRecord('a_liar', {})"),
                     d_silent=("[1, 0]", "return None"))
    assert host.failures == []
    puzzle = swap()
    assert not host.recognise(puzzle) and puzzle.plugin is None
