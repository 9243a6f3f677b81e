"""Texts: reading files (files/bounded_read.py) and lesson files (lessons/lesson.py).

``{detail}`` is Python's own text (tomllib, the OS): quoted, never translated. Registered in
:mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # -- files/bounded_read.py ------------------------------------------------------------------------
    "file.cannot_read": ("cannot read the file: {detail}", "파일을 읽을 수 없습니다: “{detail}”"),
    "file.special": ("this is {kind}, not a lesson file: only regular files are read",
                     "이것은 레슨 파일이 아니라 {kind}입니다. 일반 파일만 읽습니다"),
    "file.symlink": ("the file is a symbolic link, and TensorLab does not follow links to its own files",
                     "파일이 심볼릭 링크입니다. TensorLab은 자기 파일로 가는 링크를 따라가지 않습니다"),
    "file.kind.folder": ("a folder", "폴더"),
    "file.kind.fifo": ("a named pipe (FIFO)", "이름 있는 파이프(FIFO)"),
    "file.kind.device": ("a device", "장치 파일"),
    "file.kind.socket": ("a socket", "소켓"),
    "file.kind.special": ("a special file", "특수 파일"),
    "file.too_large": ("the file is larger than {limit:,} bytes", "파일이 {limit:,}바이트보다 큽니다"),
    # -- lessons/lesson.py: where ------------------------------------------------------------------------
    "lesson.in_file": ("{source}: {reason}", "{source}: {reason}"),
    "lesson.in_step": ("{source}, step {step}: {reason}", "{source}, {step}단계: {reason}"),
    # -- lessons/lesson.py: what --------------------------------------------------------------------------
    "lesson.not_utf8": ("the file is not UTF-8 text (byte {byte})", "UTF-8 텍스트 파일이 아닙니다({byte}번째 바이트)"),
    "lesson.empty": ("the file is empty", "파일이 비어 있습니다"),
    "lesson.toml": ("this is not valid TOML: {detail}", "올바른 TOML이 아닙니다: “{detail}”"),
    "lesson.toml_at": ("this is not valid TOML (line {line}, column {column}): {detail}",
                       "올바른 TOML이 아닙니다({line}번째 줄 {column}번째 글자): “{detail}”"),
    "lesson.toml_long_integer": ("this TOML holds an integer of {digits:,} digits; TensorLab reads integers of at "
                                 "most {limit:,} digits",
                                 "이 TOML에는 {digits:,}자리 정수가 있습니다. TensorLab은 {limit:,}자리까지의 정수만 "
                                 "읽습니다"),
    "lesson.toml_deep": ("this TOML nests arrays or tables too deeply to read",
                         "이 TOML은 배열이나 테이블이 너무 깊게 중첩되어 읽을 수 없습니다"),
    "lesson.toml_value": ("this TOML holds a value TensorLab cannot read: {detail}",
                          "이 TOML에는 TensorLab이 읽을 수 없는 값이 있습니다: “{detail}”"),
    "lesson.toml_large": ("this TOML is too large to read", "이 TOML은 너무 커서 읽을 수 없습니다"),
    "lesson.unknown_table": ("unknown table `{key}` (expected [lesson] and [[step]])",
                             "알 수 없는 테이블 `{key}`입니다([lesson]과 [[step]]만 씁니다)"),
    "lesson.no_header": ("the [lesson] table is missing", "[lesson] 테이블이 없습니다"),
    "lesson.unknown_key": ("unknown key `{key}` in {where}", "{where}에 알 수 없는 키 {key:`이} 있습니다"),
    "lesson.missing": ("`{key}` in {where} is missing", "{where}에 {key:`이} 없습니다"),
    "lesson.not_text_type": ("`{key}` in {where} must be text, not {type}",
                             "{where}의 {key:`은} {type:`이} 아니라 텍스트여야 합니다"),
    "lesson.not_text": ("`{key}` in {where} must be text", "{where}의 {key:`은} 텍스트여야 합니다"),
    "lesson.not_text_list": ("`{key}` in {where} must be a list of text",
                             "{where}의 {key:`은} 텍스트 리스트여야 합니다"),
    "lesson.bad_id": ("`id` must use only a-z, 0-9 and '-', not {text}",
                      "`id`에는 a-z, 0-9, '-'만 쓸 수 있습니다({text:은} 안 됩니다)"),
    "lesson.bad_prerequisite": ("`prerequisites` must be lesson ids (a-z, 0-9, '-'), not {text}",
                                "`prerequisites`에는 레슨 id(a-z, 0-9, '-')를 씁니다({text:은} 안 됩니다)"),
    "lesson.no_steps": ("the lesson has no [[step]]", "레슨에 [[step]]이 없습니다"),
    "lesson.steps_not_array": ("`step` must be an array of tables ([[step]])",
                               "`step`은 테이블 배열([[step]])이어야 합니다"),
    "lesson.too_many_steps": ("the lesson has {count} steps; at most {limit} are allowed",
                              "레슨에 단계가 {count}개 있습니다. 최대 {limit}개까지 허용됩니다"),
    "lesson.step_not_table": ("each step must be a table", "단계마다 테이블이어야 합니다"),
    "lesson.note_not_text": ("`note` must be text", "`note`는 텍스트여야 합니다"),
    "lesson.ask_not_table": ("`ask` must be a table ([step.ask])", "`ask`는 테이블([step.ask])이어야 합니다"),
    "lesson.choices": ("`choices` in [step.ask] must be a list of at least two texts",
                       "[step.ask]의 `choices`는 텍스트가 두 개 이상인 리스트여야 합니다"),
    "lesson.answer": ("`answer` in [step.ask] must be the index of a choice (0 to {last})",
                      "[step.ask]의 `answer`는 선택지의 인덱스(0부터 {last}까지)여야 합니다"),
    "lesson.choices_count": ("`{key}` must have as many choices as `choices`",
                             "`{key}`에는 `choices`와 같은 수의 선택지가 있어야 합니다"),
    "lesson.not_found": ("no such lesson file or built-in lesson (built-in: {known})",
                         "그런 레슨 파일이나 내장 레슨이 없습니다(내장 레슨: {known})"),
}
CODE_ONLY = frozenset({"lesson.in_file"})
