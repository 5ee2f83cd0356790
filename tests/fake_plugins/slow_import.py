"""Slow and broken, like the probe's plugin: its import "takes a minute" and it has no hook.

It advances the tests' fake clock (``sys.modules["hlavolamy_test_clock"]``)
instead of sleeping, so the test costs no time.
"""

import sys

_clock = sys.modules.get("hlavolamy_test_clock")
if _clock is not None:
    _clock.advance(60.0)
