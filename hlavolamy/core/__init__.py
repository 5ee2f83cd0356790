"""The core model: permutations, puzzles, states, notation and the file format.

Nothing here imports Qt: the CLI, the library and the GUI share it.
"""
