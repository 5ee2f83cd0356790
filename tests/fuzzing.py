"""Mutation fuzzing of the importers: valid seed files, damaged by a few edits, must give only project errors.

Shared by the suite's hypothesis tests (``tests/test_formats_fuzz.py``, a
hundred cases per entry point) and the long run (``tests/fuzz/fuzz_importers.py``,
thousands). An edit inserts, replaces, deletes or repeats bytes at a place in
the file; the inserted bytes come from a list of known troublemakers (huge
integers, bytes that are not UTF-8, deep nesting, sizes past the limits) and
from the format's own words. An entry point passes a case when it returns or
raises a :class:`HlavolamyError` whose message is one line.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from hlavolamy import formats
from hlavolamy.core.fileformat import load_puzzle, save_puzzle
from hlavolamy.formats import gap, kpuzzle, ksolve, santa

REPO = Path(__file__).resolve().parents[1]

TROUBLE: tuple[bytes, ...] = (
    b"9" * 5000, b"99999999999999999999", b"4294967296", b"1000000000", b"1000000", b"-1", b"0", b"00", b"1e9",
    b"\xff", b"\xed\xa0\x80", b"\x00", b"\xc3\xa9", b"\xef\xbb\xbf", b"\r", b"\n", b"\n\n", b"\t", b" ",
    b",", b";", b'"', b"'", b"\\", b"\\\n", b"#", b"[", b"]", b"(", b")", b"{", b"}", b":", b".", b"-", b"^",
    b"[" * 300, b"(" * 300, b"{" * 300, b"True", b"None", b"1.5", b"nan", b"\xd9\xa3", b"\xc2\xb2",
    b"{'a': 5}", b"{[1]: [0]}", b"{1: [0]}", b"{'a': [0, 0]}", b"{'a': [99999999999999999999]}", b"[1, 2]",
)
"""Bytes that broke (or could break) a reader: every entry point gets these."""

WORDS: dict[str, tuple[bytes, ...]] = {
    "kpuzzle": (b'"numPieces": 1000000', b'"numOrientations": 1000000', b'"orbits": {}', b'"moves": []',
                b'"permutation": [99999999999999999999]', b'"orientationDelta": [1e400]', b'"pieces": [-1]',
                b'"orientation": [5]', b'"orientationMod": [7]', b'"derivedMoves": {"x": "R R"}', b'[[[[', b'null'),
    "ksolve": (b"Set ORBIT1 8 1000000", b"Set A 1000000 1", b"Set B 2 2", b"Move x", b"Move U", b"End", b"Solved",
               b"StartState", b"MoveTransformation Q", b"?", b"CORNERS", b"EDGES", b"Name", b"\n1 2 3\n"),
    "gap": (b"(1,1000000000)", b"(1,2)", b"()", b"M_U^-1", b"*", b"^2", b"Group(", b"Group([", b"gens := [",
            b":=", b"PermList([2,1])", b'colours := ["a"];', b"Gen:=[\nU,L\n];", b"U", b"#", b"\\\n", b"ip:=[[1]];",
            b"for i in [1..3] do od;", b"function(x) return x; end;", b";;"),
    "sign": (b"(R U)4294967296", b"(R U)1000000", b"R1000001", b"99999R", b"2-3Rw", b"3r", b"x", b"M", b"//",
             b"[R, U]", b"[R: U]", b"'", b"2", b"w", b"((((", b"))))"),
    "santa-info": (b"cube_2/2/2", b"\"{'r': [1, 0]}\"", b"\"{'r': [1, 0], 's': [0]}\"", b"{'a': (0,)}",
                   b"puzzle_type,allowed_moves\n"),
    "santa": (b"ring_4", b"A;A;B;C", b"A;B", b";;;", b"9" * 30, b"\xd9\xa3", b"-3", b"0,ring_4,A;A;B;C,C;A;A;B,0\n",
              b"id,puzzle_type,solution_state,initial_state,num_wildcards\n"),
    "santa-submission": (b"id,moves", b"r.-r", b"0", b"\"a,b\""),
}


@dataclass(frozen=True)
class Edit:
    """Insert ``data`` at ``where`` (a fraction of the file, in millionths), replacing ``remove`` bytes;
    ``repeat`` > 1 repeats the bytes found there instead."""

    where: int
    remove: int
    data: bytes
    repeat: int = 1


def apply_edits(seed: bytes, edits: list[Edit]) -> bytes:
    out = seed
    for e in edits:
        at = len(out) * e.where // 1_000_000
        if e.repeat > 1:
            chunk = out[at:at + max(e.remove, 1)]
            out = out[:at] + chunk * e.repeat + out[at:]
        else:
            out = out[:at] + e.data + out[at + e.remove:]
    return out


def edit_strategy(entry: str) -> st.SearchStrategy[Edit]:
    data = st.one_of(st.sampled_from(TROUBLE + WORDS[entry]), st.binary(max_size=8))
    return st.builds(Edit, st.integers(0, 1_000_000), st.integers(0, 40), data,
                     st.sampled_from([1, 1, 1, 2, 50, 3000]))


def random_edits(entry: str, rnd: random.Random) -> list[Edit]:
    """One to four edits drawn like :func:`edit_strategy` draws them."""
    pool = TROUBLE + WORDS[entry]
    out = []
    for _ in range(rnd.randint(1, 4)):
        data = rnd.choice(pool) if rnd.random() < 0.8 else rnd.randbytes(rnd.randint(0, 8))
        out.append(Edit(rnd.randint(0, 1_000_000), rnd.choice([0, 0, 1, 3, 40]), data,
                        rnd.choice([1, 1, 1, 1, 2, 50, 3000])))
    return out


# -- seeds and entry points -------------------------------------------------------------
SANTA_INFO = ("puzzle_type,allowed_moves\n"
              "ring_4,\"{'r': [1, 2, 3, 0], 's': [1, 0, 2, 3]}\"\n"
              "pair_2,\"{'t': [1, 0]}\"\n")
SANTA_CASES = ("id,puzzle_type,solution_state,initial_state,num_wildcards\n"
               "0,ring_4,A;A;B;C,C;A;A;B,0\n"
               "1,pair_2,A;B,B;A,1\n")
TWSEARCH = """Name toy   # twsearch's 0-based blocks, an invisible orientation
Set P 5 3
Set Q 2 1
StartState
P
0 1 2 3 4
0 0 ? 0 0
End
MoveTransformation m
P
0 2 3 1 4
0 2 0 1 1
End
MoveTransformation n
Q
1 0
End
"""
KPUZZLE_OLD = """{"name": "old", "orbits": {"TIPS": {"numPieces": 3, "numOrientations": 3}},
 "startPieces": {"TIPS": {"permutation": [0, 1, 2], "orientation": [0, 0, 0]}},
 "moves": {"a": {"TIPS": {"permutation": [1, 2, 0], "orientation": [0, 0, 1]}}},
 "derivedMoves": {"aa": "a a"}}
