"""``hlavolamy gui [PUZZLE]``: the desktop app (also what plain ``hlavolamy`` runs).

``--screenshot FILE.png`` renders the window offscreen and exits; the other
options stage what the screenshot shows (for the user guide and checks).
"""

from __future__ import annotations

import argparse

from hlavolamy.gui.app import SIDE_PAGES, TAB_NAMES


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r}: write WIDTHxHEIGHT, e.g. 1200x800") from None
    if w < 200 or h < 200:
        raise argparse.ArgumentTypeError(f"size {text!r}: at least 200x200")
    return w, h


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gui", help="open the desktop app",
        description="Open the desktop app (plain `hlavolamy` does too). --screenshot renders the window offscreen "
                    "to an image and exits; the other options set the scene for it.",
    )
    parser.add_argument("puzzle", nargs="?", help="puzzle file to open")
    parser.add_argument("--screenshot", metavar="FILE.png", help="render the window to an image and exit")
    parser.add_argument("--tab", choices=TAB_NAMES, default="play", help="tab to show (screenshots)")
    parser.add_argument("--side", choices=SIDE_PAGES, default="moves", help="Play side-panel page (screenshots)")
    parser.add_argument("--play", metavar="SEQUENCE", help="play this sequence first (screenshots)")
    parser.add_argument("--numbers", action="store_true", help="show cell numbers (screenshots)")
    parser.add_argument("--solved", action="store_true", help="show the solved puzzle beside (screenshots)")
    parser.add_argument("--analyse", action="store_true", help="run the analysis first (screenshots)")
    parser.add_argument("--scramble", type=int, default=0, metavar="N", help="scramble with N moves first (screenshots)")
    parser.add_argument("--seed", type=int, default=1, help="seed of --scramble (screenshots)")
    parser.add_argument("--solve", action="store_true", help="solve, then show the solution (screenshots)")
    parser.add_argument("--steps", type=int, default=0, metavar="K", help="step K turns into the solution (screenshots)")
    parser.add_argument("--orbit", type=int, metavar="K", help="with --analyse: highlight orbit K (screenshots)")
    parser.add_argument("--size", type=_size, default=(1200, 800), metavar="WxH", help="window size (screenshots)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hlavolamy.gui.app import Staging, run as run_app

    staging = Staging(tab=args.tab, side=args.side, sequence=args.play, size=args.size, numbers=args.numbers,
                      solved=args.solved, analyse=args.analyse, scramble=args.scramble, seed=args.seed,
                      solve=args.solve, steps=args.steps, orbit=args.orbit)
    return run_app(args.puzzle, screenshot=args.screenshot, staging=staging)
