r"""GAP permutation groups: generators in 1-based cycle notation.

Reads what GAP users and other tools write, as in GAP's classic Rubik's cube example::

    U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);
    ...
    cube := Group( U, L, F, R, B, D );

and as cubing.js's PuzzleGeometry writes it (``--gap``)::

    M_F:=(1,14,16,11)(2,15,17,12)(3,13,18,10)(25,42,33,44)(26,41,34,43);
    ...
    Gen:=[
    M_F,M_B,M_D,M_U,M_L,M_R
    ];

Read: assignments ``name := <permutation>``; ``Group(...)`` and
``GroupWithGenerators(...)`` (bare or assigned; arguments permutations or
names, one list of them, or the name of a list); lists of permutations
``gens := [a, b^-1, ...]``; ``PermList([...])``; products ``a*b`` (or
juxtaposed cycles ``(1,2)(2,3)``); powers ``a^-1``; comments ``#``; line
continuations (``\`` at the end of a line); ``gap>``/``>`` prompts of
pasted sessions; and a list of strings ``colours := ["W", ...]`` (``colors``
too) giving the solved colour of every cell. Every other statement
(``Size(cube);``, other lists, loops, functions) is skipped.

Direction: GAP acts on the right, ``i^g`` is where the piece at ``i`` goes.
Our move ``m`` brings the piece at ``m[i]`` to ``i``, so ``m`` is the inverse
of GAP's image list, and GAP's product ``a*b`` (``a`` first) is our
``compose(a, b)``.

The generators are those of the last ``Group``; without one, those of the
last list of permutations (one whose name contains "gen" first); without
that, every named permutation. When every generator is named ``M_...``
(PuzzleGeometry's prefix) the moves are named without it. The number of
cells is the length of the colours list, else the largest point mentioned.
Without colours every cell gets its own colour.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.limits import MAX_CELLS, MAX_POWER, int_within
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, HlavolamyError, quoted
from hlavolamy.formats.limits import MAX_MOVE_ENTRIES, shown
from hlavolamy.formats.textsource import error, read_text, write_text

GAP_KEYWORDS = frozenset(
    "and atomic break continue do elif else end false fi for function if in local mod not od or quit "
    "readonly readwrite rec repeat return then true until while QUIT IsBound Unbind TryNextMethod Info Assert".split()
)

_OPENS = {"function": "end", "do": "od", "if": "fi", "repeat": "until"}
"""Keywords that open a block, and the keyword that closes it (skipped statements may hold ';')."""

_GROUPS = ("Group", "GroupWithGenerators")

_CONTINUED = r"(?:\\\r?\n[A-Za-z_@0-9]+)*"
_TOKEN = re.compile(
    rf"""(?P<space>[ \t\r]+|\\\r?\n)|(?P<newline>\n)|(?P<comment>\#[^\n]*)
      |(?P<string>\"\"\"[\s\S]*?\"\"\"|"(?:[^"\\\n]|\\[\s\S])*")|(?P<char>'(?:[^'\\\n]|\\.)')|(?P<assign>:=)
      |(?P<int>\d+(?:\\\r?\n\d+)*(?![A-Za-z_@0-9\\]))|(?P<ident>[A-Za-z_@0-9]+{_CONTINUED})
      |(?P<symbol>[()\[\],;*^\-])|(?P<other>.)""",
    re.VERBOSE,
)
_JOINED = re.compile(r"\\\r?\n")
_PROMPT = re.compile(r"^(gap>|>) ?", re.MULTILINE)


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    line: int
    column: int


def tokenize(text: str, path: str | Path | None = None) -> list[Token]:
    """Tokens with 1-based line and column; a line continuation inside a number or name joins it.

    In a pasted session (lines starting ``gap>``) only the lines after a
    prompt are read: the others are GAP's output.
    """
    if re.search(r"^gap>", text, re.MULTILINE):
        text = "\n".join(line if _PROMPT.match(line) else "" for line in text.split("\n"))
    text = _PROMPT.sub(lambda m: " " * len(m.group(0)), text)
    out: list[Token] = []
    line, line_start, pos = 1, 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        kind = m.lastgroup or ""
        if kind not in ("space", "newline", "comment"):
            out.append(Token(kind, _JOINED.sub("", m.group(0)), line, pos - line_start + 1))
        if "\n" in m.group(0):
            line += m.group(0).count("\n")
            line_start = pos + m.group(0).rindex("\n") + 1
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
Generators = list[tuple[str | None, Product]]
"""Generators in order: a name when the generator is a lone named permutation, and its product."""


class _Parser:
    def __init__(self, tokens: list[Token], path: str | Path | None):
        self.tokens = tokens
        self.i = 0
        self.path = path
        self.perms: list[tuple[str, Product]] = []
        """Permutation assignments in order (a name may be assigned again)."""
        self.defined: set[str] = set()
        self.groups: list[Generators] = []
        self.lists: dict[str, Generators] = {}
        """Lists of permutations by name, in the order they were (last) assigned."""
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

    def found(self) -> str:
        return repr(self.tok.text) if self.tok.kind != "end" else "the end of the file"

    def take(self, text: str) -> Token:
        if self.tok.text != text or self.tok.kind in ("string", "char"):
            raise self.fail(f"expected {quoted(text)}, found {self.found()}")
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
        elif self.at_group():
            self.groups.append(self.group())
        else:
            self.skip_statement()

    def at_group(self) -> bool:
        return self.tok.text in _GROUPS and self.peek().text == "("

    def at_permutation(self) -> bool:
        tok = self.tok
        return tok.text == "(" or (tok.text == "PermList" and self.peek().text == "(") or tok.text in self.defined

    def assignment(self, name_tok: Token) -> None:
        name = name_tok.text
        if self.at_group():
            self.groups.append(self.group())
        elif self.tok.text == "[" and self.peek().kind == "string":
            values = self.string_list()
            if name.lower() in ("colours", "colors"):
                self.colours = values
        elif self.tok.text == "[" and self.peek().text != "]" and self.peek().kind != "string" and self.at_list_of_perms():
            self.lists.pop(name, None)
            self.lists[name] = self.generators("[", "]")
            self.defined.discard(name)
        elif self.at_permutation():
            self.perms.append((name, self.product()))
            self.defined.add(name)
        else:
            self.skip_statement()

    def at_list_of_perms(self) -> bool:
        """At ``[`` of a list whose first element is a permutation (not numbers, lists or strings)."""
        self.i += 1
        try:
            return self.at_permutation()
        finally:
            self.i -= 1

    def skip_statement(self) -> None:
        """Skip to the ``;`` that ends this statement (outside brackets and blocks such as ``for ... od``)."""
        closers: list[tuple[str, Token]] = []
        while True:
            tok = self.tok
            if tok.kind == "end":
                if closers:
                    raise self.fail(f"{quoted(closers[-1][1].text)} opened here is not closed", closers[-1][1])
                return
            if tok.text == ";" and not closers:
                return
            self.i += 1
            if tok.kind in ("string", "char"):
                continue
            if tok.text in ("(", "[", "{") or tok.text in _OPENS:
                closers.append(({"(": ")", "[": "]", "{": "}"}.get(tok.text) or _OPENS[tok.text], tok))
            elif closers and tok.text == closers[-1][0]:
                closers.pop()
            elif tok.text in (")", "]", "}", "end", "od", "fi", "until"):
                raise self.fail(f"unexpected {quoted(tok.text)}", tok)

    def group(self) -> Generators:
        self.i += 1
        self.take("(")
        if self.tok.text == "[":
            gens = self.generators("[", "]")
        elif self.tok.text in self.lists and self.peek().text in (")", ","):
            gens = self.lists[self.tok.text]
            self.i += 1
        else:
            return self.generators(None, ")")
        if self.tok.text == ",":  # Group(gens, identity)
            self.i += 1
            self.product()
        self.take(")")
        return gens

    def generators(self, opener: str | None, closer: str) -> Generators:
        """Comma-separated permutations up to ``closer``."""
        if opener:
            self.take(opener)
        gens: Generators = []
        while self.tok.text != closer:
            product = self.product()
            only = product[0] if len(product) == 1 else None
            gens.append((only.value if only and only.kind == "name" and only.power == 1 else None, product))  # type: ignore[arg-type]
            if self.tok.text != closer:
                self.take(",")
        self.take(closer)
        return gens

    def string_list(self) -> list[str]:
        self.take("[")
        out: list[str] = []
        while self.tok.text != "]":
            if self.tok.kind != "string":
                raise self.fail(f"expected a string in the list, found {self.found()}")
            out.append(_unquote(self.tok.text))
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
                raise self.fail(f"{quoted(tok.text)} is not a permutation defined above")
            self.i += 1
            kind, value = "name", tok.text
        else:
            raise self.fail(f"expected a permutation, found {self.found()}")
        power = 1
        if self.tok.text == "^":
            self.i += 1
            sign = -1 if self.tok.text == "-" else 1
            if sign < 0:
                self.i += 1
            if self.tok.kind != "int":
                raise self.fail("expected an integer power after '^'")
            power = sign * self.number(MAX_POWER, "power")
        return Factor(kind, value, power, tok)

    def number(self, limit: int, what: str) -> int:
        """The integer token here, refused above ``limit`` before it is converted."""
        value = int_within(self.tok.text, limit)
        if value is None:
            raise self.fail(f"{what} {shown(self.tok.text)} is more than {limit:,}")
        self.i += 1
        return value

    def cycle(self) -> tuple[int, ...]:
        self.take("(")
        points: list[int] = []
        seen: set[int] = set()
        while self.tok.text != ")":
            tok = self.tok
            if tok.kind != "int" or tok.text.strip("0") == "":
                raise self.fail(f"expected a point 1, 2, ... in the cycle, found {self.found()}")
            point = self.number(MAX_CELLS, "point")
            if point in seen:
                raise self.fail(f"point {point} appears twice in one cycle", tok)
            points.append(point)
            seen.add(point)
            if self.tok.text != ")":
                self.take(",")
        self.take(")")
        return tuple(points)

    def perm_list(self) -> tuple[int, ...]:
        start = self.take("PermList")
        self.take("(")
        self.take("[")
        images: list[int] = []
        while self.tok.text != "]":
            if self.tok.kind != "int":
                raise self.fail(f"expected an integer in PermList, found {self.found()}")
            images.append(self.number(MAX_CELLS, "point"))
            if self.tok.text != "]":
                self.take(",")
        self.take("]")
        self.take(")")
        if sorted(images) != list(range(1, len(images) + 1)):
            raise self.fail("PermList needs each of 1..n exactly once", start)
        return tuple(images)


def _unquote(token: str) -> str:
    if token.startswith('"""'):
        return token[3:-3]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), token[1:-1], flags=re.S)


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


def _generators(parser: _Parser) -> Generators:
    """The last group's generators, else the last list of permutations (a "gen..." one first), else every name."""
    if parser.groups:
        return parser.groups[-1]
    if parser.lists:
        named = [k for k in parser.lists if "gen" in k.lower()]
        return parser.lists[(named or list(parser.lists))[-1]]
    last = dict(parser.perms)
    return [(name, (Factor("name", name, 1, Token("ident", name, 0, 0)),)) for name in last]


def _move_names(gens: Generators) -> list[str]:
    """Each generator's name (``g3`` for an unnamed third one); PuzzleGeometry's ``M_`` prefix dropped."""
    names = [name or f"g{k}" for k, (name, _) in enumerate(gens, start=1)]
    bare = [n[2:] for n in names]
    if all(name and name.startswith("M_") for name, _ in gens) and all(bare) and len(set(bare)) == len(bare):
        return bare
    return names


def parse(text: str, path: str | Path | None = None, colours: list[str] | None = None) -> Puzzle:
    """A puzzle from GAP text; ``colours`` overrides a colours list in the text."""
    source = str(path) if path else None
    parser = _Parser(tokenize(text, path), path)
    parser.program()
    colours = colours if colours is not None else parser.colours
    gens = _generators(parser)
    if not gens:
        raise FileFormatError("no generators: define permutations or a Group(...)", source)
    mentioned = [p for _, prod in parser.perms for p in _points(prod)]
    mentioned += [p for _, prod in gens for p in _points(prod)]
    n = max(mentioned, default=0)
    if colours is not None:
        if len(colours) < n:
            raise FileFormatError(f"the colours list has {len(colours)} entries but point {n} is used", source)
        n = len(colours)
    if n == 0:
        raise FileFormatError("the generators move no point", source)
    factors = sum(len(prod) for _, prod in parser.perms) + sum(len(prod) for _, prod in gens)
    if n > MAX_CELLS or n * factors > MAX_MOVE_ENTRIES:
        raise FileFormatError(f"{n} points and {factors} permutation steps (factors and generators) are more than "
                              f"the {MAX_CELLS:,} points and {MAX_MOVE_ENTRIES:,} points x steps read", source)
    named: dict[str, np.ndarray] = {}
    for name, prod in parser.perms:
        named[name] = _evaluate(prod, n, named)
    moves: dict[str, np.ndarray] = {}
    for key, (_, prod) in zip(_move_names(gens), gens):
        if key in moves:
            raise FileFormatError(f"generator {quoted(key)} is listed twice", source)
        moves[key] = P.inverse(_evaluate(prod, n, named))
    try:
        return Puzzle(colours if colours is not None else [str(i + 1) for i in range(n)], moves,
                      name=Path(path).stem if path else "")
    except HlavolamyError as exc:
        raise FileFormatError(str(exc), source) from None


def load(path: str | Path) -> Puzzle:
    return parse(read_text(path), path)


# -- writing ---------------------------------------------------------------------------
def gap_cycles(move: np.ndarray) -> str:
    """The move as GAP cycles, 1-based: ``(1,3,8,6)(2,5,7,4)``; ``()`` for the identity."""
    return "".join("(" + ",".join(str(c + 1) for c in cyc) + ")" for cyc in P.cycles(P.inverse(move))) or "()"


def _identifier(name: str, what: str) -> str:
    if name in GAP_KEYWORDS:
        raise FileFormatError(f"{what} {quoted(name)} is a GAP keyword; rename it before exporting")
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
