"""Fuzzed inputs for every entry point of the core and the CLI, and how each is run.

An entry point is a hypothesis strategy of inputs and a runner. A runner
returns ``"ok"`` (accepted) or ``"clean"`` (refused with a project error: a
:class:`HlavolamyError`, or for the CLI exit status 2 with one
``hlavolamy COMMAND: error: ...`` line); anything else it raises. The default
suite runs each entry point for a few hundred examples (``tests/test_fuzz.py``);
``tests/fuzz/run_fuzz.py`` runs thousands and counts the outcomes.

Runners for the CLI call :func:`hlavolamy.cli.main` in-process inside
:class:`Workspace`, a temporary folder holding small puzzle files (solves
stay fast: at most 8 cells) and its own disk cache.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from helpers import MINIMAL_FILE, bandaged_puzzle, ring_puzzle, santa_like_puzzle  # noqa: E402

from hlavolamy import cli  # noqa: E402
from hlavolamy.core.fileformat import dumps_puzzle, loads_puzzle  # noqa: E402
from hlavolamy.errors import HlavolamyError  # noqa: E402

# -- raw material ----------------------------------------------------------------
SMALL_FILES = {
    "minimal": json.dumps(MINIMAL_FILE),
    "ring": dumps_puzzle(ring_puzzle()),
    "bandaged": dumps_puzzle(bandaged_puzzle()),
    "santa": dumps_puzzle(santa_like_puzzle()),
}
"""Valid files of 4 to 8 cells: the seeds every puzzle-file input is mutated from."""

HUGE_INTS = [2**63, 10**20, -(10**19), 10**400]
LONG_NUMBER = "9" * 5000
"""Over Python's 4,300-digit limit: only as text (hypothesis could not even print it as an integer)."""
NASTY_TEXT = [
    "\ud800", "\udcff", "\x00", "\u202e", "é", "🧩", "\\", '"', "\n", "", " ", "-", "--", "@", "@/nonexistent",
    "NaN", "Infinity", "-Infinity", "1e400", LONG_NUMBER, "[" * 200, "{" * 200, "(" * 300 + "R" + ")" * 300,
]

json_scalars = (
    st.none() | st.booleans() | st.integers(-10, 20) | st.sampled_from(HUGE_INTS)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6) | st.sampled_from(NASTY_TEXT)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


def _json_text(value: Any) -> str:
    """``json.dumps`` that also writes what JSON forbids (NaN) and integers of any length."""
    with _no_int_digit_limit():
        return json.dumps(value, ensure_ascii=False)


@contextlib.contextmanager
def _no_int_digit_limit():
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


@st.composite
def mutated_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A valid small puzzle file with a few keys or entries replaced, deleted or added."""
    data = json.loads(draw(st.sampled_from(sorted(SMALL_FILES.values()))))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(data) + ["x-extra", "aliases", "history", "position", "blockings"]))
        action = draw(st.sampled_from(["replace", "delete", "entry"]))
        if action == "delete":
            data.pop(key, None)
        elif action == "entry" and isinstance(data.get(key), (list, dict)) and data[key]:
            container = data[key]
            index = draw(st.sampled_from(sorted(container) if isinstance(container, dict) else range(len(container))))
            container[index] = draw(json_values | st.sampled_from(["L R", "(L", "[L, R]" * 3, "-L", "R1000001"]))
        else:
            data[key] = draw(json_values | st.sampled_from(["L (R L')3", "[L: R]", "(" * 120 + "L" + ")" * 120]))
    return data


@st.composite
def text_mutations(draw: st.DrawFn) -> str:
    """A valid file's text with characters inserted, deleted or a span replaced."""
    text = draw(st.sampled_from(sorted(SMALL_FILES.values())))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 8))
        insert = draw(st.text(alphabet='[]{}",:0123456789-.eE \\u' + "d8a\ud800", max_size=8)
                      | st.sampled_from(NASTY_TEXT + [str(n) for n in HUGE_INTS[:3]]))
        text = text[:at] + insert + text[at + cut:]
    return text


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


puzzle_texts = st.one_of(
    mutated_dicts().map(_json_text),
    text_mutations(),
    st.integers(1, 150_000).map(_nested),
    json_values.map(_json_text),
    st.text(max_size=40),
)
"""Texts of would-be puzzle files."""

