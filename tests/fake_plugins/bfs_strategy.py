"""A strategy plugin: a plain breadth-first search for positions a few turns from solved (docs/plugins.md)."""

from hlavolamy.plugins.hookspecs import hookimpl

MAX_NODES = 200_000


def breadth_first(problem, context):
    """Play the fewest turns that show the goal, or raise StrategyFailed past MAX_NODES positions."""
    from hlavolamy.core.turns import Turn
    from hlavolamy.errors import StrategyFailed

    puzzle = problem.puzzle
    steps = [Turn(move, power) for move in puzzle.moves for power in (1, -1)]
    perms = [puzzle.turn_perm(t) for t in steps]
    seen = {problem.labels.tobytes(): None}
    frontier = [(problem.labels, [])]
    while frontier:
        following = []
        for labels, path in frontier:
            if (labels == problem.goal).all():
                problem.play(path)
                return
            for step, perm in zip(steps, perms):
                after = labels[perm]
                key = after.tobytes()
                if key not in seen:
                    seen[key] = None
                    following.append((after, path + [step]))
        if len(seen) > MAX_NODES:
            raise StrategyFailed(f"more than {MAX_NODES} positions searched")
        context.cancel.check()
        frontier = following
    raise StrategyFailed("the goal is not reachable")


@hookimpl
def hlavolamy_strategies():
    from hlavolamy.solve.registry import Strategy

    return [Strategy("bfs", "plain breadth-first search: fewest turns, for positions near solved", breadth_first,
                     applies=lambda problem, context: problem.care is None and problem.wildcards == 0)]
