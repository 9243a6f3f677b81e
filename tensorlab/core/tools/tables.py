"""Readable text tables of a speed measurement and of the copy matrix (for the terminal).

Imports no torch: it formats the plain data of :mod:`tensorlab.core.protocol.measure_results` and
:mod:`tensorlab.core.protocol.copy_rows`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from tensorlab.core.files.safe_text import display_width
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.copy_rows import COLUMNS, CopyMatrix
from tensorlab.core.protocol.measure_results import MeasureResult, noise

__all__ = ["format_seconds", "measure_table", "measure_csv", "copies_table", "copy_header", "aligned"]


def format_seconds(seconds: float) -> str:
    """``seconds`` with a unit that keeps 3 significant digits: `812 ns`, `1.23 µs`, `45.6 ms`."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if abs(seconds) >= scale or unit == "ns":
            value = seconds / scale
            digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")


_width = display_width


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * max(width - _width(text), 0)
    return space + text if right else text + space


def aligned(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "") -> list[str]:
    """``rows`` (the first is the header) as lines of aligned columns (by terminal width, so Korean aligns)."""
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [_pad(cell, w, r) for cell, w, r in zip(row, widths, right)]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def measure_table(result: MeasureResult, language: str = "en") -> str:
    """The machine, every measurement, and the verdict at each size, in ``language``."""
    m = result.machine
    lines = [render("table.machine", {"device": m.device, "name": m.device_name, "torch": m.torch,
                                      "threads": m.threads}, language), ""]
    rows = [[render("table.method", None, language), render("table.elements", None, language), "requires_grad",
             render("table.median", None, language), render("table.iqr", None, language),
             render("table.runs", None, language)]]
    noisy = noise(result.measurements)
    marked = {n.measurement for n in noisy}
    for x in result.measurements:
        rows.append([x.method, f"{x.size:,}", str(x.requires_grad), format_seconds(x.median_s),
                     format_seconds(x.iqr_s), str(x.runs), "!" if x in marked else ""])
    rows[0].append("")
    lines += aligned(rows, [False, True, False, True, True, True, False])
    if noisy:
        lines += ["", render("table.noise", None, language)]
        lines += [f"  ! {n.message().render(language)}" for n in noisy]
    if result.verdicts:
        lines += ["", render("table.verdicts", None, language)]
        at = [render("table.at_size", {"size": f"{v.size:,}", "grad": v.requires_grad}, language)
              for v in result.verdicts]
        width = max(_width(a) for a in at)
        for v, where in zip(result.verdicts, at):
            lines.append(f"  {_pad(where, width, True)}  {v.render(language)}")
    for note in result.skipped:
        lines.append(render("table.skipped", {"note": note.render(language)}, language))
    return "\n".join(lines) + "\n"


CSV_COLUMNS = ("method", "size", "requires_grad", "median_s", "iqr_s", "q1_s", "q3_s", "runs", "number_per_run",
               "device", "device_name", "torch", "threads")


def measure_csv(result: MeasureResult) -> str:
    """Every measurement as CSV, each row carrying the machine it was measured on."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    m = result.machine
    for x in result.measurements:
        writer.writerow([x.method, x.size, x.requires_grad, repr(x.median_s), repr(x.iqr_s), repr(x.q1_s),
                         repr(x.q3_s), x.runs, x.number_per_run, m.device, m.device_name, m.torch, m.threads])
    return buffer.getvalue()


def _cell(value: object, language: str) -> str:
    if value is None:
        return "-"
    if value is True:
        return render("table.yes", None, language)
    if value is False:
        return render("table.no", None, language)
    return str(value)


def copy_header(column: str, language: str = "en") -> str:
    """The header of the copy matrix's fact column ``column`` (a field of the JSON) in ``language``."""
    return render(f"copies.column.{column}", None, language)


def copies_table(matrix: CopyMatrix, language: str = "en") -> str:
    """Every row of the copy matrix, a table per kind of x, in ``language`` (the window's headers)."""
    lines = [render("table.device", {"device": matrix.device}, language)]
    kinds = {"leaf": "table.leaf", "non-leaf": "table.non_leaf"}
    for kind in dict.fromkeys(r.x for r in matrix.rows):
        rows = [["y = ...", *(copy_header(c, language) for c in COLUMNS)]]
        rows += [[r.operation, *(_cell(getattr(r, c), language) for c in COLUMNS)] for r in matrix.rows
                 if r.x == kind]
        said = render(kinds[kind], None, language) if kind in kinds else kind
        lines += ["", render("table.x", {"kind": said}, language), *aligned(rows, [False] * len(rows[0]), "  ")]
    return "\n".join(lines) + "\n"