NOTATION_ALPHABET = list("LRMXUfr01'2^-()[],:. \t") + ["LR", "R2", "f1", "f0", "r1", "\ud800", "é", "_"]
_atoms = st.sampled_from(["L", "R", "M", "LR", "R2"] * 3 + ["X", "f0", "f1", "r1"])
"""Mostly the ring puzzle's names (the puzzle most runners use), sometimes the others'."""
_powers = st.sampled_from(["", "", "'", "2", "3'", "^-1", "^2", "1000", "^1000000", "1000001", "4294967296", "^0"])
_nodes = st.recursive(_atoms, lambda inner: st.one_of(
    st.tuples(st.lists(inner, min_size=1, max_size=3), _powers).map(lambda t: "(" + " ".join(t[0]) + ")" + t[1]),
    st.tuples(inner, st.sampled_from([", ", ": "]), inner, _powers).map(lambda t: f"[{t[0]}{t[1]}{t[2]}]{t[3]}"),
), max_leaves=10)
well_formed = st.lists(st.tuples(st.sampled_from(["", "", "-"]), _nodes, _powers).map("".join),
                       min_size=1, max_size=6).map(" ".join)
"""Sequences by the grammar (names of all the small puzzles, powers up to and past the limits)."""
notation_texts = st.one_of(
    well_formed,
    well_formed,
    st.lists(st.sampled_from(NOTATION_ALPHABET), max_size=40).map("".join),
    st.text(max_size=20),
    st.integers(1, 5000).map(lambda d: "(" * d + "L" + ")" * d),
    st.integers(1, 5000).map(lambda d: "L" + "1" * d),
    st.sampled_from(["(L R)4294967296", "((L R)1000)1000", "[L, R]500000", "L^-1000000", "-L", "-(L R)"]),
)
"""Move sequences for the small puzzles (moves L R M X f0 f1 r1; aliases LR and R2)."""


LABELS = {4: "AB", 6: "ABC", 8: "WYRG"}
"""The colour labels of the small puzzles, by their number of cells."""


@st.composite
def state_texts(draw: st.DrawFn, cells: int = 8) -> str:
    """``--state`` / ``--from-state`` / ``--colours`` arguments: JSON of every kind, near-misses, files."""
    entry = st.integers(-1, cells) | st.sampled_from(HUGE_INTS + [True, False, 1.0, 0.5, "1", None])
    near = st.permutations(range(cells)).map(list)
    value = draw(st.one_of(
        near, near, near, st.lists(entry, max_size=cells + 2), near.map(lambda p: {"perm": p}), near.map(lambda p: {"position": p}),
        st.lists(st.sampled_from(["W", "Y", "R", "G", "A", "B", "C", "\ud800", 0]), min_size=cells - 1,
                 max_size=cells + 1).map(lambda c: {"colours": c}),
        st.lists(st.sampled_from(LABELS.get(cells, "AB")), min_size=cells, max_size=cells),  # the right labels

        json_values,
    ))
    text = _json_text(value)
    return draw(st.sampled_from([text] * 6 + ["@/nonexistent/state.json", text[:-1], _nested(10_000), "[1e400]",
                                 f"[{LONG_NUMBER}, 1]", f'{{"perm": [-{LONG_NUMBER}]}}']))


