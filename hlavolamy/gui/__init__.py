"""The PyQt6 desktop app: design, colour, define moves, fuse cells, play, analyse and solve.

Only this package (and plugin drawing code) imports Qt. :func:`hlavolamy.gui.app.run`
starts the window; ``hlavolamy gui`` calls it.
"""
