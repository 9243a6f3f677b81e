"""Texts: what the lesson checks find (checks/findings.py, lesson_checks.py, note_facts.py, choice_claims.py).

``finding.<kind>`` is the sentence of one :class:`~tensorlab.core.checks.findings.FindingKind`;
its ``{detail}`` is one of the ``check.*`` or ``fact.*`` messages. A fact is said in the
report's language (``fact.claim.*``), whatever language the lesson file wrote it in.
Registered in :mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "finding.at_step": ("step {step}: {text}", "{step}단계: {text}"),
    # -- one sentence per finding kind --------------------------------------------------------------------
    "finding.no_check": ("the question has no `check`, so TensorLab cannot derive its answer from torch",
                         "질문에 `check`가 없어서 TensorLab이 torch에서 답을 끌어낼 수 없습니다"),
    "finding.check": ("{detail}", "{detail}"),
    "finding.not_comparable": ("choice {choice} (“{detail}”) cannot be compared with what the check reads",
                               "{choice}번 선택지(“{detail}”)는 `check`가 읽은 값과 비교할 수 없습니다"),
    "finding.none_true": ("no choice is true: the check reads {detail}",
                          "맞는 선택지가 없습니다. `check`가 읽은 값: {detail}"),
    "finding.several_true": ("choices {choice} are all true (the check reads {detail}): exactly one must be",
                             "{choice}번 선택지가 모두 맞습니다(`check`가 읽은 값: {detail}). 맞는 선택지는 하나여야 "
                             "합니다"),
    "finding.wrong_answer": ("choice {choice} is the true one (the check reads {detail}), but `answer` marks choice "
                             "{answer}",
                             "맞는 선택지는 {choice}번인데(`check`가 읽은 값: {detail}) `answer`는 {answer}번 선택지를 "
                             "가리킵니다"),
    "finding.visible": ("the answer is on screen before the class predicts: {detail}",
                        "학생들이 예측하기 전에 답이 이미 화면에 보입니다: {detail}"),
    "finding.translation": ("choice {choice} claims something else in translation ({detail})",
                            "{choice}번 선택지가 번역에서 다른 것을 주장합니다({detail})"),
    "finding.fact": ("{detail}", "{detail}"),
    "finding.note": ("{detail}", "{detail}"),
    "finding.no_facts": ("the note speaks of leaves, versions or storage but the step lists no `facts` to check it",
                         "설명이 리프 텐서, 버전, 저장소를 말하지만 이를 확인할 `facts`가 단계에 없습니다"),
    "finding.quote": ("the text quoted from torch (“{detail}”) is not what this torch printed in the lesson",
                      "torch에서 인용한 문장(“{detail}”)이 이 레슨에서 지금 torch가 출력한 것과 다릅니다"),
    # -- bounded commands (issue 15): a step the check could not run -------------------------------------
    "finding.not_run": ("not run, so its question and notes were not checked: {detail}",
                        "실행되지 않아 질문과 설명을 확인하지 못했습니다: {detail}"),
    "finding.not_checked": ("its question and notes were not checked: {detail}",
                            "질문과 설명을 확인하지 못했습니다: {detail}"),
    # -- the texts' own rules (issue 18, checks/text_rules.py) -------------------------------------------
    "finding.long_answer": ("in `{key}`, the right choice is over 1.5 times as long as every other choice: "
                            "its length gives the answer away",
                            "`{key}`에서 맞는 선택지가 다른 모든 선택지보다 1.5배 넘게 깁니다. "
                            "길이만 보고도 답을 알 수 있습니다"),
    "finding.always_longest": ("in `{key}`, the right choice is the longest in every question of the lesson",
                               "`{key}`에서 이 레슨의 모든 질문마다 맞는 선택지가 가장 깁니다"),
    "finding.course_longest": ("in `{key}`, the right choice is the longest in {count} of the course's {total} "
                               "questions: at most a third may be",
                               "`{key}`에서 코스 전체 질문 {total}개 가운데 {count}개에서 맞는 선택지가 가장 깁니다. "
                               "3분의 1을 넘으면 안 됩니다"),
    # issue 18, h18e: the length cue reversed, and error questions whose form tells that the step raises
    "finding.short_answer": ("in `{key}`, the right choice is under 2/3 as long as every other choice: "
                             "its shortness gives the answer away",
                             "`{key}`에서 맞는 선택지가 다른 모든 선택지 길이의 3분의 2에 못 미칩니다. "
                             "짧다는 것만 보고도 답을 알 수 있습니다"),
    "finding.always_shortest": ("in `{key}`, the right choice is the shortest in every question of the lesson",
                                "`{key}`에서 이 레슨의 모든 질문마다 맞는 선택지가 가장 짧습니다"),
    "finding.course_shortest": ("in `{key}`, the right choice is the shortest in {count} of the course's {total} "
                                "questions: at most a third may be",
                                "`{key}`에서 코스 전체 질문 {total}개 가운데 {count}개에서 맞는 선택지가 가장 "
                                "짧습니다. 3분의 1을 넘으면 안 됩니다"),
    "finding.course_no_error": ("\"no error\" is the right answer in only {count} of the course's {total} error "
                                "and warning questions: at least a fifth must be, or the question's form tells "
                                "that the step raises",
                                "코스 전체의 오류·경고 질문 {total}개 가운데 \"오류 없음\"이 답인 질문은 "
                                "{count}개입니다. 5분의 1 이상이어야 질문의 형식만 보고 오류가 난다고 짐작하지 "
                                "않습니다"),
    "finding.error_choices": ("an error or warning question needs at least two choices that claim an error or a "
                              "warning of a type torch raises (it has {count})",
                              "오류나 경고를 묻는 질문에는 torch가 발생시키는 종류의 오류나 경고를 주장하는 선택지가 "
                              "두 개 이상 있어야 합니다(지금은 {count}개)"),
    "finding.only_quote": ("choice {choice}, the right one, is the only choice that quotes torch's message",
                           "맞는 선택지인 {choice}번만 torch의 메시지를 인용합니다"),
    # fresh review helpers 153, 154, 156: the right choice the only one without a reason (or with one)
    "finding.only_bare": ("choice {choice}, the right one, is the only choice that gives no reason after “ — ”, "
                          "which gives it away: give it a reason too, or drop the others'",
                          "맞는 선택지인 {choice}번만 “ — ” 뒤에 이유가 없어 답이 드러납니다. 이 선택지에도 "
                          "이유를 쓰거나, 다른 선택지의 이유를 지우세요"),
    "finding.same_claim": ("choices {choice} and {answer} claim the same (“{detail}”): at most one choice can be "
                           "right, so a class rules both out without knowing torch; give each choice an outcome of "
                           "its own",
                           "{choice}번과 {answer}번 선택지가 같은 것(“{detail}”)을 주장합니다. 맞는 선택지는 "
                           "하나뿐이므로 torch를 몰라도 둘 다 지울 수 있습니다. 선택지마다 다른 결과를 쓰세요"),
    "finding.only_reasoned": ("choice {choice}, the right one, is the only choice that gives a reason after “ — ”, "
                              "which gives it away: give the others a reason too, or drop its",
                              "맞는 선택지인 {choice}번만 “ — ” 뒤에 이유가 있어 답이 드러납니다. 다른 선택지에도 "
                              "이유를 쓰거나, 이 선택지의 이유를 지우세요"),
    # issue 18, h18c: "no error" as the odd one out (a second such choice would be true as well)
    "finding.only_no_error": ("choice {choice}, the right one, is the only choice that claims no error (or no "
                              "warning), which gives it away: offer two `no error: <condition>` choices (`no error: "
                              "x._version == 1`; in a warning question `no warning: <condition>`), or ask what the "
                              "step leaves (a value, a grad_fn)",
                              "맞는 선택지인 {choice}번만 오류나 경고가 없다고 하므로 답이 드러납니다. "
                              "`오류 없음: <조건>` 선택지를 두 개 두거나(`오류 없음: x._version == 1`, 경고 질문에서는 "
                              "`경고 없음: <조건>`), "
                              "그 단계가 남기는 것(값, grad_fn)을 물으세요"),
    # issue 18, h18n: error forms in value questions
    "finding.lone_error_form": ("choice {choice} is the only choice that claims an error or a warning in a question "
                                "that asks for a value: a class drops it as a filler (or, where it is right, picks "
                                "the odd one out); offer a value a student believes instead, or a second error",
                                "값을 묻는 질문에서 오류나 경고를 주장하는 선택지가 {choice}번 하나뿐입니다. "
                                "학생은 이를 채우기용 선택지로 보고 지우거나, 맞는 답일 때는 혼자 다른 형식이라 "
                                "고릅니다. 학생이 믿을 만한 값을 대신 두거나 오류 선택지를 하나 더 두세요"),
    "finding.course_value_error": ("an error is the right answer in only {count} of the course's {total} value "
                                   "questions that offer one: at least half must be, or an error choice in a value "
                                   "question is a filler the class drops without predicting",
                                   "코스에서 오류 선택지가 있는 값 질문 {total}개 가운데 오류가 답인 질문은 "
                                   "{count}개입니다. 절반 이상이어야 학생이 예측하지 않고 오류 선택지를 지우지 "
                                   "않습니다"),
    "finding.banned_ko": ("the Korean text writes “{detail}”, which the glossary never writes (write: {instead})",
                          "한국어 문장에 용어집이 금지한 표현이 있습니다: “{detail}”(대신: {instead})"),
    "finding.gloss_ko": ("the Korean text uses “{detail}” before glossing it as “{instead}” in this lesson",
                         "이 레슨에서 처음 나오는 용어 “{detail}”에 풀이가 없습니다"
                         "(처음 나올 때는 “{instead}” 형태로 씁니다)"),
    "finding.unlisted_fact": ("the note's sentence “{detail}” states a fact about `{name}` ({fact}) that the step's "
                              "`facts` do not list",
                              "설명의 문장 “{detail}”에서 `{name}`에 대한 사실({fact})을 말하지만 "
                              "단계의 `facts`에는 그 사실이 없습니다"),
    "fact.kind.leaf": ("whether it is a leaf", "리프 텐서인지"),
    "fact.kind.requires": ("whether it requires grad", "requires_grad=True인지"),
    "fact.kind.storage": ("its storage", "저장소"),
    "fact.kind.version": ("its version", "버전"),
    "fact.kind.grad_fn": ("its grad_fn", "grad_fn 값"),
    "fact.kind.grad": ("its .grad", ".grad 값"),
    # -- what a check read, and why a check cannot be used ---------------------------------------------------
    "check.value": ("{value}", "`{value}`"),
    "check.error": ("{type}: {text}", "{type}: “{text}”"),
    "check.warning": ("no error; {type}: {text}", "오류 없음. {type}: “{text}”"),
    "check.nothing": ("no error, no warning", "오류도 경고도 없음"),
    "check.translated_claim": ("{key}: {claim}", "`{key}`: {claim}"),
    "check.unreadable": ("the check `{check}` cannot be read: {reason}",
                         "`check`의 {check:`을} 읽을 수 없습니다: {reason}"),
    "check.statement": ("the check `{check}` must be an expression, not a statement",
                        "`check`의 {check:`은} 문장이 아니라 식이어야 합니다"),
    "check.refused": ("the check `{check}` is refused: {reason}", "`check`의 {check:`은} 거부됩니다: {reason}"),
    "check.changes_state": ("`{name}` would change the state; a check only reads",
                            "{name:`은} 상태를 바꿉니다. `check`는 읽기만 합니다"),
    "check.shown_field": ("the panels already show {name}'s {field} before this step",
                          "이 단계 전에 이미 패널에 `{name}`의 {field:`이} 보입니다"),
    "check.shown_values": ("the panels already show these values (in {name}) before this step",
                           "이 단계 전에 이미 패널에 이 값이 보입니다(`{name}`)"),
    "check.same_error": ("the previous step raised the same error", "앞 단계가 같은 오류를 발생시켰습니다"),
    "check.same_warnings": ("the previous step raised the same warnings", "앞 단계가 같은 경고를 발생시켰습니다"),
    "check.same_output": ("the previous step printed the same", "앞 단계가 같은 것을 출력했습니다"),
    "check.reasons": ("{first}; {rest}", "{first}. {rest}"),
    # -- answers settled before the question (issue 18, h18c: checks/settled_answers.py) -------------------------
    "check.apart_on_the_map": ("the storage map already draws `{name}` apart from the memory this step writes into "
                               "({written}), so the write cannot reach it",
                               "저장소 지도가 이미 {name:`을} 이 단계가 써 넣는 메모리({written})와 따로 그리므로, "
                               "써 넣은 값이 거기에 닿지 않는다는 것이 보입니다"),
    "check.settled_before": ("`{item}` reads only what an earlier step settled ({names}, which this step leaves as "
                             "it was): ask it on that step",
                             "{item:`은} 앞 단계에서 이미 정해진 것({names})만 읽습니다. 이 단계는 그것을 바꾸지 "
                             "않으므로, 이 질문은 그 단계에서 해야 합니다"),
    # -- facts (note_facts.py) ----------------------------------------------------------------------------------
    "fact.false": ("“{fact}” is false here", "“{fact}”는 여기서 거짓입니다"),
    "fact.unchecked": ("“{fact}” cannot be checked: {reason}", "“{fact}”는 확인할 수 없습니다: {reason}"),
    "fact.unknown": ("“{fact}” is not a fact TensorLab can check (the README's “Facts” lists the ones it can)",
                     "{fact:`은} TensorLab이 확인할 수 있는 사실이 아닙니다. 확인할 수 있는 사실은 README의 "
                     "“Facts”에 있습니다"),
    "fact.note_false": ("the note says '{fact}', which is false here", "설명에 “{fact}”라고 쓰여 있지만 여기서는 "
                                                                     "거짓입니다"),
    "fact.not_tensor": ("`{name}` is not a tensor here", "{name:`은} 여기서 텐서가 아닙니다"),
    "fact.not_bound": ("`{name}` is not bound here", "여기서 {name:`은} 어떤 값에도 묶여 있지 않습니다"),
    "fact.no_storage": ("`{name}` is not a tensor or an array over a listed storage",
                        "{name:`은} 텐서도 아니고 목록에 있는 저장소 위의 배열도 아닙니다"),
    "fact.not_numbers": ("`{text}` is not a list of numbers", "{text:`은} 숫자 목록이 아닙니다"),
    "fact.no_values": ("the values of `{name}` are not in the snapshot", "스냅샷에 `{name}`의 값이 없습니다"),
    # -- a fact, said in words ------------------------------------------------------------------------------------
    "fact.claim.leaf": ("{name} is a leaf", "{name:`은} 리프 텐서입니다"),
    "fact.claim.not_leaf": ("{name} is not a leaf", "{name:`은} 리프 텐서가 아닙니다"),
    "fact.claim.requires": ("{name} requires grad", "{name:`은} requires_grad=True인 텐서입니다"),
    "fact.claim.not_requires": ("{name} does not require grad", "{name:`은} requires_grad=True인 텐서가 아닙니다"),
    "fact.claim.version": ("{name} is at version {version}", "`{name}`의 버전 카운터는 {version}입니다"),
    "fact.claim.shares": ("{name} shares storage with {other}", "{name:`은} {other:`과} 저장소를 공유합니다"),
    "fact.claim.not_shares": ("{name} does not share storage with {other}",
                              "{name:`은} {other:`과} 저장소를 공유하지 않습니다"),
    "fact.claim.own": ("{name} has its own storage", "{name:`은} 자기만의 저장소를 가집니다"),
    "fact.claim.no_grad_fn": ("{name} has no grad_fn", "`{name}`에는 grad_fn이 없습니다"),
    "fact.claim.grad_fn": ("{name} has grad_fn {fn}", "`{name}`의 grad_fn은 `{fn}`입니다"),
    "fact.claim.grad": ("{name}.grad is {values}", "`{name}.grad`는 `{values}`입니다"),
    "fact.claim.holds": ("{name} holds {values}", "`{name}`의 값은 `{values}`입니다"),
    # -- h18d: a tensor's device (the meta device beside the CPU, in to-and-cpu-on-a-leaf) --
    "fact.claim.device": ("{name} is on {device}", "{name:`은} `{device}` 장치에 있습니다"),
}

CODE_ONLY = frozenset({"finding.check", "finding.fact", "finding.note", "check.value", "check.error", "check.reasons",
                       "check.translated_claim"})
