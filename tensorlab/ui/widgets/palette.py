"""Colours and value formatting shared by the panels, so a tensor looks the same everywhere."""

from __future__ import annotations

from PySide6.QtGui import QColor

__all__ = ["BAND_COLORS", "tensor_color", "format_value", "contrast_ratio", "text_color_on", "CHANGED", "ERROR",
           "WARNING", "MUTED", "CULPRIT", "CULPRIT_LINE"]

# The band colours, in the order tensors get them. The first eight and the changed-cell amber stay
# apart (CIEDE2000 >= 13) for normal vision and under deuteranopia and protanopia (Machado 2009,
# severity 1), so a colour-blind student tells the bands apart (tests/ui/widgets/test_palette.py);
# each is dark enough to read as text on white (contrast >= 2.9:1) and under a band's white labels.
_COLORS = (
    "#0970b2", "#ba3600", "#079f75", "#cc79a6", "#8a2454", "#32218d", "#167d46", "#999933",
    "#7570b3", "#7f7f7f", "#6a3d9a", "#b15928",
)
BAND_COLORS = _COLORS
CHANGED = QColor("#ffd54f")
ERROR = QColor("#c62828")
WARNING = QColor("#ef6c00")
MUTED = QColor("#757575")
# The cells of the step that changed a saved tensor a failing backward() needed (the storage map): apart from
# the first eight band colours, the amber and white (CIEDE2000 >= 17 under the three visions of the palette's
# test), hatched and outlined in CULPRIT_LINE (text on white >= 4.5:1), so the mark is told by its pattern too.
CULPRIT = QColor("#90caf9")
CULPRIT_LINE = QColor("#0d47a1")


def tensor_color(index: int) -> QColor:
    """The colour of the tensor at ``index`` in the snapshot's order."""
    return QColor(_COLORS[index % len(_COLORS)])


def _luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(color.red()) + 0.7152 * linear(color.green()) + 0.0722 * linear(color.blue())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_color_on(fill: QColor) -> QColor:
    """Black or white text, whichever contrasts more with ``fill`` (never under 4.58:1)."""
    black, white = QColor("black"), QColor("white")
    return black if contrast_ratio(black, fill) >= contrast_ratio(white, fill) else white


def _exponent(value: float, digits: int = 1) -> str:
    """Scientific notation without padding: `1.2e4`, `-3.1e-5` (not `1.2e+04`)."""
    mantissa, _, exponent = f"{value:.{digits}e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def format_value(value: object, width: int = 6) -> str:
    """A snapshot value (number, bool, "nan", [re, im]) in about ``width`` characters (at most width + 1).

    Integers and short decimals are written out; others keep as many significant
    digits as fit, then switch to a compact exponent (`1.2e4`, `-3.1e-5`).
    """
    if isinstance(value, bool):
        return "T" if value else "F"
    if isinstance(value, tuple) and len(value) == 2:
        return f"{format_value(value[0], 4)}{'+' if _num(value[1]) >= 0 else ''}{format_value(value[1], 4)}j"
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= width else _exponent(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        if value == int(value) and len(f"{value:.1f}") <= width + 1:
            return f"{value:.1f}"
        for digits in range(max(1, width - 2), 0, -1):
            text = f"{value:.{digits}g}"
            if len(text) <= width + 1 and "e" not in text:
                return text
        return _exponent(value)
    return str(value)


def _num(value: object) -> float:
    return value if isinstance(value, (int, float)) else 0.0
