"""Write a lesson (or a session's steps) as a plain PyTorch script."""

from __future__ import annotations

from collections.abc import Iterable

from tensorlab.core.lessons import Lesson

__all__ = ["export_script", "script_from_code"]


def script_from_code(codes: Iterable[str], title: str = "") -> str:
    """A runnable script: imports, the seed TensorLab uses, then each statement."""
    lines = []
    if title:
        lines.append(f"# {title}")
    lines += ["import copy", "", "import torch", "", "torch.manual_seed(0)", ""]
    lines += [code.strip("\n") for code in codes]
    return "\n".join(lines) + "\n"


def export_script(lesson: Lesson) -> str:
    """``lesson`` as a script, each step's note as a comment above its code."""
    codes = []
    for number, step in enumerate(lesson.steps, start=1):
        comment = f"# step {number}" + (f": {step.note}" if step.note else "")
        codes.append(comment + "\n" + step.code.strip("\n"))
    return script_from_code(codes, f"{lesson.title} (TensorLab lesson {lesson.id})")
