"""GAP permutation groups: generators in 1-based cycle notation.

Reads what GAP users write, as in GAP's classic Rubik's cube example::

    U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);
    ...
    cube := Group( U, L, F, R, B, D );

Supported: assignments ``name := <permutation>``, ``Group(...)`` (bare or
assigned, arguments permutations or names, or one list of them),
``PermList([...])``, products ``a*b`` (or juxtaposed cycles ``(1,2)(2,3)``),
powers ``a^-1``, comments ``#``, ``gap>``/``>`` prompts of pasted sessions,
and a list of strings ``colours := ["W", ...]`` (``colors`` too) giving the
solved colour of every cell. Other calls (``Size(cube);``) are skipped.

Direction: GAP acts on the right, ``i^g`` is where the piece at ``i`` goes.
Our move ``m`` brings the piece at ``m[i]`` to ``i``, so ``m`` is the inverse
of GAP's image list, and GAP's product ``a*b`` (``a`` first) is our
``compose(a, b)``.

The generators are those of the last ``Group``; without one, every named
permutation. The number of cells is the length of the colours list, else the
largest point mentioned. Without colours every cell gets its own colour.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, HlavolamyError
from hlavolamy.formats.textsource import error, read_text, write_text

GAP_KEYWORDS = frozenset(
    "and atomic break continue do elif else end false fi for function if in local mod not od or quit "
    "readonly readwrite rec repeat return then true until while QUIT IsBound Unbind TryNextMethod Info Assert".split()
)

_TOKEN = re.compile(
    r"""(?P<space>[ \t\r]+|\\\n)|(?P<newline>\n)|(?P<comment>\#[^\n]*)
      |(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<assign>:=)|(?P<int>\d+(?![A-Za-z_@0-9]))
      |(?P<ident>[A-Za-z_@0-9]+)|(?P<symbol>[()\[\],;*^\-])""",
    re.VERBOSE,
)
_PROMPT = re.compile(r"^(gap>|>) ?", re.MULTILINE)


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    line: int
    column: int


def tokenize(text: str, path: str | Path | None = None) -> list[Token]:
    """Tokens with 1-based line and column; an unknown character is an error there."""
    text = _PROMPT.sub(lambda m: " " * len(m.group(0)), text)
    out: list[Token] = []
    line, line_start, pos = 1, 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise error(f"unexpected character {text[pos]!r}", path, line, pos - line_start + 1)
        kind = m.lastgroup or ""
        if kind not in ("space", "newline", "comment"):
            out.append(Token(kind, m.group(0), line, pos - line_start + 1))
        if "\n" in m.group(0):
            line += 1
            line_start = m.end()
        pos = m.end()
    out.append(Token("end", "", line, pos - line_start + 1))
    return out


# -- expressions: kept symbolic until the number of cells is known ------------------------
@dataclass(frozen=True)
class Factor:
    """A cycle (1-based points), a ``PermList`` image list, or a name; raised to ``power``."""

    kind: str  # "cycle" | "list" | "name"
    value: tuple[int, ...] | str
    power: int
    token: Token


Product = tuple[Factor, ...]


class _Parser:
    def __init__(self, tokens: list[Token], path: str | Path | None):
        self.tokens = tokens
        self.i = 0
        self.path = path
        self.perms: list[tuple[str, Product]] = []
        """Permutation assignments in order (a name may be assigned again)."""
        self.defined: set[str] = set()
        self.groups: list[list[tuple[str | None, Product]]] = []
        self.colours: list[str] | None = None

    # token helpers
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def fail(self, message: str, tok: Token | None = None) -> FileFormatError:
        tok = tok or self.tok
        return error(message, self.path, tok.line, tok.column)

    def take(self, text: str) -> Token:
        if self.tok.text != text:
            found = repr(self.tok.text) if self.tok.kind != "end" else "the end of the file"
            raise self.fail(f"expected {text!r}, found {found}")
        tok = self.tok
        self.i += 1
        return tok

    # statements
    def program(self) -> None:
        while self.tok.kind != "end":
            if self.tok.text == ";":
                self.i += 1
                continue
            self.statement()
            if self.tok.kind != "end":
                self.take(";")

    def statement(self) -> None:
        if self.tok.kind == "ident" and self.peek().kind == "assign":
            name_tok = self.tok
            self.i += 2
            self.assignment(name_tok)
        elif self.tok.text == "Group":
            self.groups.append(self.group())
        elif self.tok.kind == "ident" and self.peek().text == "(":
            self.skip_call()
        else:
            raise self.fail(f"expected an assignment or Group(...), found {self.tok.text!r}")

    def assignment(self, name_tok: Token) -> None:
        name = name_tok.text
        if self.tok.text == "Group":
            self.groups.append(self.group())
        elif self.tok.text == "[":
            values = self.string_list()
            if name.lower() not in ("colours", "colors"):
                raise self.fail(f"a list of strings is read only as 'colours', not {name!r}", name_tok)
            self.colours = values
        elif self.tok.kind == "ident" and self.tok.text != "PermList" and self.peek().text == "(":
            self.skip_call()
        else:
            self.perms.append((name, self.product()))
            self.defined.add(name)

    def skip_call(self) -> None:
        """Skip ``Name(...)`` up to its closing parenthesis (``Size(cube)``, ``Print(...)``)."""
        self.i += 1
        depth = 0
        while True:
            tok = self.tok
            if tok.kind == "end":
                raise self.fail("unclosed '(' at the end of the file")
            self.i += 1
            depth += (tok.text == "(") - (tok.text == ")")
            if depth == 0:
                return

    def group(self) -> list[tuple[str | None, Product]]:
        self.take("Group")
        self.take("(")
        closer = ")"
        if self.tok.text == "[":
            self.i += 1
            closer = "]"
        gens: list[tuple[str | None, Product]] = []
        while self.tok.text != closer:
            product = self.product()
            only = product[0] if len(product) == 1 else None
            gens.append((only.value if only and only.kind == "name" and only.power == 1 else None, product))  # type: ignore[arg-type]
            if self.tok.text != closer:
                self.take(",")
        self.take(closer)
        if closer == "]":
            self.take(")")
        return gens

    def string_list(self) -> list[str]:
        self.take("[")
        out: list[str] = []
        while self.tok.text != "]":
            if self.tok.kind != "string":
                raise self.fail(f"expected a string in the colours list, found {self.tok.text!r}")
            out.append(self.tok.text[1:-1].replace('\\"', '"').replace("\\\\", "\\"))
            self.i += 1
            if self.tok.text != "]":
                self.take(",")
        self.take("]")
        return out

    # permutations
    def product(self) -> Product:
        factors = [self.factor()]
        while self.tok.text in ("*", "("):
            if self.tok.text == "*":
                self.i += 1
            factors.append(self.factor())
        return tuple(factors)

    def factor(self) -> Factor:
        tok = self.tok
        if tok.text == "(":
            kind, value = "cycle", self.cycle()
        elif tok.text == "PermList":
            kind, value = "list", self.perm_list()
        elif tok.kind == "ident":
            if tok.text not in self.defined:
                raise self.fail(f"{tok.text!r} is not a permutation defined above")
            self.i += 1
            kind, value = "name", tok.text
        else:
            raise self.fail(f"expected a permutation, found {tok.text!r}" if tok.kind != "end" else "expected a permutation, found the end of the file")
        power = 1
        if self.tok.text == "^":
            self.i += 1
            sign = -1 if self.tok.text == "-" else 1
            if sign < 0:
                self.i += 1
            if self.tok.kind != "int":
                raise self.fail("expected an integer power after '^'")
            power = sign * int(self.tok.text)
            self.i += 1
        return Factor(kind, value, power, tok)

    def cycle(self) -> tuple[int, ...]:
        self.take("(")
        points: list[int] = []
        while self.tok.text != ")":
            tok = self.tok
            if tok.kind != "int" or int(tok.text) == 0:
                raise self.fail(f"expected a point 1, 2, ... in the cycle, found {tok.text!r}")
            if int(tok.text) in points:
                raise self.fail(f"point {tok.text} appears twice in one cycle")
            points.append(int(tok.text))
            self.i += 1
            if self.tok.text != ")":
                self.take(",")
        self.take(")")
        return tuple(points)

    def perm_list(self) -> tuple[int, ...]:
        self.take("PermList")
        self.take("(")
        self.take("[")
        images: list[int] = []
        while self.tok.text != "]":
            if self.tok.kind != "int":
                raise self.fail(f"expected an integer in PermList, found {self.tok.text!r}")
            images.append(int(self.tok.text))
            self.i += 1
            if self.tok.text != "]":
                self.take(",")
        self.take("]")
        self.take(")")
        if sorted(images) != list(range(1, len(images) + 1)):
            raise self.fail("PermList needs each of 1..n exactly once")
        return tuple(images)


# -- evaluation ------------------------------------------------------------------------
def _points(product: Product) -> Iterator[int]:
    for f in product:
        if f.kind != "name":
            yield from f.value  # type: ignore[misc]


def _images(f: Factor, n: int, named: dict[str, np.ndarray]) -> np.ndarray:
    """GAP's image list (0-based): ``img[i]`` is where the piece at ``i`` goes."""
    if f.kind == "name":
        return named[f.value]  # type: ignore[index]
    img = np.arange(n, dtype=np.int64)
    pts = [p - 1 for p in f.value]  # type: ignore[union-attr]
    if f.kind == "cycle":
        img[pts] = np.roll(pts, -1)
    else:
        img[: len(pts)] = pts
    return img


def _evaluate(product: Product, n: int, named: dict[str, np.ndarray]) -> np.ndarray:
    img = np.arange(n, dtype=np.int64)
    for f in product:
        step = P.power(_images(f, n, named), f.power)
        img = step[img]  # i^(a*b) = (i^a)^b
    return img


def parse(text: str, path: str | Path | None = None, colours: list[str] | None = None) -> Puzzle:
    """A puzzle from GAP text; ``colours`` overrides a colours list in the text."""
    parser = _Parser(tokenize(text, path), path)
    parser.program()
    colours = colours if colours is not None else parser.colours
    if parser.groups:
        gens = parser.groups[-1]
    else:
        last = dict(parser.perms)
        gens = [(name, (Factor("name", name, 1, Token("ident", name, 0, 0)),)) for name in last]
    if not gens:
        raise FileFormatError("no generators: define permutations or a Group(...)", str(path) if path else None)
    mentioned = [p for _, prod in parser.perms for p in _points(prod)]
    mentioned += [p for _, prod in gens for p in _points(prod)]
    n = max(mentioned, default=0)
    if colours is not None:
        if len(colours) < n:
            raise FileFormatError(f"the colours list has {len(colours)} entries but point {n} is used",
                                  str(path) if path else None)
        n = len(colours)
    if n == 0:
        raise FileFormatError("the generators move no point", str(path) if path else None)
    named: dict[str, np.ndarray] = {}
    for name, prod in parser.perms:
        named[name] = _evaluate(prod, n, named)
    moves: dict[str, np.ndarray] = {}
    for k, (name, prod) in enumerate(gens, start=1):
        key = name or f"g{k}"
        if key in moves:
            raise FileFormatError(f"generator {key!r} is listed twice", str(path) if path else None)
        moves[key] = P.inverse(_evaluate(prod, n, named))
    try:
        return Puzzle(colours if colours is not None else [str(i + 1) for i in range(n)], moves,
                      name=Path(path).stem if path else "")
    except HlavolamyError as exc:
        raise FileFormatError(str(exc), str(path) if path else None) from None


def load(path: str | Path) -> Puzzle:
    return parse(read_text(path), path)


# -- writing ---------------------------------------------------------------------------
def gap_cycles(move: np.ndarray) -> str:
    """The move as GAP cycles, 1-based: ``(1,3,8,6)(2,5,7,4)``; ``()`` for the identity."""
    return "".join("(" + ",".join(str(c + 1) for c in cyc) + ")" for cyc in P.cycles(P.inverse(move))) or "()"


def _identifier(name: str, what: str) -> str:
    if name in GAP_KEYWORDS:
        raise FileFormatError(f"{what} {name!r} is a GAP keyword; rename it before exporting")
    return name


def _string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps(puzzle: Puzzle) -> str:
    """GAP text: the colours list, one assignment per move, and the group."""
    group = re.sub(r"\W", "_", puzzle.name) or "puzzle"
    if group[0].isdigit() or group in puzzle.moves or group in GAP_KEYWORDS:
        group = "puzzle_" + group
    lines = [
        f"# {puzzle.name or 'puzzle'}: {puzzle.n_cells} cells, {len(puzzle.moves)} moves (exported by Hlavolamy).",
        "# Points are cells 1..n; a move sends the piece at point i to i^g (GAP acts on the right).",
        "colours := [" + ", ".join(_string(c) for c in puzzle.colours) + "];",
    ]
    for name, m in puzzle.moves.items():
        lines.append(f"{_identifier(name, 'move')} := {gap_cycles(m)};")
    lines.append(f"{group} := Group({', '.join(puzzle.moves)});")
    return "\n".join(lines) + "\n"


def dump(puzzle: Puzzle, path: str | Path) -> None:
    write_text(path, dumps(puzzle))
