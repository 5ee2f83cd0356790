"""Broken: calls sys.exit while importing (must not end the program)."""

import sys

sys.exit("plugin gave up")
