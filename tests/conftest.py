"""Test configuration: Qt runs offscreen, with no display needed."""

import os

# Set before any Qt import, so tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