"""
SIGN_TEXT = "R U R' U' // sexy move\n(R U)3 [R, U] [R: U2]2' F2 B' L D2 1-1R 1Rw1\n"


class Workspace:
    """Seed files of every entry point and the fixed files they need, in one folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        rubik2 = load_puzzle(REPO / "puzzles" / "rubik2.json").puzzle
        self.info = folder / "puzzle_info.csv"
        self.info.write_text(SANTA_INFO)
        self.cube = folder / "cube3.json"
        save_puzzle(self.cube, load_puzzle(REPO / "puzzles" / "rubik3.json").puzzle)
        gap_files = sorted((REPO / "tests" / "data" / "gap").glob("*.g"))
        self.seeds: dict[str, list[bytes]] = {
            "kpuzzle": [kpuzzle.dumps(rubik2).encode(), KPUZZLE_OLD.encode()],
            "ksolve": [ksolve.dumps(rubik2).encode(), TWSEARCH.encode()],
            "gap": [gap.dumps(rubik2).encode()] + [p.read_bytes() for p in gap_files],
            "sign": [SIGN_TEXT.encode()],
            "santa-info": [SANTA_INFO.encode()],
            "santa": [SANTA_CASES.encode()],
            "santa-submission": [b"id,moves\n0,r.-s.r\n1,t\n"],
        }
        self.calls: dict[str, Callable[[Path], object]] = {
            "kpuzzle": lambda p: formats.import_file("kpuzzle", p),
            "ksolve": lambda p: formats.import_file("ksolve", p),
            "gap": lambda p: formats.import_file("gap", p),
            "sign": lambda p: formats.import_file("sign", p, puzzle=str(self.cube)),
            "santa-info": lambda p: formats.import_file("santa-info", p, type="ring_4"),
            "santa": self._santa,
            "santa-submission": santa.read_submission,
        }

    def _santa(self, path: Path) -> object:
        """The importer, and the runner's reading of the cases against the puzzle types."""
        types = santa.read_puzzle_info(self.info)
        for case in santa.read_puzzles(path):
            santa.check_case(types, case, path)
        return formats.import_file("santa", path, id="0", info=str(self.info))

    def run(self, entry: str, data: bytes) -> None:
        """Feed ``data`` to the entry point; raises what it raises."""
        path = self.folder / f"fuzz-{entry}.input"
        path.write_bytes(data)
        self.calls[entry](path)


ENTRIES = ("santa-info", "santa", "santa-submission", "kpuzzle", "ksolve", "gap", "sign")
