"""Readable text tables of a speed measurement and of the copy matrix (for the terminal).

Imports no torch: it formats the plain data of :mod:`tensorlab.core.protocol.measure_results` and
:mod:`tensorlab.core.protocol.copy_rows`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from tensorlab.core.protocol.copy_rows import COLUMNS, CopyMatrix
from tensorlab.core.protocol.measure_results import MeasureResult

__all__ = ["format_seconds", "measure_table", "measure_csv", "copies_table", "aligned"]


def format_seconds(seconds: float) -> str:
    """``seconds`` with a unit that keeps 3 significant digits: `812 ns`, `1.23 µs`, `45.6 ms`."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if abs(seconds) >= scale or unit == "ns":
            value = seconds / scale
            digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")


def aligned(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: str = "") -> list[str]:
    """``rows`` (the first is the header) as lines of aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(w) if r else cell.ljust(w) for cell, w, r in zip(row, widths, right)]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def measure_table(result: MeasureResult) -> str:
    """The machine, every measurement, and the verdict at each size."""
    m = result.machine
    lines = [f"device: {m.device} ({m.device_name}), torch {m.torch}, {m.threads} threads", ""]
    rows = [["method", "elements", "requires_grad", "median", "IQR", "runs"]]
    for x in result.measurements:
        rows.append([x.method, f"{x.size:,}", str(x.requires_grad), format_seconds(x.median_s),
                     format_seconds(x.iqr_s), str(x.runs)])
    lines += aligned(rows, [False, True, False, True, True, True])
    if result.verdicts:
        lines += ["", "clone().detach() / detach().clone(), median ratio and the ratio of the quartiles "
                      "crosswise (q1/q3 to q3/q1):"]
        for v in result.verdicts:
            lines.append(f"  {v.size:>10,} elements, requires_grad={v.requires_grad!s:<5}  {v.text}")
    for note in result.skipped:
        lines.append(f"skipped: {note}")
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


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def copies_table(matrix: CopyMatrix) -> str:
    """Every row of the copy matrix, a table per kind of x."""
    lines = [f"device: {matrix.device}"]
    for kind in dict.fromkeys(r.x for r in matrix.rows):
        rows = [["y = ...", *COLUMNS]]
        rows += [[r.operation, *(_cell(getattr(r, c)) for c in COLUMNS)] for r in matrix.rows if r.x == kind]
        lines += ["", f"x: {kind}", *aligned(rows, [False] * len(rows[0]), "  ")]
    return "\n".join(lines) + "\n"
