"""A format plugin: a puzzle as text, one line of colours and one line per move (docs/plugins.md).

    colours: A A B B
    L: 1 0 2 3
    R: 0 2 3 1
"""

from pathlib import Path

from hlavolamy.plugins.hookspecs import hookimpl


def load(path, title=None):
    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.errors import FileFormatError

    colours, moves = None, {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, values = line.partition(":")
        if not sep:
            raise FileFormatError(f"line {number}: expected 'name: values'", str(path))
        if key.strip() == "colours":
            colours = values.split()
        else:
            moves[key.strip()] = [int(v) for v in values.split()]
    if colours is None:
        raise FileFormatError("no 'colours:' line", str(path))
    return Puzzle(colours, moves, name=title or Path(path).stem)


def dump(puzzle, path):
    lines = ["colours: " + " ".join(puzzle.colours)]
    lines += [f"{name}: " + " ".join(map(str, perm.tolist())) for name, perm in puzzle.moves.items()]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


@hookimpl
def hlavolamy_formats():
    from hlavolamy.formats import Format, Option

    return [Format("moves", "colours and move permutations, one line each", (".moves",), load, dump,
                   (Option("title", "the puzzle's name (default: the file's name)"),))]
