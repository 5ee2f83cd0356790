"""Move notation: parse text into a tree of turns and print it back.

The grammar (documented in ``docs/notation.md``)::

    sequence   := item (separator item)*        separator: whitespace or '.'
    item       := ['-'] atom postfix
    atom       := NAME | '(' sequence ')' | '[' sequence (',' | ':') sequence ']'
    postfix    := [DIGITS] ["'"] [DIGITS] ['^' ['-'] DIGITS]

``[A, B]`` is the commutator ``A B A' B'`` and ``[A: B]`` the conjugate
``A B A'``. A run of letters, digits and ``_`` is a move (or alias) when the
whole run is a name; otherwise its trailing digits are a power (``R2``) when
the rest is a name. A name that ends in a digit (``f1``) therefore takes a
power only with ``^`` (``f1^2``).

The tree is kept (small frozen dataclasses) so a sequence with groups and
commutators can be shown as typed; :func:`flatten` turns it into the
``list[Turn]`` the rest of the program uses.

>>> parse("[R, U]2", ["R", "U"], {})[:4]
[Turn(move='R', power=1), Turn(move='U', power=1), Turn(move='R', power=-1), Turn(move='U', power=-1)]
>>> format_turns([Turn("R", 2), Turn("f1", -1), Turn("f1", 2)], ["R", "f1"])
"R2 f1' f1^2"
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from hlavolamy.core.limits import MAX_NESTING, MAX_POWER, MAX_TURNS, int_within
from hlavolamy.core.turns import Turn, invert
from hlavolamy.errors import NotationError, cut, quoted

_DIGITS = "0123456789"
_CLOSERS = ")],:"


@dataclass(frozen=True)
class Name:
    """A move or alias raised to ``power`` (negative: inverse)."""

    name: str
    power: int = 1
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Group:
    """``(items)power``: a parenthesised sequence, repeated or inverted."""

    items: tuple[Node, ...]
    power: int = 1
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Commutator:
    """``[a, b]power`` = ``(a b a' b')power``."""

    a: tuple[Node, ...]
    b: tuple[Node, ...]
    power: int = 1
    column: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Conjugate:
    """``[a: b]power`` = ``(a b a')power``: ``b`` done in the setting ``a`` prepares."""

    a: tuple[Node, ...]
    b: tuple[Node, ...]
    power: int = 1
    column: int = field(default=0, compare=False)


Node = Name | Group | Commutator | Conjugate


# -- public API ----------------------------------------------------------------
def parse_tree(text: str, names: Collection[str]) -> tuple[Node, ...]:
    """Parse ``text`` into a tree; ``names`` are every move and alias name.

    A text with more than :data:`MAX_TURNS` names is refused before it is
    parsed: every name is at least one turn, and a million-token parse is
    seconds of work for a sequence that would be refused anyway.
    """
    if len(text) >= 2 * MAX_TURNS:  # shorter texts cannot hold MAX_TURNS + 1 names and their separators
        beyond = next(itertools.islice(_NAME_START.finditer(text), MAX_TURNS, None), None)
        if beyond is not None:
            raise NotationError(f"the sequence has more than {MAX_TURNS} moves", text, beyond.start() + 1)
    return _Parser(text, frozenset(names)).parse()


def flatten(items: Sequence[Node], aliases: Mapping[str, Sequence[Turn]] = {}, text: str = "") -> list[Turn]:
    """The generator turns of a tree, aliases expanded (``text`` only for error messages).

    The length is counted on the tree first, so a tree over :data:`MAX_TURNS` is refused before any expanding.
    """
    _Counter(aliases, text).sequence(items)
    return _Flattener(aliases).sequence(items)


def parse(text: str, moves: Collection[str], aliases: Mapping[str, list[Turn]]) -> list[Turn]:
    """Parse notation into generator turns; every failure is a :class:`NotationError` with its column."""
    return flatten(parse_tree(text, [*moves, *aliases]), aliases, text)


def format_tree(items: Sequence[Node], names: Collection[str] = ()) -> str:
    """Print a tree back as notation, groups and brackets kept."""
    known = frozenset(names)
    return " ".join(_format_node(node, known) for node in items)


def format_turns(turns: Sequence[Turn], moves: Collection[str], aliases: Collection[str] = (), separator: str = " ") -> str:
    """Print turns with the shortest tokens that parse back to the same turns.

    ``aliases`` matter only when an alias name could be mistaken for a move
    with a power (an alias ``R2`` beside a move ``R``). ``separator="."``
    gives the Santa-benchmark style.
    """
    known = frozenset([*moves, *aliases])
    # A zero power is the identity: it has no token, and leaving it out changes nothing.
    return separator.join(_name_token(t.move, t.power, known) for t in turns if t.power)


# -- printing ------------------------------------------------------------------
def _name_token(name: str, power: int, known: frozenset[str]) -> str:
    """``R2'``; ``f1^2`` where a digit suffix would read as part of the name (or name another move)."""
    if abs(power) != 1 and (name[-1] in _DIGITS or f"{name}{abs(power)}" in known):
        return f"{name}^{power}"
    return name + power_suffix(power)


def power_suffix(power: int) -> str:
    """The suffix of a power in the common form: ``""``, ``"'"``, ``"2"``, ``"2'"`` (also for SiGN)."""
    if power == 1:
        return ""
    if power == -1:
        return "'"
    return f"{abs(power)}" + ("'" if power < 0 else "")


def _format_node(node: Node, known: frozenset[str]) -> str:
    if isinstance(node, Name):
        return _name_token(node.name, node.power, known)
    if isinstance(node, Group):
        inner = "(" + format_tree(node.items, known) + ")"
    else:
        sep = ", " if isinstance(node, Commutator) else ": "
        inner = "[" + format_tree(node.a, known) + sep + format_tree(node.b, known) + "]"
    return inner + power_suffix(node.power)


# -- flattening ----------------------------------------------------------------
class _Flattener:
    """Expands a tree whose length :class:`_Counter` has checked, so no sequence built is over :data:`MAX_TURNS`."""

    def __init__(self, aliases: Mapping[str, Sequence[Turn]]):
        self.aliases = aliases

    def sequence(self, items: Sequence[Node]) -> list[Turn]:
        out: list[Turn] = []
        for node in items:
            out.extend(self.node(node))
        return out

    def node(self, node: Node) -> list[Turn]:
        if isinstance(node, Name):
            if node.name not in self.aliases:
                return [Turn(node.name, node.power)]
            body = list(self.aliases[node.name])
        elif isinstance(node, Group):
            body = self.sequence(node.items)
        else:
            a, b = self.sequence(node.a), self.sequence(node.b)
            body = a + b + invert(a)
            if isinstance(node, Commutator):
                body += invert(b)
        return (body if node.power > 0 else invert(body)) * abs(node.power)


class _Counter:
    """The number of turns a tree expands to, counted on the tree before anything is expanded.

    Refuses at the first node that takes the count past :data:`MAX_TURNS`:
    ``[[[R, U], U], U]`` nested 40 deep, or ``(R U)1000000 R``, costs a walk of
    its few nodes, not the building of sequences that are then thrown away.
    """

    def __init__(self, aliases: Mapping[str, Sequence[Turn]], text: str):
        self.aliases = aliases
        self.text = text

    def sequence(self, items: Sequence[Node]) -> int:
        total = 0
        for node in items:
            total += self.node(node)
            self.check(total, node)
        return total

    def node(self, node: Node) -> int:
        if isinstance(node, Name):
            if node.name not in self.aliases:
                return 1
            body = len(self.aliases[node.name])
        elif isinstance(node, Group):
            body = self.sequence(node.items)
        else:
            a, b = self.sequence(node.a), self.sequence(node.b)
            body = 2 * a + (2 * b if isinstance(node, Commutator) else b)
        self.check(body * abs(node.power), node)
        return body * abs(node.power)

    def check(self, size: int, node: Node) -> None:
        if size > MAX_TURNS:
            raise NotationError(f"the sequence expands to more than {MAX_TURNS} turns", self.text, node.column)


# -- parsing -------------------------------------------------------------------
def _is_name_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


_SPACE = re.compile(r"\s*")
_NAME_RUN = re.compile(r"[^\W]+")  # letters, digits, '_' (str.isalnum() or '_')
_DIGIT_RUN = re.compile(r"[0-9]*")
_NAME_START = re.compile(r"(?<!\w)[^\W\d]")
"""The first character of a run that is a name (a run starting with a digit is a power: not counted)."""


class _Parser:
    """Recursive descent over the characters of one text; ``i`` is the 0-based position."""

    def __init__(self, text: str, names: frozenset[str]):
        self.text = text
        self.names = names
        self.i = 0
        self.depth = 0
        """Brackets open at ``i``; bounded so deep nesting is an error, not a RecursionError."""

    def error(self, message: str, at: int | None = None) -> NotationError:
        return NotationError(message, self.text, (self.i if at is None else at) + 1)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def parse(self) -> tuple[Node, ...]:
        items = self.sequence()
        ch = self.peek()
        if ch and ch in ")]":
            raise self.error(f"unmatched {ch!r}")
        if ch:
            raise self.error(f"{ch!r} outside brackets: ',' and ':' belong in [A, B] and [A: B]")
        return items

    def sequence(self) -> tuple[Node, ...]:
        """Items up to the end or a closer (``) ] , :``), which is left for the caller."""
        items: list[Node] = []
        dot: int | None = None
        while True:
            self.i = _SPACE.match(self.text, self.i).end()
            ch = self.peek()
            if not ch or ch in _CLOSERS:
                break
            if ch == ".":
                if not items or dot is not None:
                    raise self.error("'.' must stand between two turns")
                dot = self.i
                self.i += 1
                continue
            items.append(self.item())
            dot = None
        if dot is not None:
            raise self.error("'.' must stand between two turns", dot)
        return tuple(items)

    def item(self) -> Node:
        start = self.i
        negate = self.peek() == "-"
        if negate:
            self.i += 1
        ch = self.peek()
        run_power: int | None = None
        if ch == "(":
            node: Node = self.group()
        elif ch == "[":
            node = self.brackets()
        elif ch and _is_name_char(ch):
            node, run_power = self.name()
        elif negate:
            raise self.error("'-' must be followed by a move or a group")
        else:
            raise self.error(f"unexpected character {ch!r}")
        return _with(node, self.postfix(run_power) * (-1 if negate else 1), start)

    def open(self) -> int:
        """Step over an opening bracket; its position."""
        if self.depth >= MAX_NESTING:
            raise self.error(f"brackets nested more than {MAX_NESTING} deep")
        self.depth += 1
        self.i += 1
        return self.i - 1

    def group(self) -> Group:
        opened = self.open()
        items = self.sequence()
        self.close(")", opened)
        if not items:
            raise self.error("empty group '()'", opened)
        return Group(items)

    def brackets(self) -> Commutator | Conjugate:
        opened = self.open()
        a = self.sequence()
        sep = self.peek()
        if sep not in (",", ":"):
            if sep == "]":
                raise self.error("expected ',' (commutator [A, B]) or ':' (conjugate [A: B]) before ']'")
            self.close("]", opened)
        if not a:
            raise self.error(f"nothing before {sep!r} in brackets")
        self.i += 1
        b = self.sequence()
        if not b:
            raise self.error(f"nothing after {sep!r} in brackets")
        if self.peek() in (",", ":"):
            raise self.error(f"expected ']' after [A{sep} B], found {self.peek()!r}")
        self.close("]", opened)
        return Commutator(a, b) if sep == "," else Conjugate(a, b)

    def close(self, closer: str, opened: int) -> None:
        ch = self.peek()
        if ch == closer:
            self.i += 1
            self.depth -= 1
            return
        opener = self.text[opened]
        if not ch:
            raise self.error(f"{opener!r} is never closed", opened)
        raise self.error(f"{ch!r} does not close {opener!r} (opened at column {opened + 1})")

    def name(self) -> tuple[Name, int | None]:
        """A move or alias name, and the power its trailing digits give (``R2``), if any."""
        start = self.i
        self.i = _NAME_RUN.match(self.text, start).end()
        run = self.text[start : self.i]
        if run in self.names:
            return Name(run), None
        stem = run.rstrip(_DIGITS)
        if stem in self.names:
            return Name(stem), self.power_value(run[len(stem) :], start + len(stem))
        if not stem:
            raise self.error(f"number {quoted(run)} without a move before it", start)
        raise self.error(self.unknown_message(run), start)

    def unknown_message(self, run: str) -> str:
        """Name the unknown run and suggest close names (case-insensitive matches first)."""
        known = sorted(self.names)
        close: list[str] = []
        if len(run) <= 3 * max(map(len, known), default=0):  # longer runs match no name at cutoff 0.5
            close = [n for n in known if n.lower() == run.lower()]
            close += [n for n in difflib.get_close_matches(run, known, n=3, cutoff=0.5) if n not in close]
        if close:
            hint = "did you mean " + " or ".join(repr(c) for c in close[:3]) + "?"
        elif len(known) <= 24:
            hint = "known names: " + " ".join(known)
        else:
            hint = f"the puzzle has {len(known)} move and alias names"
        return f"unknown move {quoted(run)}; {hint}"

    def postfix(self, power: int | None) -> int:
        """Power markers after an atom: ``2``, ``'``, ``'3``, ``3'``, ``^2``, ``^-1``; at most one of each.

        ``power`` is one already read (the digits of ``R2``).
        """
        quoted = False
        while True:
            ch, at = self.peek(), self.i
            if ch and ch in _DIGITS or ch == "^":
                if power is not None:
                    raise self.error("a power is given twice")
                power = self.caret_power() if ch == "^" else self.power_value(self.digits(), at)
            elif ch == "'":
                if quoted:
                    raise self.error("\"'\" is given twice")
                quoted = True
                self.i += 1
            else:
                break
        return (1 if power is None else power) * (-1 if quoted else 1)

    def caret_power(self) -> int:
        caret = self.i
        self.i += 1
        sign = -1 if self.peek() == "-" else 1
        if sign < 0:
            self.i += 1
        digits = self.digits()
        if not digits:
            raise self.error("bad power: '^' must be followed by a whole number like ^2 or ^-1", caret)
        return sign * self.power_value(digits, caret)

    def digits(self) -> str:
        start = self.i
        self.i = _DIGIT_RUN.match(self.text, start).end()
        return self.text[start : self.i]

    def power_value(self, digits: str, at: int) -> int:
        value = int_within(digits, MAX_POWER)
        if not value:
            raise self.error(f"bad power {cut(digits, 20, 'digits')}: a power is a whole number from 1 to {MAX_POWER}", at)
        return value


def _with(node: Node, power: int, column: int) -> Node:
    """``node`` with its final power and 1-based column (nodes are frozen)."""
    if isinstance(node, Name):
        return Name(node.name, power, column + 1)
    if isinstance(node, Group):
        return Group(node.items, power, column + 1)
    return type(node)(node.a, node.b, power, column + 1)
