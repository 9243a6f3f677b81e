"""Texts: the limits TensorLab enforces before anything runs (protocol/limits.py, sandbox/guard*.py, estimates.py).

``{what}`` is one of the ``limit.what.*`` subjects (or code, ``limit.what.code``). Registered in
:mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # -- for loops (issue #16, h16b) --------------------------------------------------------------------
    "limit.loop_iterations": ("this loop would run {count} iterations; TensorLab allows at most {limit:,} in one loop",
                              "이 반복문은 {count}번 반복합니다. TensorLab은 반복문 하나에 최대 {limit:,}번까지 "
                              "허용합니다"),
    # -- a loop that runs past the limit (issue #16, h16c) --
    "limit.loop_ran_over": ("stopped at iteration {iteration}: TensorLab allows at most {limit:,} iterations in one "
                            "loop (the body keeps giving the loop more to read)",
                            "{iteration}번째 반복에서 멈췄습니다. TensorLab은 반복문 하나에 최대 {limit:,}번까지 "
                            "허용합니다(본문이 반복할 항목을 계속 늘립니다)"),
    "limit.loop_cost": ("stopped before iteration {iteration} of {count}: at the cost of the iterations so far, "
                        "the loop would need about {cost} element-operations; TensorLab allows {limit} per step",
                        "{count}번 중 {iteration}번째 반복 전에 멈췄습니다. 지금까지의 반복 비용으로 보면 "
                        "이 반복문에는 원소 연산이 약 {cost}번 필요합니다. "
                        "TensorLab은 한 단계에 {limit}번까지 허용합니다"),
    "size.bytes": ("{count} bytes", "{count}바이트"),
    "limit.count_about": ("about 10^{exponent}", "약 10^{exponent}"),
    "limit.elements": ("{what} would have {count} elements; TensorLab allows at most {limit:,} per tensor",
                       "{what}의 원소가 {count}개가 됩니다. TensorLab은 텐서 하나에 원소를 최대 {limit:,}개까지 "
                       "허용합니다"),
    "limit.power": ("this power is too large a number for TensorLab",
                    "이 거듭제곱은 TensorLab이 다루기에 너무 큰 수입니다"),
    "limit.product": ("this product is too large a number for TensorLab",
                      "이 곱은 TensorLab이 다루기에 너무 큰 수입니다"),
    "limit.sequence": ("this would build a sequence of {count} items; TensorLab allows at most {limit:,}",
                       "항목이 {count}개인 시퀀스가 만들어집니다. TensorLab은 최대 {limit:,}개까지 허용합니다"),
    "limit.format_star": ("`*` widths in a % format are not available in TensorLab",
                          "TensorLab에서는 % 서식에 `*` 너비를 쓸 수 없습니다"),
    "limit.format_width": ("a % format width of {width} is larger than TensorLab allows ({limit:,})",
                           "% 서식의 너비 {width:은} TensorLab이 허용하는 것보다 큽니다(최대 {limit:,})"),
    "limit.format_length": ("this % format could build a string of about {count} characters; "
                            "TensorLab allows at most {limit:,}",
                            "이 % 서식은 약 {count}자의 문자열을 만들 수 있습니다. TensorLab은 최대 {limit:,}자까지 "
                            "허용합니다"),
    "limit.cost": ("this step would do about {cost} element-operations; TensorLab allows at most {limit} per step "
                   "(a `with` block counts as one step)",
                   "이 단계는 원소 연산을 약 {cost}번 하게 됩니다. TensorLab은 단계 하나에 최대 {limit}번까지 "
                   "허용합니다(`with` 블록은 한 단계로 셉니다)"),
    "limit.memory": ("{what} needs {size}, and the session already holds {held}; its memory budget is {budget} "
                     "(TensorLab allows at most that much; free some names or set a larger limit in Preferences "
                     "or with --memory-limit)",
                     "{what}에 {size:이} 필요한데 세션이 이미 {held:을} 사용하고 있습니다. 메모리 한도는 "
                     "{budget}입니다. 이름을 몇 개 지우거나 환경설정 또는 `--memory-limit` 옵션으로 한도를 늘리세요"),
    "limit.dims": ("this tensor would have {count:,} dimensions; TensorLab allows at most {limit}",
                   "이 텐서의 차원이 {count:,}개가 됩니다. TensorLab은 최대 {limit}개까지 허용합니다"),
    "limit.empty_lists": ("this empty tensor has dimensions of {count} before its zero-size one (listing it would "
                          "make that many Python lists); TensorLab allows at most {limit:,}",
                          "이 빈 텐서는 크기가 0인 차원 앞의 차원 크기가 {count}입니다(리스트로 바꾸면 Python "
                          "리스트가 그만큼 생깁니다). TensorLab은 최대 {limit:,}개까지 허용합니다"),
    "limit.hook": ("register_hook takes only print, len or id in TensorLab "
                   "(a hook that runs tensor methods could call backward() inside backward())",
                   "TensorLab에서 register_hook에는 `print`, `len`, `id`만 넘길 수 있습니다"
                   "(텐서 메서드를 실행하는 훅은 backward() 안에서 backward()를 호출할 수 있습니다)"),
    "limit.views": (".{name}(...) would return {count} tensors; TensorLab allows at most {limit:,}",
                    "`.{name}(...)` 호출이 텐서를 {count}개 반환하게 됩니다. "
                    "TensorLab은 최대 {limit:,}개까지 허용합니다"),
    "limit.tolist": (".tolist() would make {count} Python numbers; TensorLab allows at most {limit:,}",
                     "`.tolist()`가 Python 숫자를 {count}개 만들게 됩니다. TensorLab은 최대 {limit:,}개까지 "
                     "허용합니다"),
    "limit.deepcopy": ("copy.deepcopy(...) would copy more than {limit:,} objects; TensorLab allows at most that many",
                       "`copy.deepcopy(...)`가 객체를 {limit:,}개보다 많이 복사하게 됩니다. TensorLab은 그만큼까지만 "
                       "허용합니다"),
    "limit.cycle": ("{what} contains itself (a cycle); torch would recurse until it crashes, so TensorLab refuses it",
                    "{what:이} 자기 자신을 담고 있습니다(순환). torch가 멈출 때까지 재귀하므로 TensorLab이 "
                    "거부합니다"),
    "limit.nesting": ("{what} is nested more than {limit} levels deep; TensorLab refuses it before torch sees it",
                      "{what:이} {limit}단계보다 깊게 중첩되어 있습니다. torch가 보기 전에 TensorLab이 거부합니다"),
    "limit.leaves": ("{what} holds more than {limit:,} items (counting nested lists); TensorLab refuses it",
                     "{what}에 항목이 {limit:,}개보다 많습니다(중첩된 리스트까지 셉니다). TensorLab이 거부합니다"),
    "limit.memory_size": ("the memory limit `{text}` must be a size like 2G, 500M or 1048576",
                          "메모리 한도 `{text}`에는 2G, 500M, 1048576 같은 크기를 쓰세요"),
    "limit.memory_small": ("the memory limit `{text}` is too small (at least 16M)",
                           "메모리 한도 `{text}`의 값이 너무 작습니다(최소 16M)"),
    # -- memory estimates (issue #15 class 3) ----------------------------------------------------------
    "limit.iteration": ("iterating this tensor would make {count} tensor objects (one per row, {size}); "
                        "TensorLab allows at most {limit:,}",
                        "이 텐서를 순회하면 텐서 객체가 {count}개(행마다 하나, {size}) 생깁니다. "
                        "TensorLab은 최대 {limit:,}개까지 허용합니다"),
    "limit.no_estimate": ("TensorLab has no memory estimate for {name} yet, so it does not run it",
                          "TensorLab에 아직 `{name}`의 메모리 추정 규칙이 없어서 실행하지 않습니다"),
    # -- bounded commands (issue 15): a budget this machine cannot honour -----------------------------
    "limit.memory_large": ("the memory limit `{text}` is more than this machine has ({size})",
                           "메모리 한도 `{text}`의 값이 이 컴퓨터의 메모리({size})보다 큽니다"),
    # -- what a limit is about -------------------------------------------------------------------------
    "limit.what.code": ("{code}", "`{code}`"),
    "limit.what.tensor": ("this tensor", "이 텐서"),
    "limit.what.result": ("the result", "결과"),
    "limit.what.product": ("the product", "곱"),
    "limit.what.indexing": ("the result of this indexing", "이 인덱싱의 결과"),
    "limit.what.list": ("this list", "이 리스트"),
    "limit.what.call_list": ("a list given to this call", "이 호출에 넘긴 리스트"),
    "limit.what.call_operand": ("an operand of this call", "이 호출의 피연산자"),
    "limit.what.expression_operand": ("an operand of this expression", "이 식의 피연산자"),
    "limit.what.expression_list": ("a list in this expression", "이 식의 리스트"),
    "limit.what.comparison_list": ("a list in this comparison", "이 비교의 리스트"),
    "limit.what.searched": ("the tensor searched by `in`", "`in`으로 찾는 텐서"),
    "limit.what.index_list": ("a list used as an index", "인덱스로 쓴 리스트"),
    "limit.what.assigned_list": ("the list assigned", "대입한 리스트"),
    "limit.what.gradients": ("computing the gradients of this backward()", "이 backward()의 기울기"),
    "limit.what.data_given": ("the data given to {what}", "{what}에 넘긴 데이터"),
    "limit.what.sequence": ("this sequence", "이 시퀀스"),
    "limit.what.string": ("this string", "이 문자열"),
    "limit.what.slice": ("this slice", "이 슬라이스"),
    # -- the training step (issue #16: core/sandbox/nn_rules.py) ----------------------------------------
    # h16c: each parameter and buffer is one tensor under the per-tensor limit (their sum is memory)
    "limit.what.module_tensor": ("the `{name}` of `{code}`", "`{code}`의 `{name}`"),
    "limit.what.optimizer_state": ("the optimizer's state (momentum buffers, Adam's moments) with the "
                                   "temporaries its step computes in",
                                   "옵티마이저 상태(모멘텀 버퍼, `Adam`의 모멘트)와 그 단계가 계산에 쓰는 임시 텐서"),
    "limit.module_nesting": ("this module would nest {depth} deep with {paths} submodules along every path "
                             "(a module listed twice counts twice); TensorLab allows at most {depth_limit} deep "
                             "and {paths_limit:,} submodules",
                             "이 모듈은 {depth}단계로 중첩되고 모든 경로를 따라 하위 모듈이 {paths}개가 됩니다"
                             "(두 번 넣은 모듈은 두 번 셉니다). TensorLab은 {depth_limit}단계, 하위 모듈 "
                             "{paths_limit:,}개까지만 허용합니다"),
    "limit.load_state_dict": ("load_state_dict takes a dict of tensors with string keys in TensorLab "
                              "(such as the one state_dict() returns)",
                              "TensorLab에서 load_state_dict에는 문자열 키와 텐서 값으로 된 딕셔너리만 넘길 수 "
                              "있습니다(`state_dict()`가 반환하는 것처럼)"),
    "limit.optimizer_flag": ("the optimizer's param group sets `{flag}`, which TensorLab does not run: "
                             "set it back to None or False",
                             "옵티마이저의 매개변수 그룹에 TensorLab이 실행하지 않는 {flag:`이} 설정되어 "
                             "있습니다. None이나 False로 되돌리세요"),
}

CODE_ONLY = frozenset({"limit.what.code"})
