"""The band palette stays apart for colour-blind students: Machado 2009 simulations, CIEDE2000.

Both computations are written here from their papers (no colour library is a dependency):
sRGB → linear → (simulated) → XYZ (D65) → CIELAB → ΔE00 (Sharma, Wu and Dalal 2005, checked on
their test pairs).
"""

from __future__ import annotations

import itertools
import math

import pytest
from PySide6.QtGui import QColor

from tensorlab.ui.widgets.palette import BAND_COLORS, CHANGED, CULPRIT, CULPRIT_LINE, contrast_ratio, tensor_color

# Machado, Oliveira and Fernandes 2009, severity 1.0, applied to linear RGB.
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(color: QColor, matrix=NORMAL) -> tuple[float, float, float]:
    """CIELAB (D65) of ``color`` as seen through ``matrix`` (a simulation of linear RGB)."""
    rgb = [_linear(color.red()), _linear(color.green()), _linear(color.blue())]
    r, g, b = (min(max(sum(matrix[i][j] * rgb[j] for j in range(3)), 0.0), 1.0) for i in range(3))
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """ΔE00 of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        dhp = dhp - 360 if dhp > 180 else dhp + 360 if dhp < -180 else dhp
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp) / 2)
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbp - 30)) + 0.24 * math.cos(math.radians(2 * hbp))
         + 0.32 * math.cos(math.radians(3 * hbp + 6)) - 0.20 * math.cos(math.radians(4 * hbp - 63)))
    dtheta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc, sh = 1 + 0.045 * cbp, 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhh / sh) ** 2 + rt * (dcp / sc) * (dhh / sh))


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_the_tests_ciede2000_matches_sharmas_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_white_is_lab_100_and_the_simulations_keep_grey_grey():
    assert _lab(QColor("white")) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    for matrix in (PROTANOPIA, DEUTERANOPIA):
        assert ciede2000(_lab(QColor("#808080"), matrix), _lab(QColor("#808080"))) < 1.0


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_first_eight_band_colours_and_amber_differ_pairwise_by_delta_e_10(vision):
    matrix = {"normal": NORMAL, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}[vision]
    colors = [tensor_color(i) for i in range(8)] + [CHANGED]
    assert len({c.name() for c in colors}) == 9
    for a, b in itertools.combinations(colors, 2):
        assert ciede2000(_lab(a, matrix), _lab(b, matrix)) >= 10, (vision, a.name(), b.name())


def test_every_band_colour_reads_as_text_on_white():
    def luminance(c: QColor) -> float:
        return 0.2126 * _linear(c.red()) + 0.7152 * _linear(c.green()) + 0.0722 * _linear(c.blue())
    for name in BAND_COLORS:
        assert 1.05 / (luminance(QColor(name)) + 0.05) >= 2.9, name


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_the_culprit_steps_mark_differs_from_the_bands_the_amber_and_white_by_delta_e_10(vision):
    """The map's mark of the step that changed a saved tensor is not the amber of "changed by the last step"."""
    matrix = {"normal": NORMAL, "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}[vision]
    for other in [tensor_color(i) for i in range(8)] + [CHANGED, QColor("white")]:
        assert ciede2000(_lab(CULPRIT, matrix), _lab(other, matrix)) >= 10, (vision, other.name())
    assert contrast_ratio(CULPRIT_LINE, QColor("white")) >= 4.5
    assert contrast_ratio(CULPRIT_LINE, CULPRIT) >= 3.0   # the hatch shows on the fill
