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
    # -- the course manifest (lessons/course.py) --------------------------------------------------------
    "course.where_chapter": ("chapter {number}", "{number}번째 장"),
    "course.where_lesson": ("{where} ({lesson})", "{where}의 레슨 `{lesson}`"),
    "course.prerequisites": ("{where}: `prerequisites` must be a list of lesson ids (a-z, 0-9, '-')",
                             "{where}: `prerequisites`는 레슨 id(a-z, 0-9, '-')의 목록이어야 합니다"),
    "course.lesson_table": ("{where}: a lesson is a table of `id` and `prerequisites`",
                            "{where}: 레슨은 `id`와 `prerequisites`로 된 테이블입니다"),
    "course.bad_id": ("{where}: `id` must be a lesson id (a-z, 0-9, '-'), not {text}",
                      "{where}: `id`는 레슨 id(a-z, 0-9, '-')여야 합니다. {text:`은} 안 됩니다"),
    "course.chapter_table": ("{where} must be a table ([[chapter]])", "{where:은} 테이블([[chapter]])이어야 합니다"),
    "course.unknown_key": ("{where}: unknown key `{key}`", "{where}: 알 수 없는 키 `{key}`"),
    "course.title": ("{where}: `title` (and each `title_xx`) must be text",
                     "{where}: `title`(과 각 `title_xx`)은 텍스트여야 합니다"),
    "course.lessons": ("{where}: `lessons` must be a list of at least one lesson",
                       "{where}: `lessons`는 레슨이 하나 이상인 목록이어야 합니다"),
    "course.format": ("this is not a {format} file", "`{format}` 파일이 아닙니다"),
    "course.version": ("version {version} is not one this TensorLab reads",
                       "이 TensorLab은 버전 {version:을} 읽지 못합니다"),
    "course.no_chapter": ("the course has no [[chapter]]", "과정에 [[chapter]]가 없습니다"),
    "course.twice": ("`{lesson}` is listed more than once", "{lesson:`이} 두 번 이상 나옵니다"),
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
    # a question answered by a measurement (issue 18, h18c)
    "lesson.verdict_answer": ("a question with `check = \"verdict\"` is answered by a measurement on the session's "
                              "device: it has no `answer`",
                              "`check = \"verdict\"`인 질문은 세션의 장치에서 잰 결과로 답이 정해지므로 `answer`를 "
                              "쓰지 않습니다"),
    "lesson.verdict_fields": ("`check = \"verdict\"` needs `size` (a whole number of elements from {low} to {high}) "
                              "and `verdicts` (for each choice, `\"slower\"`, `\"same\"` or `\"faster\"`, each "
                              "exactly once), and `requires_grad` if given is `true` or `false`; these keys go with "
                              "`check = \"verdict\"` only",
                              "`check = \"verdict\"`에는 `size`({low}부터 {high}까지의 원소 개수)와 "
                              "`verdicts`(선택지마다 `\"slower\"`, `\"same\"`, `\"faster\"` 중 하나, "
                              "각각 정확히 한 번)가 필요하고, `requires_grad`를 쓴다면 "
                              "`true`나 `false`여야 합니다. 이 키들은 `check = \"verdict\"`에만 씁니다"),
    "lesson.answer": ("`answer` in [step.ask] must be the index of a choice (0 to {last})",
                      "[step.ask]의 `answer`는 선택지의 인덱스(0부터 {last}까지)여야 합니다"),
    "lesson.choices_count": ("`{key}` must have as many choices as `choices`",
                             "`{key}`에는 `choices`와 같은 수의 선택지가 있어야 합니다"),
    "lesson.not_found": ("no such lesson file or built-in lesson (built-in: {known})",
                         "그런 레슨 파일이나 내장 레슨이 없습니다(내장 레슨: {known})"),
    # -- ui/program/user_steps.py: the steps you added, kept in user-steps.toml (issue 15, class 7) -------------
    "steps.not_this_format": ("this is not a tensorlab-user-steps file", "`tensorlab-user-steps` 파일이 아닙니다"),
    "steps.version": ("version {version} is not one this TensorLab reads",
                      "이 TensorLab이 읽을 수 있는 버전이 아닙니다(버전 {version})"),
    "steps.programs_not_array": ("`program` must be an array of tables ([[program]])",
                                 "`program`은 테이블 배열([[program]])이어야 합니다"),
    "steps.lesson_id": ("the lesson {lesson}", "{lesson} 레슨"),
    "steps.program_number": ("program {number} of the file", "파일의 {number}번째 프로그램"),
    "steps.in_step": ("step {step}: {reason}", "{step}단계: {reason}"),
    "steps.program_not_table": ("each program must be a table", "프로그램마다 테이블이어야 합니다"),
    "steps.program_keys": ("only `source`, `lesson`, `file` and `step` are allowed",
                           "`source`, `lesson`, `file`, `step`만 쓸 수 있습니다"),
    "steps.program_keys_v1": ("only `lesson` (text) and `step` are allowed",
                              "`lesson`(텍스트)과 `step`만 쓸 수 있습니다"),
    "steps.source": ("`source` must be scratchpad, builtin, file or diagnosis",
                     "`source`는 `scratchpad`, `builtin`, `file`, `diagnosis` 중 하나여야 합니다"),
    "steps.lesson": ("`lesson` must be the id of the lesson (text; none for the scratchpad)",
                     "`lesson`은 레슨의 id(텍스트)여야 합니다(연습장에는 쓰지 않습니다)"),
    "steps.file": ("`file` must be the lesson file's path (text), given for a lesson file only",
                   "`file`은 레슨 파일의 경로(텍스트)여야 하며 레슨 파일에만 씁니다"),
    "steps.lesson_key_v1": ("`lesson` must be \"\" or a lesson id and file name joined by @",
                            "`lesson`은 \"\"이거나 레슨 id와 파일 이름을 @로 이은 것이어야 합니다"),
    "steps.too_many": ("`step` must be a list of at most {limit} steps",
                       "`step`은 단계가 최대 {limit}개인 리스트여야 합니다"),
    "steps.step_keys": ("only `code`, `after` and `occurrence` are allowed",
                        "`code`, `after`, `occurrence`만 쓸 수 있습니다"),
    "steps.step_keys_v1": ("only `code` and `origin` are allowed", "`code`와 `origin`만 쓸 수 있습니다"),
    "steps.step_values": ("`code` and `after` must be text and `occurrence` a whole number from 1 to {limit}, "
                          "given with `after` only",
                          "`code`와 `after`는 텍스트여야 하고, `occurrence`는 1부터 {limit}까지의 정수로 "
                          "`after`와 함께만 씁니다"),
    "steps.step_values_v1": ("`code` must be text and `origin` lesson or user",
                             "`code`는 텍스트여야 하고 `origin`은 `lesson` 또는 `user`여야 합니다"),
    "steps.duplicate": ("the same lesson's steps come earlier in the file",
                        "같은 레슨의 단계가 파일 앞쪽에 이미 있습니다"),
    "steps.anchor_gone": ("the lesson step they followed ({code}) is no longer in the lesson",
                          "뒤따르던 레슨 단계({code})가 이제 레슨에 없습니다"),
    # saved work follows rewritten lessons (issue 18, h18c)
    "steps.lesson_steps": ("`lesson_steps` must be a list of at most {limit} texts, in a lesson's program only",
                           "`lesson_steps`는 최대 {limit}개의 텍스트로 된 목록이어야 하며, 레슨의 프로그램에만 씁니다"),
    "steps.too_long": ("the program has {count} steps; at most {limit} are kept",
                       "프로그램에 단계가 {count}개 있습니다. 최대 {limit}개까지 보관합니다"),
    "steps.file_too_large": ("the file would be larger than {limit:,} bytes", "파일이 {limit:,}바이트보다 커집니다"),
    "steps.scratchpad": ("the scratchpad", "연습장"),
    "steps.lesson_named": ("“{title}”", "“{title}”"),
    "steps.set_aside": ("The steps you added to {lesson} could not be used ({reason}); they were set aside in "
                        "{path}. Your other saved steps are kept.",
                        "{lesson}에 직접 추가한 단계를 쓸 수 없습니다({reason}). 이 단계는 {path}에 따로 옮겨 "
                        "두었고, 저장된 다른 단계는 그대로 둡니다."),
    "steps.not_used": ("The steps you added to {lesson} could not be used ({reason}) and stay in {path}.",
                       "{lesson}에 직접 추가한 단계를 쓸 수 없습니다({reason}). 이 단계는 {path}에 그대로 있습니다."),
    "steps.not_saved": ("The steps you added to {lesson} are not saved: {reason}. They stay in this window, and are "
                        "saved again once TensorLab can load them.",
                        "{lesson}에 직접 추가한 단계는 저장하지 않습니다: {reason}. 이 단계는 이 창에 남아 있고, "
                        "TensorLab이 다시 읽을 수 있게 되면 저장합니다."),
    "steps.locked": ("The steps you added are not saved yet: another TensorLab window kept {path} locked for "
                     "{seconds} s. They stay in this window and are saved with your next change or when it closes.",
                     "직접 추가한 단계를 아직 저장하지 못했습니다: 다른 TensorLab 창이 {path:을} {seconds}초 동안 "
                     "잠가 두었습니다. 이 단계는 이 창에 남아 있고, 다음에 바꿀 때나 창을 닫을 때 저장합니다."),
    "steps.too_many_in_program": ("a program holds at most {limit} steps: remove one before adding another",
                                  "프로그램에는 단계를 최대 {limit}개까지 둘 수 있습니다. 하나를 지운 뒤 추가하세요"),
    # -- h15 (issue #15 leftovers): two windows changing the same program, merged step by step -----------------
    "steps.merged_other": ("Another TensorLab window changed the steps you added to {lesson}: its steps and yours were "
                           "merged in the saved file. This window shows them the next time TensorLab starts.",
                           "다른 TensorLab 창이 {lesson}에 직접 추가한 단계를 바꾸었습니다. 그 창의 단계와 "
                           "이 창의 단계를 저장 파일에서 합쳤습니다. 이 창에는 TensorLab을 다음에 시작할 때 "
                           "보입니다."),
    "steps.merged_conflict": ("Another TensorLab window and this one both changed the steps you added to {lesson} "
                              "after the same lesson step: both are kept in the saved file, this window's first, "
                              "then the other's. Remove the ones you do not want.",
                              "다른 TensorLab 창과 이 창이 {lesson}의 같은 레슨 단계 뒤에 직접 추가한 단계를 둘 다 "
                              "바꾸었습니다. 저장 파일에는 둘 다 남겼습니다(이 창의 단계가 먼저, 그다음 다른 창의 "
                              "단계). 원하지 않는 단계는 지우세요."),
    # -- h20b (issue #20): a diagnosis opened from the Diagnose panel, a program of its own ----------------------
    "steps.diagnosis": ("a diagnosis needs its id (`diagnosis-` and the 12 hexadecimal digits its steps make), a "
                        "`title` table of texts of at most {limit} characters by language, and its steps in "
                        "`lesson_steps`",
                        "진단에는 id(`diagnosis-`와 단계에서 만든 16진수 12자리), 언어별로 최대 {limit}자인 텍스트의 "
                        "`title` 테이블, 그리고 `lesson_steps`에 담긴 단계가 있어야 합니다"),
    "steps.diagnosis_title": ("Diagnosis: {title}", "진단: {title}"),
    "steps.diagnosis_chapter": ("Your diagnosed errors", "직접 진단한 오류"),
    "steps.diagnosis_advice": ("What to do: {advice}", "해결 방법: {advice}"),
    # -- h21a (issue #21): a learner's own .py or notebook opened as a lesson (lessons/source_import.py) ------
    # "of the file": never read as the Code panel's step number beside it (issue #21 review, h21d)
    "source.line": ("line {line} of the file", "파일의 {line}번째 줄"),
    "source.cell_line": ("cell {cell}, line {line}", "{cell}번째 셀의 {line}번째 줄"),
    "source.at_line": ("line {line} of the file: {reason}", "파일의 {line}번째 줄: {reason}"),
    "source.at_cell_line": ("cell {cell}, line {line}: {reason}", "{cell}번째 셀의 {line}번째 줄: {reason}"),
    "source.depends": ("depends on {where}, which is not run (`{name}` is defined there)",
                       "실행하지 않는 {where}에 의존합니다({name:`은} 그 줄에서 정의됩니다)"),
    # issue #21 review r21g: a name a refused `del w` deletes is not "defined there"
    "source.deleted": ("depends on {where}, which is not run (`{name}` is deleted there)",
                       "실행하지 않는 {where}에 의존합니다({name:`은} 그 줄에서 삭제됩니다)"),
    "source.magic": ("an IPython magic or shell command (`%`, `!`) is not Python: TensorLab does not run it",
                     "IPython 매직 명령이나 셸 명령(`%`, `!`)은 Python 코드가 아니므로 TensorLab에서 실행하지 "
                     "않습니다"),
    "source.cell_magic": ("a cell magic (`%%`) makes the whole cell something other than Python: TensorLab does not "
                          "run it",
                          "셀 매직(`%%`)이 있는 셀 전체는 Python 코드가 아니므로 TensorLab에서 실행하지 않습니다"),
    "source.bad_cookie": ("the file's encoding declaration (PEP 263) cannot be used: {detail}",
                          "파일의 인코딩 선언(PEP 263)을 쓸 수 없습니다: “{detail}”"),
    "source.not_encoded": ("the file is not {encoding} text (line {line}, byte {byte})",
                           "파일이 {encoding} 텍스트가 아닙니다({line}번째 줄, {byte}번째 바이트)"),
    "source.not_notebook": ("this is not a Jupyter notebook: {detail}", "Jupyter 노트북이 아닙니다: “{detail}”"),
    "source.notebook_version": ("this notebook is in format {version}; TensorLab opens format 4 (save it again "
                                "with Jupyter)",
                                "이 노트북은 {version} 형식입니다. TensorLab은 4 형식만 엽니다(Jupyter에서 다시 "
                                "저장하세요)"),
    "source.no_statements": ("the file holds no statement to step through",
                             "파일에 단계로 나눌 문장이 없습니다"),
    "source.too_many": ("the file has {count} statements; TensorLab opens at most {limit}",
                        "파일에 문장이 {count}개 있습니다. TensorLab은 최대 {limit}개까지 엽니다"),
    "source.code_too_large": ("the notebook's code cells hold {size} characters; TensorLab opens at most {limit}",
                              "노트북의 코드 셀에 문자가 {size}개 있습니다. TensorLab은 최대 {limit}개까지 엽니다"),
    "source.not_run": ("not run: {reason}", "실행하지 않습니다: {reason}"),
    # -- h21d (issue #21 review): a refused statement's long text is cut in the Code panel -------------------
    "source.may_change": ("may depend on {where}, which is not run (it may change `{name}`)",
                          "실행하지 않는 {where}에 의존할 수 있습니다(그 줄이 {name:`을} 바꿀 수 있습니다)"),
    # -- issue #21 review r21c: what a refused statement changes beyond its names -------------------------------
    "source.settings": ("may depend on {where}, which is not run (it changes torch's settings, which every later "
                        "step may read)",
                        "실행하지 않는 {where}에 의존할 수 있습니다(그 줄이 torch의 설정을 바꾸고, 이후의 모든 단계가 "
                        "그 설정을 읽을 수 있습니다)"),
    "source.any_name": ("may depend on {where}, which is not run (it may change any name)",
                        "실행하지 않는 {where}에 의존할 수 있습니다(그 줄이 어떤 이름이든 바꿀 수 있습니다)"),
    # -- issue #21 review r21h: a refused statement that stops Python, or may (`raise`, `exit()`, `assert`) ---------
    # (No "not run:" of its own: the transcript and the export say that before every refused step's reason.)
    "source.stops": ("Python stops at {where}, which is not run (it raises or exits), and never gets here",
                     "Python은 실행하지 않는 {where}에서 멈추므로(오류를 발생시키거나 종료합니다) "
                     "여기까지 오지 않습니다"),
    "source.block_may_stop": ("{reason}; it may stop Python at {where} (it raises or exits there), which is not "
                              "run here (the steps after show what happens when it does not stop)",
                              "{reason}. 이 블록은 {where}에서 Python을 멈출 수 있지만(오류를 발생시키거나 "
                              "종료합니다) 여기서는 실행하지 않습니다(이후의 단계는 멈추지 않을 때 일어나는 일을 "
                              "보여 줍니다)"),
    "source.assert_may_stop": ("{reason}; this `assert` is not checked here: if it fails, Python stops there (the "
                               "steps after show what happens when it holds)",
                               "{reason}. 이 `assert`는 여기서 확인하지 않습니다: 실패하면 Python은 그곳에서 멈춥니다"
                               "(이후의 단계는 그것이 성립할 때 일어나는 일을 보여 줍니다)"),
    # -- issue #21 review r21f: a tensor a statement not run may have changed, marked where it is shown ----------
    "source.may_differ_mark": ("may differ (line {line} not run)", "다를 수 있음({line}번째 줄 실행 안 함)"),
    "source.may_differ_mark_cell": ("may differ (cell {cell}, line {line} not run)",
                                    "다를 수 있음({cell}번째 셀의 {line}번째 줄 실행 안 함)"),
    "source.may_differ_tip": (
        "The statement at {where} is not run, and in Python it may change this tensor in place (its values or its "
        "gradient): what is shown is TensorLab's run without it, which Python may not hold.",
        "{where}의 문장은 TensorLab에서 실행하지 않지만, Python에서는 이 텐서를 인플레이스(in-place)로 바꿀 수 "
        "있습니다(값이나 기울기(gradient)). 보이는 것은 그 문장 없이 실행한 TensorLab의 결과이며, Python에서의 값과 "
        "다를 수 있습니다."),
    "source.converts": ("`.{call}(...)` as a statement of its own converts a module in place, which TensorLab does "
                        "not run (a tensor's `.{call}(...)` returns a new tensor: write `y = x.{call}(...)`)",
                        "단독 문장으로 쓴 `.{call}(...)`는 모듈을 인플레이스로 변환하는데, TensorLab은 이를 실행하지 "
                        "않습니다(텐서의 `.{call}(...)`는 새 텐서를 반환하므로 `y = x.{call}(...)`처럼 쓰세요)"),
    "source.more_characters": ("… ({count} more characters)", "… (문자 {count}개가 더 있습니다)"),
    # -- h21j (issue #21 review r21e): a long note (a big markdown cell, a long docstring) is shown cut -------
    "source.and_more": ("{where} and {count} more", "{where} 외 {count}개"),
    "source.note_cut": ("… ({count} more characters not shown)", "… (표시하지 않은 문자 {count}개가 더 있습니다)"),
    # -- h21h (issue #21 review r21b): a long refused statement in the Code panel, its first lines and a click --
    "source.more_lines": ("… {count} more lines (click to show them)",
                          "… {count}줄이 더 있습니다(클릭하면 모두 보입니다)"),
    "source.show_whole": ("(click to show it whole)", "(클릭하면 전체를 보입니다)"),
    "source.show_less": ("(click to show less)", "(클릭하면 줄여서 보입니다)"),
    "source.lines_not_shown": ("… {count} more lines (not shown)", "… {count}줄이 더 있습니다(표시하지 않습니다)"),
    # -- h21e (issue #21 residuals): a name a refused `import *` may bind; the file's own reading problems ------
    "source.star": ("depends on {where}, which is not run (`{name}` may come from its `import *`)",
                    "실행하지 않는 {where}에 의존합니다({name:`은} 그 줄의 `import *`에서 올 수 있습니다)"),
    "source.bom_cookie": ("the file starts with a UTF-8 byte order mark but its encoding declaration says "
                          "{encoding}: the two disagree (remove the mark, or make the declaration utf-8)",
                          "파일이 UTF-8 바이트 순서 표시(BOM)로 시작하는데 인코딩 선언은 {encoding:이라고} "
                          "합니다. 둘이 서로 맞지 않습니다(표시를 지우거나 선언을 utf-8로 고치세요)"),
    "source.notebook_wide": ("the notebook is saved as {encoding}; Jupyter and TensorLab read a notebook as UTF-8 "
                             "(save it as UTF-8)",
                             "노트북 파일이 {encoding:으로} 저장되어 있습니다. Jupyter와 TensorLab은 노트북을 UTF-8로 "
                             "읽습니다(UTF-8로 다시 저장하세요)"),
    "source.wide_encoding": ("the file is saved as {encoding}; TensorLab reads a .py file as UTF-8 or as its encoding "
                             "declaration says (save it as UTF-8)",
                             "파일이 {encoding:으로} 저장되어 있습니다. TensorLab은 .py 파일을 UTF-8이나 인코딩 선언에 "
                             "적힌 인코딩으로 읽습니다(UTF-8로 다시 저장하세요)"),
    # -- h21g (issue #21 review r21b): IPython help, the script's main guard, what to write instead ----------
    "source.help": ("an IPython help request (`name?`, `?name`, `torch.randn(2)?`) is not Python: TensorLab does not "
                    "run it",
                    "IPython 도움말 요청은(`name?`, `?name`, `torch.randn(2)?`) Python 코드가 아니므로 TensorLab에서 "
                    "실행하지 않습니다"),
    "source.main_guard": ("`if __name__ == \"__main__\":` is not run in TensorLab: an `if` is not available, so its "
                          "block is not run either (write its statements at the top level to step through them)",
                          "TensorLab에서는 `if __name__ == \"__main__\":` 문을 실행하지 않습니다. `if` 문은 쓸 수 "
                          "없으므로 그 블록도 실행하지 않습니다(단계별로 실행하려면 블록의 문장을 맨 바깥에 쓰세요)"),
    "source.hint": ("{reason}; write {instead:`} instead", "{reason}. 대신 {instead:`을} 쓰세요"),
    "source.math_hint": ("{reason}; for `{name}` write `{value}`, the same number",
                         "{reason}. `{name}` 대신 같은 수인 {value:`을} 쓰세요"),
    # -- issue #21 review r21f: hints for `math.sqrt(x)`, a loss TensorLab lacks, `from torch.nn import functional`
    "source.math_function_hint": ("{reason}; for `{name}(...)` write `torch.{call}(...)` of a tensor "
                                  "(`torch.{call}(torch.tensor(2.0))`), or the number itself",
                                  "{reason}. `{name}(...)` 대신 텐서에 `torch.{call}(...)`를 쓰거나"
                                  "(`torch.{call}(torch.tensor(2.0))`), 그 수를 직접 쓰세요"),
    "source.loss_hint": ("{reason}; the loss TensorLab has is `F.mse_loss(output, target)`, the mean squared error "
                         "(another loss than {name:`})",
                         "{reason}. TensorLab에 있는 손실(loss)은 평균 제곱 오차인 `F.mse_loss(output, target)`입니다"
                         "({name:`과} 다른 손실입니다)"),
    "source.import_forms": ("{reason}; write {instead:`} instead (the accepted forms: `import torch`, "
                            "`import copy`, `import torch.nn as nn`, `import torch.nn.functional as F`, "
                            "`import torch.optim as optim`, `from torch import nn`, `from torch import optim`)",
                            "{reason}. 대신 {instead:`을} 쓰세요(쓸 수 있는 형태: `import torch`, `import copy`, "
                            "`import torch.nn as nn`, `import torch.nn.functional as F`, "
                            "`import torch.optim as optim`, `from torch import nn`, `from torch import optim`)"),
}
CODE_ONLY = frozenset({"lesson.in_file", "steps.lesson_named"})
