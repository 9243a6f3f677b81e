"""Texts: the code subset's refusals (parse, checker, interpreter) and the builders' input errors.

Keys -> (English, Korean). Korean follows docs/glossary.md; a name in backticks takes its
particle from the spec (``{name:`을}``). Registered in :mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

_CALLABLE = ("torch, nn, F and optim functions, tensor, module, optimizer and dict methods, modules, print, len, id, "
             "list and copy.deepcopy")
_CALLABLE_KO = ("torch, `nn`, `F`, `optim`의 함수, 텐서·모듈·옵티마이저·딕셔너리의 메서드, 모듈, `print`, `len`, `id`, "
                "`list`, `copy.deepcopy`")
_GRAD_MODES = "torch.no_grad(), torch.enable_grad(), torch.inference_mode()"

TEXTS: dict[str, tuple[str, str]] = {
    # -- for loops (issue #16, h16b) --------------------------------------------------------------------
    "subset.for_nested": ("a for loop inside a for loop is not available in TensorLab (one loop is one step)",
                          "TensorLab에서는 `for` 반복문 안에 `for` 반복문을 쓸 수 없습니다"
                          "(반복문 하나가 한 단계입니다)"),
    "subset.for_else": ("`else:` after a for loop is not available in TensorLab",
                        "TensorLab에서는 `for` 반복문 뒤에 `else:`를 쓸 수 없습니다"),
    "subset.for_range": ("`range` takes one to three numbers in TensorLab (`range(n)`, `range(a, b)`, "
                         "`range(a, b, step)`)",
                         "TensorLab에서 `range`에는 숫자를 한 개에서 세 개까지 씁니다(`range(n)`, `range(a, b)`, "
                         "`range(a, b, step)`)"),
    "subset.for_target": ("a for loop assigns to a name or to names (`for i in ...`, `for name, p in ...`)",
                          "`for` 반복문은 이름 하나나 여러 이름에 대입합니다(`for i in ...`, `for name, p in ...`)"),
    "subset.for_tensor": ("a for loop over the tensor `{code}` is not available in TensorLab: iterating a tensor "
                          "makes one tensor per row (`{code}.unbind()`); loop over `range({code}.shape[0])` "
                          "or a list",
                          "TensorLab에서는 텐서 {code:`을} `for` 반복문으로 순회할 수 없습니다. 텐서를 순회하면 행마다 "
                          "텐서가 하나씩 생깁니다(`{code}.unbind()`). `range({code}.shape[0])`이나 리스트를 "
                          "순회하세요"),
    "subset.for_iterable": ("a for loop over `{code}` ({type}) is not available in TensorLab: loop over "
                            "`range(...)`, a list, a tuple, a dict or a module's `parameters()`",
                            "TensorLab에서는 `for` 반복문으로 `{code}`({type})를 순회할 수 없습니다. `range(...)`, "
                            "리스트, 튜플, 딕셔너리, 모듈의 `parameters()`를 순회하세요"),
    # -- what an exported script could read differently (issue #15) -------------------------------------
    "subset.is_literal": ("`is` with a literal is not available in TensorLab: whether two equal literals are one "
                          "object depends on how Python compiled the file; compare with `==`",
                          "TensorLab에서는 리터럴에 `is`를 쓸 수 없습니다. 같은 값의 리터럴이 한 객체인지는 Python이 "
                          "파일을 어떻게 컴파일했는지에 달려 있습니다. `==`로 비교하세요"),
    "subset.type_call": ("calling `.type(...)` is not available in TensorLab (`x.device.type` is read, not "
                         "called); use `.to(dtype)`",
                         "TensorLab에서는 `.type(...)`을 호출할 수 없습니다(`x.device.type`은 읽기만 합니다). "
                         "`.to(dtype)`을 쓰세요"),
    "subset.id_of_name": ("`id()` takes one name in TensorLab (`id(x)`): the id of anything else depends on when "
                          "Python frees and shares objects",
                          "TensorLab에서 `id()`에는 이름 하나만 씁니다(`id(x)`). 다른 것의 id는 Python이 객체를 "
                          "언제 해제하고 공유하는지에 달려 있습니다"),
    # -- where: a line (and column) of the code ------------------------------------------------------
    "subset.at_line": ("line {line}: {reason}", "{line}번째 줄: {reason}"),
    "subset.at_line_col": ("line {line}, col {col}: {reason}", "{line}번째 줄, {col}번째 글자: {reason}"),
    # -- parse.py -------------------------------------------------------------------------------------
    "subset.not_text": ("code must be text", "코드는 텍스트여야 합니다"),
    "subset.nul": ("code contains a NUL character", "코드에 NUL 문자가 들어 있습니다"),
    "subset.line_too_long": ("the line is {length} characters long; TensorLab accepts at most {limit}",
                             "줄이 {length}자입니다. TensorLab은 최대 {limit}자까지 받습니다"),
    "subset.syntax": ("this is not valid Python: {detail}", "올바른 Python 코드가 아닙니다: “{detail}”"),
    "subset.too_complex": ("this cannot be parsed: it is nested too deeply (too complex for Python's parser)",
                           "이 코드는 해석할 수 없습니다. 너무 깊게 중첩되어 있어 Python 파서가 다룰 수 없습니다"),
    "subset.unparsable": ("this cannot be parsed: {detail}", "이 코드는 해석할 수 없습니다: “{detail}”"),
    "subset.no_statement": ("there is no statement here", "여기에는 문장이 없습니다"),
    "subset.one_statement": ("expected one statement, found {count} (the second starts with `{code}`)",
                             "문장이 하나여야 하는데 {count}개 있습니다(두 번째 문장은 {code:`으로} 시작합니다)"),
    "subset.undefined_name": ("`{name}` is not defined: no earlier step assigns it",
                              "{name:`이} 정의되지 않았습니다. 앞의 어느 단계도 이 이름에 대입하지 않습니다"),
    # -- subset_rules.py -------------------------------------------------------------------------------
    "subset.not_available": ("`{name}` is not available in TensorLab", "TensorLab에서는 {name:`을} 쓸 수 없습니다"),
    "subset.construct": ("{construct} is not available in TensorLab",
                         "TensorLab에서는 {construct:을} 쓸 수 없습니다"),
    "subset.too_deep": ("the expression is nested too deeply (more than {limit} levels)",
                        "식이 너무 깊게 중첩되어 있습니다({limit}단계 초과)"),
    "subset.dunder": ("`{name}`: names with double underscores are not available in TensorLab",
                      "`{name}`: 밑줄 두 개가 붙은 이름은 쓸 수 없습니다"),
    "subset.dunder_short": ("`{name}`: names with double underscores are not available",
                            "`{name}`: 밑줄 두 개가 붙은 이름은 TensorLab에서 쓸 수 없습니다"),
    "subset.reserved": ("`{name}` is reserved in TensorLab and cannot be assigned",
                        "{name:`은} TensorLab이 예약한 이름이라 대입할 수 없습니다"),
    "subset.import": ("`import {module}` is not available in TensorLab (only `import torch`, `import copy`, "
                      "`import torch.nn as nn`, `import torch.nn.functional as F`, `import torch.optim as optim`, "
                      "`from torch import nn` and `from torch import optim`)",
                      "`import {module}` 문은 쓸 수 없습니다(`import torch`, `import copy`, "
                      "`import torch.nn as nn`, `import torch.nn.functional as F`, "
                      "`import torch.optim as optim`, `from torch import nn`, `from torch import optim`만 됩니다)"),
    "subset.operator": ("the operator `{op}` is not available in TensorLab",
                        "TensorLab에서는 연산자 {op:`을} 쓸 수 없습니다"),
    "subset.augassign_target": ("only a name or an item (`x[0]`) can be updated in place with `+=`",
                                "`+=`로 인플레이스 갱신할 수 있는 것은 이름이나 항목(`x[0]`)뿐입니다"),
    "subset.with_one": (f"a `with` statement takes exactly one of {_GRAD_MODES}",
                        f"`with` 문에는 {_GRAD_MODES} 중 정확히 하나를 씁니다"),
    "subset.with_other": ("`with {context}` is not available in TensorLab: use torch.no_grad(), "
                          "torch.enable_grad() or torch.inference_mode()",
                          "`with {context}` 문은 쓸 수 없습니다. torch.no_grad(), torch.enable_grad(), "
                          "torch.inference_mode()를 쓰세요"),
    "subset.with_as": ("`with ... as NAME` is not available in TensorLab",
                       "`with ... as NAME` 형태는 TensorLab에서 쓸 수 없습니다"),
    "subset.nothing_to_assign": ("nothing to assign to", "대입할 대상이 없습니다"),
    "subset.unpack_names": ("unpacking assigns to plain names only: `a, b = x.split(2)`",
                            "풀어서 대입할 때는 이름만 쓸 수 있습니다: `a, b = x.split(2)`"),
    "subset.assign_only": ("`{target}` cannot be assigned in TensorLab (only {allowed})",
                           "TensorLab에서는 `{target}`에 대입할 수 없습니다(`{allowed}`만 됩니다)"),
    "subset.cannot_assign": ("`{target}` cannot be assigned in TensorLab",
                             "TensorLab에서는 `{target}`에 대입할 수 없습니다"),
    "subset.cannot_assign_here": ("this cannot be assigned to in TensorLab",
                                  "TensorLab에서는 여기에 대입할 수 없습니다"),
    "subset.literal": ("a {type} literal is not available in TensorLab",
                       "TensorLab에서는 `{type}` 리터럴을 쓸 수 없습니다"),
    "subset.module_use": ("`{name}` can only be used as `{name}.<function>`",
                          "{name:`은} `{name}.<함수>` 형태로만 쓸 수 있습니다"),
    "subset.builtin_use": ("`{name}` can only be called: `{name}(...)`",
                           "{name:`은} 호출만 할 수 있습니다: `{name}(...)`"),
    "subset.not_listed": ("`{what}` is not available in TensorLab: `{name}` is not on the list of methods "
                          "and attributes (of tensors, modules, optimizers and dicts)",
                          "TensorLab에서는 {what:`을} 쓸 수 없습니다. {name:`은} (텐서, 모듈, 옵티마이저, 딕셔너리의) "
                          "메서드와 속성 목록에 없습니다"),
    # A typo of a listed name (`x.shap`), as Python's AttributeError suggests one (issue #21).
    "subset.near": ("{reason}; did you mean {near:`}?", "{reason}. 혹시 {near:`을} 쓰려고 했나요?"),
    # -- a list's methods (issue #16, h16c) --
    "subset.list_method": ("`{what}` is not available in TensorLab: `{name}` is not on the list of methods "
                           "and attributes (of tensors, modules, optimizers and dicts); if this is a list: "
                           "a list has no methods here, it is grown with `+=` (`lst += [item]`), read and set "
                           "with `lst[i]`, and measured with `len(lst)`",
                           "TensorLab에서는 {what:`을} 쓸 수 없습니다. {name:`은} (텐서, 모듈, 옵티마이저, "
                           "딕셔너리의) 메서드와 속성 목록에 없습니다. 리스트라면: 여기서 리스트에는 메서드가 "
                           "없으며, `lst += [item]`처럼 늘리고, `lst[i]`로 읽고 바꾸며, `len(lst)`로 길이를 "
                           "잽니다"),
    "subset.copy_only": ("`copy.{name}` is not available in TensorLab (only copy.deepcopy)",
                         "TensorLab에서는 `copy.{name}` 함수를 쓸 수 없습니다(copy.deepcopy만 됩니다)"),
    "subset.cannot_call": (f"`{{name}}` cannot be called: only {_CALLABLE} can be called",
                           f"{{name:`은}} 호출할 수 없습니다. 호출할 수 있는 것은 {_CALLABLE_KO}뿐입니다"),
    "subset.only_callables": (f"only {_CALLABLE} can be called", f"호출할 수 있는 것은 {_CALLABLE_KO}뿐입니다"),
    "subset.grad_mode_call": ("`{call}` is used as `with {call}:`", "{call:`은} `with {call}:` 형태로 씁니다"),
    "subset.double_star": ("`**` unpacking is not available in TensorLab",
                           "TensorLab에서는 `**` 풀기를 쓸 수 없습니다"),
    # -- interpreter.py ------------------------------------------------------------------------------
    "subset.not_on_type": ("`{name}` is not available on a {type} in TensorLab",
                           "TensorLab에서는 {type}에서 {name:`을} 쓸 수 없습니다"),
    "subset.print_file": ("print(file=...) is not available in TensorLab: it prints to the step's output",
                          "TensorLab에서는 print(file=...)를 쓸 수 없습니다. 출력은 단계의 출력으로 갑니다"),
    "subset.type.tensor": ("tensor", "텐서"),
    "subset.type.other": ("{name}", "`{name}`"),
    # -- constructs, named the way a Python programmer calls them -------------------------------------
    "construct.lambda": ("lambda", "`lambda`"),
    "construct.list_comprehension": ("a list comprehension", "리스트 컴프리헨션"),
    "construct.set_comprehension": ("a set comprehension", "집합 컴프리헨션"),
    "construct.dict_comprehension": ("a dict comprehension", "딕셔너리 컴프리헨션"),
    "construct.generator": ("a generator expression", "제너레이터 식"),
    "construct.f_string": ("an f-string", "f-문자열"),
    "construct.for": ("a for loop", "`for` 반복문"),
    "construct.while": ("a while loop", "`while` 반복문"),
    "construct.conditional": ("a conditional expression", "조건식"),
    "construct.walrus": ("the walrus operator `:=`", "바다코끼리 연산자 `:=`"),
    "construct.dict": ("a dict", "딕셔너리"),
    "construct.set": ("a set", "집합"),
    "construct.bool_op": ("`and` / `or`", "`and` / `or` 연산"),
    "construct.starred": ("`*` unpacking", "`*` 풀기"),
    "construct.annotated": ("an annotated assignment", "타입 주석이 달린 대입"),
    "construct.import_from": ("`from ... import`", "`from ... import` 문"),
    "construct.keyword": ("{keyword}", "`{keyword}`"),
    # -- builder_code.py: the fields a builder checks -------------------------------------------------
    "builder.field.name": ("name", "이름"),
    "builder.field.tensor": ("tensor", "텐서 이름"),
    "builder.field.target_name": ("target name", "대상 이름"),
    "builder.field.source_tensor": ("source tensor", "원본 텐서"),
    "builder.field.target_tensor": ("target tensor", "대상 텐서"),
    "builder.field.result_name": ("result name", "결과 이름"),
    "builder.field.first_operand": ("first operand", "첫 번째 피연산자"),
    "builder.field.second_operand": ("second operand", "두 번째 피연산자"),
    "builder.field.value": ("value", "값"),
    "builder.field.fill_value": ("fill value", "채울 값"),
    "builder.field.follow_up_number": ("follow-up number", "이어서 쓸 숫자"),
    "builder.field.factor_k": ("factor k", "곱할 수 k"),
    "builder.field.index": ("index", "인덱스"),
    "builder.field.slice": ("slice", "슬라이스"),
    "builder.kind.dtype": ("dtype", "`dtype`"),
    "builder.kind.factory": ("factory", "생성 함수"),
    "builder.kind.copy": ("copy operation", "복사 연산"),
    "builder.kind.mutation": ("mutation", "변경 연산"),
    "builder.kind.computation": ("computation", "계산"),
    "builder.empty": ("the {field} is empty", "{field:이} 비어 있습니다"),
    "builder.invalid_name": ("`{name}` is not a valid {field}: use letters, digits and _, not starting with a digit",
                             "{name:`은} 올바른 {field:이} 아닙니다. "
                             "숫자로 시작하지 않는 영문자, 숫자, 밑줄(_)을 쓰세요"),
    "builder.reserved": ("`{name}` is reserved in TensorLab", "{name:`은} TensorLab이 예약한 이름입니다"),
    "builder.shape_numbers": ("the shape `{text}` must be whole numbers separated by commas, like 2, 3",
                              "모양 `{text}`에는 쉼표로 구분한 정수를 쓰세요. 예: 2, 3"),
    "builder.shape_negative": ("the shape `{text}` has a negative size", "모양 `{text}`에 음수 크기가 있습니다"),
    "builder.not_number": ("the {field} `{text}` is not a number", "{field} {text:`은} 숫자가 아닙니다"),
    "builder.not_finite": ("the {field} `{text}` must be a finite number", "{field} {text:`은} 유한한 수여야 합니다"),
    "builder.index": ("the {field} `{text}` must be an index like 1:3, 0, or :, 1",
                      "{field} `{text}`에는 1:3, 0, :, 1 같은 인덱스를 쓰세요"),
    "builder.view_numbers": ("the view shape `{text}` must be whole numbers like 2, -1",
                             "뷰 모양 `{text}`에는 2, -1 같은 정수를 쓰세요"),
    "builder.view_one_minus": ("the view shape `{text}` must be sizes with at most one -1",
                               "뷰 모양 `{text}`에는 -1을 한 번까지만 쓸 수 있습니다"),
    "builder.unknown": ("unknown {kind} `{text}`", "알 수 없는 {kind}: `{text}`"),
    "builder.values_empty": ("the values are empty: type numbers like 1, 2, 3 or [[1, 2], [3, 4]]",
                             "값이 비어 있습니다. 1, 2, 3이나 [[1, 2], [3, 4]]처럼 숫자를 입력하세요"),
    "builder.values_not_list": ("the values `{text}` are not a list of numbers", "값 {text:`은} 숫자 목록이 아닙니다"),
    "builder.values_numbers": ("the values `{text}` must be numbers in (nested) lists",
                               "값 `{text}`에는 (중첩된) 리스트 안의 숫자를 쓰세요"),
    # -- the training step (issue #16: subset_rules.py, interpreter.py) ---------------------------------
    "subset.import_from": ("`from {module} import {name}` is not available in TensorLab (only "
                           "`from torch import nn` and `from torch import optim`)",
                           "`from {module} import {name}` 문은 쓸 수 없습니다(`from torch import nn`과 "
                           "`from torch import optim`만 됩니다)"),
    "subset.dict_keys": ("a dict's keys must be strings written in quotes in TensorLab, like 'weight'",
                         "TensorLab에서 딕셔너리의 키는 'weight'처럼 따옴표로 쓴 문자열이어야 합니다"),
    "subset.keyword": ("`{call}(...)` does not take `{keyword}=` in TensorLab (it takes: `{allowed}`)",
                       "TensorLab에서 `{call}(...)`에는 `{keyword}=`를 쓸 수 없습니다(쓸 수 있는 것: `{allowed}`)"),
    # -- h16r: a call that takes no keywords ------------------------------------------------------------
    "subset.keyword_none": ("`{call}(...)` does not take `{keyword}=` in TensorLab (it takes no keywords)",
                            "TensorLab에서 `{call}(...)`에는 `{keyword}=`를 쓸 수 없습니다"
                            "(키워드 인수를 받지 않습니다)"),
    "subset.param_groups_write": ("an optimizer's `param_groups` can be read but not changed in TensorLab "
                                  "(make a new optimizer with the settings you want)",
                                  "TensorLab에서 옵티마이저의 `param_groups`는 읽을 수만 있고 바꿀 수는 없습니다"
                                  "(원하는 설정으로 옵티마이저를 새로 만드십시오)"),
    "subset.positional": ("`{call}(...)` takes at most {limit} arguments without a keyword in TensorLab, "
                          "not {count}",
                          "TensorLab에서 `{call}(...)`에는 키워드 없는 인수를 {limit}개까지만 넘길 수 있습니다"
                          "({count}개를 넘겼습니다)"),
    "subset.call_value": ("`{code}` is a {type}: only a module (nn.Linear, nn.Sequential, ...) can be called "
                          "like a function",
                          "{code:`은} {type}입니다. 함수처럼 호출할 수 있는 것은 "
                          "모듈(nn.Linear, nn.Sequential 등)뿐입니다"),
    "subset.dict_key_type": ("a dict takes string keys in TensorLab (`sd['weight']`), not a {type}",
                             "TensorLab에서 딕셔너리의 키는 문자열이어야 합니다(`sd['weight']`). "
                             "{type:은} 쓸 수 없습니다"),
    "subset.dict_key_long": ("this dict key is {length:,} characters long; TensorLab allows keys of at most {limit}",
                             "이 딕셔너리 키는 {length:,}자입니다. TensorLab은 {limit}자까지의 키만 허용합니다"),
    "subset.module_item": ("a module's submodules are read (`net[0]`), not replaced, in TensorLab",
                           "TensorLab에서 모듈의 하위 모듈은 읽을 수만 있고(`net[0]`) 바꿀 수는 없습니다"),
    "builder.follow_up": ("the follow-up `{text}` must be an operator and a number, like * 2, *2 or .mul(2)",
                          "이어서 쓸 식 `{text}`에는 * 2, *2, .mul(2)처럼 연산자와 숫자를 쓰세요"),
}

CODE_ONLY = frozenset({"subset.type.other", "construct.lambda", "construct.keyword", "builder.kind.dtype"})
