"""Texts: what TensorLab writes around a run (the transcript, exported programs, the engine, the headless commands).

Registered in :mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "text.verbatim": ("{text}", "{text}"),
    # A lesson's own text in each language (a choice quoted in a finding): the file's English, or its _ko.
    "text.lesson_text": ("{en}", "{ko}"),
    # -- an explanation as one paragraph (lessons/transcript.py) ----------------------------------------
    "explain.paragraph": ("{title}: {text}", "{title}: {text}"),
    "explain.paragraph_advice": ("{title}: {text} Instead: {advice}", "{title}: {text} 대신: {advice}"),
    # The Output panel's labels around the same explanation (one wording with the text form above).
    "explain.label.plain": ("In plain words", "쉽게 말하면"),
    "explain.label.instead": ("Instead:", "대신:"),
    # -- lessons/transcript.py ---------------------------------------------------------------------------
    "transcript.where": ("({lesson}, on {device})", "({lesson}, {device}에서)"),
    # -- for loops (issue #16, h16b) ----------------------------------------------------------------------
    "transcript.loop_iterations": ("the loop ran {count} iterations to their end",
                                   "반복문의 반복 {count}번이 끝까지 실행되었습니다"),
    "transcript.loop_iteration": ("the loop ran 1 iteration to its end", "반복문의 반복 1번이 끝까지 실행되었습니다"),
    # -- who raised a step's error: the Output panel's heading and the transcript (issue #15, h15b) ---
    "error.torch_raised": ("torch raised {type}", "torch가 {type:를} 발생시켰습니다"),
    "error.tensorlab_refused": ("TensorLab refused this ({type})", "TensorLab이 이것을 거부했습니다({type})"),
    "error.tensorlab_stopped": ("TensorLab stopped this step ({type})", "TensorLab이 이 단계를 멈췄습니다({type})"),
    "cli.slides_cut": ("the run's time limit of {seconds} s was reached: {count} of {total} slides were written, "
                       "the later steps were not run and have no slide",
                       "실행 시간 제한 {seconds}초에 도달했습니다. 슬라이드 {total}장 중 {count}장을 썼고, "
                       "그 뒤의 단계는 실행되지 않아 슬라이드가 없습니다"),
    # -- export/program_files.py -------------------------------------------------------------------------
    "export.step": ("Step {number}", "{number}단계"),
    "export.question": ("Predict before you run", "실행하기 전에 예측해 보세요"),
    "export.answer": ("Answer", "정답"),
    # a question answered by a measurement (issue 18, h18c)
    "export.measured": ("measured, not stored: time x.clone().detach() and x.detach().clone() at {size} elements "
                        "on your device (tensorlab measure), and the choice that says what you find is right",
                        "저장된 답이 없고 재어서 정합니다. 여러분의 장치에서 원소 {size}개로 x.clone().detach()와 "
                        "x.detach().clone()의 시간을 재 보고(tensorlab measure), 잰 결과를 말하는 선택지가 정답입니다"),
    "export.exported": ("Exported from the TensorLab lesson {lesson}", "TensorLab 레슨에서 내보냄: {lesson}"),
    "export.not_run": ("TensorLab did not run this step ({type}: {text})",
                       "TensorLab이 이 단계를 실행하지 않았습니다({type}: {text})"),
    "export.raised": ("In TensorLab this step raised {type}; the script goes on.",
                      "TensorLab에서 이 단계는 {type:를} 발생시켰습니다. 스크립트는 계속됩니다."),
    "export.seed_note": ("The seed TensorLab uses, so random numbers are the same as in the app.",
                         "TensorLab이 쓰는 시드입니다. 그래서 난수가 앱에서와 같습니다."),
    "export.device_note": ("TensorLab ran these steps on this device: new tensors are made there.",
                           "TensorLab은 이 단계들을 이 장치에서 실행했습니다. 새 텐서는 그 장치에 만들어집니다."),
    # -- export of an opened .py/notebook: its refused statements written commented (issue #21, h21e) -----
    "export.file_refused": ("not run in TensorLab: {reason}", "TensorLab에서 실행하지 않았습니다: {reason}"),
    # -- export: refused statements and the check of the written file (issue #15, class 1) -------------
    "export.not_run_rest": ("TensorLab refused this line and did not run the rest of this step ({type}: {text})",
                            "TensorLab이 이 줄을 거부해 이 단계의 나머지를 실행하지 않았습니다({type}: {text})"),
    "export.after_partial": ("Not run here: TensorLab refused step {step} after part of it had run, so from there "
                             "on this script would not hold the state TensorLab showed",
                             "여기서는 실행하지 않습니다. TensorLab이 {step}단계의 일부를 실행한 뒤 거부했으므로, "
                             "그 뒤로는 이 스크립트의 상태가 TensorLab이 보여 준 상태와 같지 않습니다"),
    "export.not_compiled": ("Python cannot compile this step ({detail}): TensorLab ran it, the script does not",
                            "Python이 이 단계를 컴파일할 수 없습니다({detail}). TensorLab은 실행했지만 스크립트는 "
                            "실행하지 않습니다"),
    "export.refused": ("TensorLab did not write the export: {detail}",
                       "TensorLab이 내보내기 파일을 쓰지 않았습니다. {detail}"),
    "export.refused_compile": ("the file it made does not compile ({detail})",
                               "만든 파일이 컴파일되지 않습니다({detail})"),
    "export.refused_scaffold": ("the file it made does not start with its own imports and seed",
                                "만든 파일이 TensorLab 자신의 가져오기 문과 시드로 시작하지 않습니다"),
    "export.refused_subset": ("the file it made holds code outside the TensorLab subset ({detail})",
                              "만든 파일에 TensorLab 코드 범위 밖의 코드가 있습니다({detail})"),
    # -- pictures of the window (ui/window/offscreen.py) -------------------------------------------------
    "picture.size_format": ("--size must be WIDTHxHEIGHT, like 1280x720, not `{text}`",
                            "--size는 1280x720처럼 너비x높이여야 합니다({text:`은} 안 됩니다)"),
    "picture.size_range": ("--size {text} is outside {low}x{low} to {high}x{high}",
                           "--size {text:은} {low}x{low}에서 {high}x{high} 사이가 아닙니다"),
    "picture.step_range": ("--step {step} is outside this lesson: 0 (before the first step) to {total}",
                           "--step {step:은} 이 레슨 밖입니다. 0(첫 단계 전)부터 {total}까지입니다"),
    # -- the engine (protocol/engine_api.py, engine/process_engine.py, lessons/play_through.py) ---------
    "engine.restarted": ("{reason}; the session was restarted at step {position}",
                         "{reason}. 세션을 {position}단계에서 다시 시작했습니다"),
    "engine.no_answer": ("it stopped answering", "워커가 응답하지 않았습니다"),
    "engine.killed": ("the worker was killed ({signal}; most often the system ran out of memory)",
                      "워커가 강제로 종료되었습니다({signal}. 대개 시스템 메모리가 부족한 경우입니다)"),
    "engine.crashed": ("PyTorch crashed ({signal})", "PyTorch가 비정상 종료되었습니다({signal})"),
    "engine.exited": ("the worker exited with status {status}", "워커가 종료 상태 {status}로 끝났습니다"),
    "engine.signal": ("signal {number}", "시그널 {number}"),
    "engine.stopped": ("the step was stopped (it did not finish in time after Esc)",
                       "단계를 멈췄습니다(Esc를 누른 뒤 제때 끝나지 않았습니다)"),
    "engine.timeout": ("the step ran longer than {seconds} s and was stopped",
                       "단계가 {seconds}초보다 오래 실행되어 멈췄습니다"),
    # -- a step stopped by the time limit inside its loop (issue #16: say which iteration) -------------------
    "engine.timeout_in_loop": ("the step ran longer than {seconds} s and was stopped in iteration {iteration} of "
                               "{count} of its loop",
                               "단계가 {seconds}초보다 오래 실행되어 반복문의 {count}번 중 {iteration}번째 반복에서 "
                               "멈췄습니다"),
    "engine.timeout_at_iteration": ("the step ran longer than {seconds} s and was stopped in iteration {iteration} "
                                    "of its loop",
                                    "단계가 {seconds}초보다 오래 실행되어 반복문의 {iteration}번째 반복에서 "
                                    "멈췄습니다"),
    "engine.time_limit": ("not run: the run's time limit of {seconds} s was reached",
                          "실행하지 않음: 실행 시간 한도 {seconds}초에 도달했습니다"),
    "engine.not_checked": ("ran, but not checked again: the run's time limit of {seconds} s was reached while "
                           "the run was replayed after a later step stopped the worker",
                           "실행은 되었지만 다시 검사하지 못함: 뒤 단계가 워커를 멈춘 뒤 다시 실행하는 동안 "
                           "실행 시간 한도 {seconds}초에 도달했습니다"),
    # -- the window's saved layout (issue 17, docked tools) -----------------------------------------------
    "window.layout_reset": ("The panels changed since this layout was saved: they are back in their first places "
                            "(View → Reset layout does the same).",
                            "이 배치를 저장한 뒤로 패널이 바뀌어 패널을 처음 자리로 되돌렸습니다"
                            "(보기 → 배치 초기화와 같습니다)."),
    # -- bounded commands (issue 15): a step of a fresh run (check, export) that stopped the worker --------
    "engine.step_lost": ("the worker stopped on this step: {reason}", "워커가 이 단계에서 멈췄습니다: {reason}"),
    # -- bounded commands (issue 15): kept history trimmed to its share of the memory budget -----------
    "history.trimmed": ("a long run: to stay within the memory budget, the values of steps 1 to {step} are no "
                        "longer kept in memory (going back to one of them runs the steps again to show them)",
                        "긴 실행입니다: 메모리 한도를 넘지 않도록 1단계부터 {step}단계까지의 값은 더 이상 메모리에 "
                        "두지 않습니다(그 단계로 돌아가면 단계를 다시 실행해 값을 보여 줍니다)"),
    "engine.stopped_worker": ("the worker was stopped", "워커가 멈춰 있었습니다"),
    "engine.device_gone": ("the device is not available", "그 장치를 쓸 수 없습니다"),
    "engine.closed": ("the engine was closed", "엔진이 닫혔습니다"),
    "engine.no_start": ("the worker process could not start", "워커 프로세스를 시작할 수 없습니다"),
    "engine.no_start_detail": ("the worker could not start:\n{detail}", "워커를 시작할 수 없습니다:\n{detail}"),
    "engine.no_start_reason": ("the worker process could not start: {detail}",
                               "워커 프로세스를 시작할 수 없습니다: “{detail}”"),
    "engine.unknown_job": ("TensorLab's worker has no job named `{name}`",
                           "TensorLab의 워커에는 그런 작업이 없습니다: `{name}`"),
    "wire.refused_class": ("refused to read `{name}` from the worker (only TensorLab's own data may cross)",
                           "워커가 보낸 {name:`을} 읽지 않았습니다(TensorLab의 데이터만 주고받을 수 있습니다)"),
    "wire.unknown_reference": ("the worker referred to facts it never sent ({reference})",
                               "워커가 보낸 적 없는 정보를 가리켰습니다({reference})"),
    "wire.bad_facts": ("the worker sent something else as a tensor's facts",
                       "워커가 텐서 정보 자리에 다른 것을 보냈습니다"),
    "wire.unreadable": ("could not read a message from the worker: “{detail}”",
                        "워커가 보낸 메시지를 읽을 수 없습니다: “{detail}”"),
    "engine.internal": ("TensorLab's worker hit an internal error:\n{detail}",
                        "TensorLab의 워커에서 내부 오류가 발생했습니다:\n{detail}"),
    "engine.bad_device": ("`{name}` is not a device name (try cpu, cuda:0 or mps)",
                          "{name:`은} 장치 이름이 아닙니다(cpu, cuda:0, mps 중 하나를 쓰세요)"),
    "engine.no_device": ("device `{name}` is not available here; this machine has: {present}",
                         "이 컴퓨터에는 {name:`이} 없습니다. 있는 장치: {present}"),
    # -- protocol/measure_results.py -----------------------------------------------------------------------
    # -- the tables of `tensorlab measure` and `tensorlab copies` (tools/tables.py) ---------------------
    "cli.measuring": ("measuring {done}/{total}…", "측정 중 {done}/{total}…"),
    # a lesson's measured question, after `tensorlab run`'s transcript (issue 18, h18c)
    "cli.measured": ("step {step}, measured question ({size} elements, on {device}): {verdict}; the answer is "
                     "choice {choice}: {text}",
                     "{step}단계의 측정 질문(원소 {size}개, {device}): {verdict}. "
                     "정답은 {choice}번 선택지입니다: {text}"),
    "cli.measured_none": ("step {step}, measured question ({size} elements): the measurement gave no verdict, so "
                          "the question has no answer in this run",
                          "{step}단계의 측정 질문(원소 {size}개): 측정으로 판정을 내리지 못해 이번 실행에서는 정답이 "
                          "없습니다"),
    "cli.measured_skipped": ("step {step}, measured question ({size} elements): not timed (--no-measure), so its "
                             "answer is not known",
                             "{step}단계의 측정 질문(원소 {size}개): 시간을 재지 않았으므로(--no-measure) 정답을 알 수 "
                             "없습니다"),
    "table.device": ("device: {device}", "장치: {device}"),
    "table.machine": ("device: {device} ({name}), torch {torch}, threads: {threads}",
                      "장치: {device}({name}), torch {torch}, 스레드 {threads}개"),
    "table.method": ("method", "방법"),
    "table.elements": ("elements", "원소 수"),
    "table.median": ("median", "중앙값"),
    "table.iqr": ("IQR", "사분위 범위"),
    "table.runs": ("runs", "측정 블록 수"),
    "table.verdicts": ("clone().detach() / detach().clone(), median ratio and the ratio of the quartiles crosswise "
                       "(q1/q3 to q3/q1):", "clone().detach() / detach().clone(): 중앙값의 비, 그리고 사분위수를 "
                                           "엇갈려 나눈 비(q1/q3에서 q3/q1까지):"),
    "table.at_size": ("{size} elements, requires_grad={grad}", "원소 {size}개, requires_grad={grad}"),
    "table.skipped": ("skipped: {note}", "건너뜀: {note}"),
    # -- #17 measure noise flag (protocol/measure_results.py: noise) --
    "measure.noise_spread": ("`{method}` at {size} elements, requires_grad={grad}: its timings spread too widely to "
                             "trust (IQR/median {ratio}, over {limit}): likely noise, measure again",
                             "`{method}`, 원소 {size}개, requires_grad={grad}: 측정값이 너무 넓게 흩어져 "
                             "믿기 어렵습니다(사분위 범위/중앙값 {ratio}, {limit} 초과). "
                             "잡음일 가능성이 크니 다시 측정하세요"),
    "measure.noise_off_line": ("`{method}` at {size} elements, requires_grad={grad}: {ratio}× off the log-log line "
                               "through its neighbouring sizes (over {limit}×): likely noise, measure again",
                               "`{method}`, 원소 {size}개, requires_grad={grad}: 이웃한 크기들을 잇는 "
                               "로그-로그 직선에서 {ratio}배 벗어났습니다({limit}배 초과). "
                               "잡음일 가능성이 크니 다시 측정하세요"),
    "table.noise": ("likely noise (marked ! above):", "잡음일 가능성이 큰 결과(위에서 !로 표시):"),
    "measure.skipped_transpose": ("t().contiguous() at {size:,} elements: {size:,} has no 2-D shape with two rows "
                                  "or more, so x.t() would already be contiguous",
                                  "원소 {size:,}개에서는 `t().contiguous()`를 재지 않았습니다. {size:,}에는 행이 "
                                  "둘 이상인 2차원 모양이 없어서 `x.t()`가 이미 연속(contiguous)이기 때문입니다"),
    "table.x": ("x: {kind}", "x: {kind}"),
    "cli.bad_options": ("error: {detail}", "옵션을 쓸 수 없습니다: “{detail}”"),
    "cli.bad_seconds": ("`{text}` is not a time limit: give seconds over 0, at most {limit:,}",
                        "{text:`은} 시간 한도가 아닙니다. 0보다 크고 {limit:,} 이하인 초를 쓰세요"),
    # The tensors table's columns that are words (lessons/tensor_rows.py; the window and the transcript).
    "table.column.name": ("name", "이름"),
    "table.column.shape": ("shape", "모양"),
    "table.column.device": ("device", "장치"),
    "table.column.version": ("version", "버전"),
    "table.column.storage": ("storage", "저장소"),
    "table.column.grad": ("grad", ".grad"),   # the attribute, written as code where a sentence is Korean
    # The copy matrix's fact columns (`tensorlab copies` and the window's Copy matrix).
    "copies.column.same_object": ("same object?", "같은 객체?"),
    "copies.column.shares_storage": ("shares storage?", "저장소 공유?"),
    "copies.column.shares_version_counter": ("shares the version counter?", "버전 카운터 공유?"),
    "copies.column.requires_grad": ("requires_grad?", "requires_grad=True?"),
    "copies.column.is_leaf": ("is_leaf?", "리프 텐서?"),
    "copies.column.grad_fn": ("grad_fn", "grad_fn"),
    "copies.column.grad_flows": ("gradient flows back to x?", "x로 기울기가 흐르나?"),
    "copies.column.warns": ("warns?", "경고?"),
    "copies.column.raises": ("raises?", "오류?"),
    "table.leaf": ("leaf", "리프 텐서"),
    "table.non_leaf": ("non-leaf", "리프 텐서가 아님"),
    "table.yes": ("yes", "예"),
    "table.no": ("no", "아니요"),
    "verdict.same": ("no measurable difference: clone().detach() / detach().clone() = {ratio} ({low}–{high} from "
                     "the quartiles)", "측정으로 드러나는 차이가 없습니다: clone().detach() / detach().clone() = "
                                       "{ratio}(사분위수로는 {low}–{high})"),
    "verdict.slower": ("detach().clone() is faster: clone().detach() takes {ratio}× as long ({low}–{high} from "
                       "the quartiles)", "detach().clone()이 더 빠릅니다: clone().detach()는 {ratio}배 오래 걸립니다"
                                        "(사분위수로는 {low}–{high})"),
    "verdict.faster": ("clone().detach() is faster: it takes {ratio}× as long as detach().clone() ({low}–{high} "
                       "from the quartiles)", "clone().detach()가 더 빠릅니다: detach().clone()의 {ratio}배만 "
                                            "걸립니다(사분위수로는 {low}–{high})"),
    "measure.unknown": ("unknown measure parameter(s): {names}", "알 수 없는 측정 매개변수: {names}"),
    "measure.method": ("`{method}` is not a method TensorLab measures ({methods})",
                       "{method:`은} TensorLab이 측정하는 방법이 아닙니다({methods})"),
    "measure.no_method": ("pick at least one method to measure", "측정할 방법을 하나 이상 고르세요"),
    "measure.no_size": ("pick at least one size to measure", "측정할 크기를 하나 이상 고르세요"),
    "measure.sizes": ("sizes must be whole numbers of elements from {low} to {high:,}, not {value}",
                      "크기는 원소 {low}개부터 {high:,}개까지의 정수여야 합니다({value:은} 안 됩니다)"),
    "measure.grads": ("requires_grad must be a non-empty list of true/false",
                      "requires_grad에는 true/false를 하나 이상 담은 리스트를 쓰세요"),
    "measure.run_time": ("min_run_time must be {low} to {high} seconds, not {value}",
                         "min_run_time은 {low}초에서 {high}초 사이여야 합니다({value:은} 안 됩니다)"),
    "measure.rounds": ("rounds must be a whole number from 1 to {high}, not {value}",
                       "`rounds`는 1부터 {high}까지의 정수여야 합니다({value:은} 안 됩니다)"),
    # -- the headless commands (cli/) -------------------------------------------------------------------------
    "cli.stopped": ("stopped", "멈췄습니다"),
    "cli.sizes": ("--sizes must be whole numbers: {detail}", "--sizes에는 정수를 쓰세요: “{detail}”"),
    "cli.screenshots_failed": ("could not write the screenshots: {detail}", "스크린숏을 쓸 수 없습니다: “{detail}”"),
    "cli.screenshots_saved": ("saved {count} screenshots in {path}", "스크린숏 {count}장을 {path}에 저장했습니다"),
    "cli.saved": ("saved {path}", "{path}에 저장했습니다"),
    "cli.lesson_steps": ("{count} steps", "{count}단계"),
    # -- the launcher (gui/launch.py) -------------------------------------------------------------------
    "launch.no_command": ("no command `{command}`; the commands are {commands} (`tensorlab --help` says what each "
                          "does)", "`{command}` 명령은 없습니다. 명령은 {commands}입니다(`tensorlab --help`가 "
                                    "각각 무엇을 하는지 알려 줍니다)"),
    "launch.window_option": ("{options} is an option of the window, not of `{command}`; see `tensorlab {command} "
                             "--help` for its own", "{options:`는} 창의 옵션이지 `{command}`의 옵션이 아닙니다. "
                                                   "`tensorlab {command} --help`에서 그 명령의 옵션을 보세요"),
    "launch.step_negative": ("--step must be 0 (before the first step) or more, not {step}",
                             "--step은 0(첫 단계 전) 이상이어야 합니다({step:은} 안 됩니다)"),
    "launch.cannot_write": ("could not write {path}: {detail}", "`{path}`에 쓸 수 없습니다: “{detail}”"),
    "cli.export_failed": ("could not write the export: {detail}", "내보낸 파일을 쓸 수 없습니다: “{detail}”"),
    # -- h15 (issue #15 leftovers): exported scripts print any string; saved work merged per step ----------
    "export.print_note": ("Print every character, even one the terminal cannot encode (written as its escape).",
                          "터미널이 인코딩할 수 없는 문자도 출력합니다(이스케이프로 씁니다)."),
    # -- h17h (issue #17, review r17 item 5): the map follows one tensor and says which others the step changed --
    "follow.more_changed": ("+{count} more changed: {names}", "이 단계에서 {count}개가 더 바뀌었습니다: {names}"),
    "follow.more_names": ("{names}, …", "{names} 등"),
    "follow.grad_now_none": ("{name} (now None)", "{name}(이제 None)"),
}

CODE_ONLY = frozenset({"text.verbatim", "text.lesson_text", "explain.paragraph", "table.x", "copies.column.grad_fn",
                       "copies.column.requires_grad", "table.column.grad"})