# -- the workspace -----------------------------------------------------------------
class Workspace:
    """A temporary folder with the small puzzle files and a private disk cache; ``main`` runs the CLI there."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="hlavolamy-fuzz-")
        self.root = Path(self._tmp.name)
        self.files = {}
        for name, text in SMALL_FILES.items():
            path = self.root / f"{name}.json"
            path.write_text(text, encoding="utf-8")
            self.files[name] = str(path)
        self.cache = self.root / "cache"
        self.cache.mkdir()
        (self.root / "out").mkdir()

    def close(self) -> None:
        self._tmp.cleanup()

    def write(self, name: str, text: str) -> str:
        path = self.root / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return str(path)

    def main(self, argv: list[str], env: dict[str, str] | None = None) -> str:
        """Run the CLI in-process; ``"ok"`` (exit 0 or 1), ``"clean"`` (exit 2, one error line), else raises."""
        out, err = io.StringIO(), io.StringIO()
        saved = {k: os.environ.get(k) for k in ("HLAVOLAMY_CACHE_DIR", "HLAVOLAMY_CACHE_MAX_MB")}
        os.environ["HLAVOLAMY_CACHE_DIR"] = str(self.cache)
        os.environ.pop("HLAVOLAMY_CACHE_MAX_MB", None)
        os.environ.update(env or {})
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = cli.main(argv)
                except SystemExit as exc:  # argparse: a usage error (exit 2) or --help (exit 0)
                    code = exc.code if isinstance(exc.code, int) else 2
                    if code not in (0, 2):
                        raise AssertionError(f"{argv!r}: SystemExit({exc.code!r})") from None
                    return "ok" if code == 0 else "clean"
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        if code in (0, 1):
            return "ok"
        lines = err.getvalue().splitlines()
        if code != 2 or not lines or not lines[-1].startswith(f"hlavolamy {argv[0]}: error: "):
            raise AssertionError(f"{argv!r}: exit {code}, stderr {err.getvalue()[-500:]!r}")
        return "clean"


def _project(call: Callable[[], Any]) -> str:
    try:
        call()
    except HlavolamyError:
        return "clean"
    return "ok"


# -- entry points ----------------------------------------------------------------------
CELLS = {"minimal": 4, "ring": 8, "bandaged": 6, "santa": 6}


def _puzzle_and_cells(ws: Workspace, draw: st.DrawFn) -> tuple[str, int]:
    """A puzzle argument and the cells states for it should have (valid ones fit, so commands get past parsing)."""
    path = _puzzle_file(ws, draw)
    return path, CELLS.get(Path(path).stem, 8)


def _puzzle_file(ws: Workspace, draw: st.DrawFn) -> str:
    choice = draw(st.sampled_from(["minimal", "ring", "bandaged", "santa"] * 3 + ["fuzzed", "fuzzed", "missing", "folder"]))
    if choice == "fuzzed":
        return ws.write("fuzzed.json", draw(puzzle_texts))
    if choice == "missing":
        return str(ws.root / "missing.json")
    if choice == "folder":
        return str(ws.root / "out")
    return ws.files[choice]


def _maybe(draw: st.DrawFn, *options: str) -> list[str]:
    return [o for o in options if draw(st.booleans())]


def _number_text(draw: st.DrawFn, low: int, high: int) -> str:
    """Mostly a number in range; sometimes one out of range, too big, or not a number."""
    if draw(st.integers(0, 3)):
        return str(draw(st.integers(low, high)))
    return draw(st.sampled_from(["-1", "1000001", "100000000", str(2**64), "nan", "inf", "x", "", "1e3"]))


def run_loader(ws: Workspace, draw: st.DrawFn) -> str:
    text = draw(puzzle_texts)
    return _project(lambda: loads_puzzle(text, "fuzz.json"))


def run_notation(ws: Workspace, draw: st.DrawFn) -> str:
    puzzle = draw(st.sampled_from([ring_puzzle(), ring_puzzle(), santa_like_puzzle(), bandaged_puzzle()]))
    text = draw(notation_texts)
    return _project(lambda: puzzle.parse(text))


def run_state(ws: Workspace, draw: st.DrawFn) -> str:
    from hlavolamy.cli.common import parse_colours_json, parse_state_json

    puzzle = ring_puzzle()
    text = draw(state_texts())
    parse = draw(st.sampled_from([parse_state_json, parse_colours_json]))
    return _project(lambda: parse(text, puzzle))


def run_apply(ws: Workspace, draw: st.DrawFn) -> str:
    path, cells = _puzzle_and_cells(ws, draw)
    argv = ["apply", path, draw(notation_texts)]
    if draw(st.booleans()):
        argv += ["--from-state", draw(state_texts(cells))]
    return ws.main(argv + _maybe(draw, "--json"))


def run_scramble(ws: Workspace, draw: st.DrawFn) -> str:
    argv = ["scramble", _puzzle_file(ws, draw), "--moves", _number_text(draw, 0, 60), "--seed", _number_text(draw, 0, 9)]
    if draw(st.booleans()):
        argv += ["-o", draw(st.sampled_from([str(ws.root / "out" / "s.json"), str(ws.root / "out"),
                                             str(ws.root / "no" / "s.json")]))]
    return ws.main(argv + _maybe(draw, "--json"))


def run_solve(ws: Workspace, draw: st.DrawFn) -> str:
    path, cells = _puzzle_and_cells(ws, draw)
    argv = ["solve", path]
    source = draw(st.sampled_from(["--scramble", "--state", "--colours"]))
    argv += [source, _number_text(draw, 0, 30) if source == "--scramble" else draw(state_texts(cells))]
    argv += ["--time-limit", draw(st.sampled_from(["2"] * 6 + ["0.5", "nan", "inf", "-1", "0", "x"]))]
    if draw(st.booleans()):
        argv += ["--wildcards", _number_text(draw, 0, 3)]
    if draw(st.booleans()):
        argv += ["--strategy", draw(st.sampled_from(["auto", "commutators", "search", "chain", "optimal", "nosuch"]))]
    if draw(st.booleans()):
        argv += ["--mode", draw(st.sampled_from(["whole", "orbit-keep", "orbit-only"])), "--orbit",
                 _number_text(draw, -1, 3)]
    return ws.main(argv + _maybe(draw, "--json"))


def run_check(ws: Workspace, draw: st.DrawFn) -> str:
    path, cells = _puzzle_and_cells(ws, draw)
    argv = ["check", path, draw(st.sampled_from(["--state", "--colours"])), draw(state_texts(cells))]
    if draw(st.booleans()):
        argv += ["--wildcards", _number_text(draw, 0, 3)]
    return ws.main(argv + _maybe(draw, "--json"))


def run_info(ws: Workspace, draw: st.DrawFn) -> str:
    return ws.main(["info", _puzzle_file(ws, draw)] + _maybe(draw, "--json", "--no-three-cycles"))


def run_new(ws: Workspace, draw: st.DrawFn) -> str:
    geometry = draw(st.sampled_from(["cubes", "circles", "square1", "nosuch", "", "-o", "--list"]))
    options = draw(st.lists(st.sampled_from(["--size", "--centre-slices", "--no-centre-slices", "--preset",
                                             "--middle", "--no-middle", "--help-me", "x"]), max_size=3))
    argv = ["new", geometry]
    for option in options:
        argv.append(option)
        if option in ("--size", "--preset", "x"):
            argv.append(draw(st.sampled_from(["2", "3", "1", "0", "101", "-5", str(2**70), "four", "rashkey",
                                              "nosuch", ""])))
    argv += ["-o", draw(st.sampled_from([str(ws.root / "out" / "n.json"), str(ws.root / "out"),
                                         str(ws.root / "no" / "n.json")]))]
    return ws.main(argv)


def run_cache(ws: Workspace, draw: st.DrawFn) -> str:
    shutil.rmtree(ws.cache)
    ws.cache.mkdir()
    for name in draw(st.lists(st.sampled_from(["a-1", "b-2", "c-3"]), max_size=3, unique=True)):
        path = ws.cache / f"{name}.pickle"
        kind = draw(st.sampled_from(["header", "bytes", "folder", "deep"]))
        if kind == "folder":
            (path / "inside").mkdir(parents=True)
            continue
        if kind == "deep":
            body = b"hlavolamy-cache\n" + b"[" * draw(st.integers(1, 5000)) + b"\n"
        elif kind == "header":
            header = _json_text(draw(json_values)).encode("utf-8", "surrogatepass")
            body = b"hlavolamy-cache\n" + header + b"\n" + draw(st.binary(max_size=20))
        else:
            body = draw(st.binary(max_size=40))
        path.write_bytes(body)
    limit = draw(st.sampled_from(["", "1", "0", "-1", "inf", "nan", "1e400", "x", "0.001"]))
    argv = ["cache"] + draw(st.sampled_from([[], ["--info"], ["--clear"], ["--build", ws.files["minimal"]],
                                             ["--build", str(ws.root / "missing.json")], ["--info", "--clear"]]))
    return ws.main(argv, env={"HLAVOLAMY_CACHE_MAX_MB": limit})


@dataclass(frozen=True)
class EntryPoint:
    name: str
    run: Callable[[Workspace, st.DrawFn], str]


ENTRY_POINTS = {e.name: e for e in [
    EntryPoint("puzzle-json", run_loader),
    EntryPoint("notation", run_notation),
    EntryPoint("state-argument", run_state),
    EntryPoint("cli-apply", run_apply),
    EntryPoint("cli-scramble", run_scramble),
    EntryPoint("cli-solve", run_solve),
    EntryPoint("cli-check", run_check),
    EntryPoint("cli-info", run_info),
    EntryPoint("cli-new", run_new),
    EntryPoint("cli-cache", run_cache),
]}
