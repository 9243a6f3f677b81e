"""Each rule of the guard, with the message the user sees (issue #9 items 2, 3a-f, 4 and 5).

Each test runs lines in a real :class:`~tensorlab.core.session.session.Session`: the step
that breaks a rule fails with a ``LimitError`` that says why, nothing of it ran,
and the session goes on.
"""

from __future__ import annotations

import ast
import gc

import pytest
import torch

from tensorlab.core.protocol.limits import DEFAULT_LIMITS, LimitError, Limits, count_text
from tensorlab.core.sandbox import estimates as est
from tensorlab.core.session.session import Session

MB = 1024**2


@pytest.fixture
def session():
    return Session(limits=DEFAULT_LIMITS)


def budget(nbytes: int) -> Session:
    """A session with a memory budget of ``nbytes``, in a process whose earlier garbage is collected.

    (The budget counts how much the process grew since the session started; in a
    worker the session is alone, here earlier tests' garbage could be freed meanwhile.)
    """
    gc.collect()
    return Session(limits=DEFAULT_LIMITS.with_memory(nbytes))


def run(session: Session, *codes: str):
    """Run ``codes`` in order; the result of the last."""
    result = None
    for code in codes:
        result = session.run(code)
    return result


def refused(session: Session, *codes: str) -> str:
    """The message of the LimitError the last of ``codes`` raised (the others must succeed)."""
    for code in codes[:-1]:
        result = session.run(code)
        assert result.error is None, (code, result.error)
    result = session.run(codes[-1])
    assert result.error is not None and result.error.type == "LimitError", (codes[-1], result.error)
    return result.error.message


# -- item 2: nested and cyclic lists never reach torch ------------------------------------------------------
def test_a_list_that_contains_itself_is_refused_before_torch_sees_it(session):
    message = refused(session, "a = [0, 0]", "b = [0, a]", "a[1] = b", "t = torch.tensor(a)")
    assert message == ("a list given to this call contains itself (a cycle); torch would recurse until it "
                       "crashes, so TensorLab refuses it")
    assert "t" not in session.names
    assert run(session, "print(a)").output == "[0, [0, [...]]]\n"  # as Python prints it
    assert run(session, "n = len(a)").error is None


def test_a_list_nested_deeper_than_32_levels_is_refused(session):
    assert refused(session, "t = torch.tensor(" + "[" * 33 + "1.0" + "]" * 33 + ")").endswith(
        "is nested more than 32 levels deep; TensorLab refuses it before torch sees it")
    assert run(session, "t = torch.tensor(" + "[" * 32 + "1.0" + "]" * 32 + ")").error is None


def test_shared_sublists_count_every_time_they_appear(session):
    message = refused(session, "l = [0] * 10**6", "m = [l] * 10**6", "t = torch.tensor(m)")
    assert message == ("a list given to this call holds more than 1,000,000 items (counting nested lists); "
                       "TensorLab refuses it")


# -- item 3a: every text is bounded while it is built --------------------------------------------------------
def test_printing_a_million_megabyte_strings_builds_a_bounded_text(session):
    result = run(session, 's = "a" * 10**6', "l = [s] * 10**6", "print(l)")
    assert result.error is None
    assert len(result.output) < DEFAULT_LIMITS.max_output_chars + 200
    assert result.output.startswith("['aaaa")
    echo = run(session, "l").value
    assert echo is not None and len(echo) < 3000


def test_a_large_storage_prints_as_a_description(session):
    result = run(session, "x = torch.zeros(10**6)", "print(x.untyped_storage())")
    assert result.output == "<UntypedStorage of 4,000,000 bytes on cpu>\n"
    assert run(session, "print(torch.ones(1).untyped_storage())").output == str(torch.ones(1).untyped_storage()) + "\n"


# -- item 3c: no re-entrant backward ------------------------------------------------------------------------
def test_register_hook_takes_only_print_len_and_id(session):
    message = refused(session, "x = torch.ones(2, requires_grad=True)", "h = x.register_hook(x.backward)")
    assert message == ("register_hook takes only print, len or id in TensorLab (a hook that runs tensor methods "
                       "could call backward() inside backward())")
    assert run(session, "h = x.register_hook(print)", "(x * 2).sum().backward()").output == "tensor([2., 2.])\n"


# -- item 3d: views that return one tensor per piece ---------------------------------------------------------
@pytest.mark.parametrize("code, pieces", [
    ("a = torch.zeros(1).expand(10**8).unbind()", "100,000,000"),
    ("a = torch.zeros(1).expand(10**8).tensor_split(10**7)", "10,000,000"),
    ("a = torch.zeros(10**6).split(1)", "1,000,000"),
    ("a = torch.zeros(10**6).chunk(10**6)", "1,000,000"),
])
def test_split_unbind_chunk_count_their_pieces(session, code, pieces):
    name = code.split(".")[-1].split("(")[0]
    assert refused(session, code) == f".{name}(...) would return {pieces} tensors; TensorLab allows at most 10,000"


# -- item 3e: the session's memory budget ---------------------------------------------------------------------
def test_the_budget_counts_what_names_hold():
    session = budget(64 * MB)
    message = refused(session, "a = torch.zeros(10**7)", "b = torch.zeros(10**7)")
    assert message.startswith("torch.zeros(...) needs 38 MB, and the session already holds ")
    assert message.endswith("its memory budget is 64 MB (TensorLab allows at most that much; free some names "
                            "or set a larger limit in Preferences or with --memory-limit)")
    assert run(session, "a = None", "b = torch.zeros(10**7)").error is None  # freed: fits again


def test_the_budget_counts_python_lists():
    session = budget(64 * MB)
    errors = [run(session, f"l{k} = [0] * 10**6").error for k in range(12)]
    assert errors[0] is None
    assert any(e is not None and "memory budget" in e.message for e in errors)


def test_the_budget_counts_strings():
    session = budget(64 * MB)
    errors = [run(session, f's{k} = "\\U0001f600" * 10**6').error for k in range(20)]  # 4 MB each
    assert any(e is not None and "memory budget" in e.message for e in errors)


def test_the_budget_counts_what_autograd_keeps_for_backward():
    session = budget(64 * MB)
    block = "with torch.enable_grad():\n" + "    y = y * y\n" * 40
    message = refused(session, "x = torch.rand(10**6, requires_grad=True)", "y = x * 1", block)
    assert "memory budget is 64 MB" in message


def test_unary_minus_of_an_expanded_view_counts_its_result(session):
    assert refused(session, "n = -torch.zeros(1).expand(5*10**9)") == (
        "the result would have 5,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor")


def test_conversions_count_the_target_dtype():
    session = budget(64 * MB)
    message = refused(session, "x = torch.ones(5 * 10**6)", "y = x.to(torch.complex128)")
    assert message.startswith(".to(...) needs 76 MB")
    assert run(session, "y = x.half()").error is None


def test_a_reduction_over_an_empty_dimension_counts_its_result():
    session = budget(64 * MB)
    message = refused(session, "z = torch.zeros(0, 10**7, dtype=torch.float64)", "a = z.sum(0)")
    assert message.startswith(".sum(...) needs 76 MB")


def test_copy_deepcopy_counts_each_storage_once():
    session = budget(64 * MB)
    assert refused(session, "x = torch.ones(6 * 10**6)", "s = x.untyped_storage()", "c = copy.deepcopy(s)",
                   "d = copy.deepcopy(s)").startswith("copy.deepcopy(...) needs 23 MB")
    assert run(session, "l = [torch.ones(3)] * 10**5", "m = copy.deepcopy(l)", "print(m[0] is m[1])").output \
        == "True\n"


# -- item 3f: limits that were bypassed --------------------------------------------------------------------------
@pytest.mark.parametrize("codes, message", [
    (["n = torch.arange(torch.tensor(10**9))"],
     "torch.arange(...) would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
    (["a = torch.tensor([10**9]).numpy()", "b = torch.arange(a[0])"],
     "torch.arange(...) would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
    (["e = torch.zeros(1).expand(10**9)", "n = -e"],
     "the result would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
    (["e = torch.zeros(1).expand(10**9)", "c = e < e"],
     "an operand of this expression would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 "
     "per tensor"),
    (["e = torch.zeros(1).expand(10**9)", "c = 0 in e"],
     "the tensor searched by `in` would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 "
     "per tensor"),
    (["x = torch.zeros(10, 10**4)", "i = torch.zeros(10**5, dtype=torch.long)", "y = x[i]"],
     "the result of this indexing would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 "
     "per tensor"),
    (["x = torch.zeros(10, 10**4)", "i = torch.zeros(10**5, dtype=torch.long)", "y = x.index_select(0, i)"],
     ".index_select(...) would have 1,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
    (["a = torch.zeros(10**5).numpy()", "b = a[:, None] + a"],
     "the result would have 10,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
    (["e = torch.zeros(1).expand(10**8)", "l = e.tolist()"],
     ".tolist() would make 100,000,000 Python numbers; TensorLab allows at most 1,000,000"),
    (['s = "%1000000000d" % 0'],
     "a % format width of 1,000,000,000 is larger than TensorLab allows (1,000,000)"),
    (['s = "a" * torch.tensor(10**9)'],
     "this would build a sequence of 1,000,000,000 items; TensorLab allows at most 1,000,000"),
    (["s = [0] * torch.tensor(10**9)"],
     "this would build a sequence of 1,000,000,000 items; TensorLab allows at most 1,000,000"),
    (["e = torch.zeros(1).expand(10**8)", "m = e.numpy().tolist()"],
     ".tolist() would make 100,000,000 Python numbers; TensorLab allows at most 1,000,000"),
    (["l = [torch.ones(10**4)] * 10**6", "c = torch.cat(l)"],
     "torch.cat(...) would have 10,000,000,000 elements; TensorLab allows at most 100,000,000 per tensor"),
])
def test_limits_that_used_to_be_bypassed(session, codes, message):
    assert refused(session, *codes) == message


def test_a_percent_format_is_bounded_by_its_whole_result(session):
    message = refused(session, 's = "a" * 10**6', 't = (s,) * 10**4', 'f = "%s" * 10**4', "r = f % t")
    assert message.startswith("this % format could build a string of about ")
    assert message.endswith("characters; TensorLab allows at most 1,000,000")
    assert run(session, 'r = "%s|%05d" % ("x", 3)', "print(r)").output == "x|00003\n"


def test_tensors_have_at_most_64_dimensions(session):
    assert refused(session, "x = torch.ones([1] * 65)") == (
        "this tensor would have 65 dimensions; TensorLab allows at most 64")
    block = "with torch.no_grad():\n" + "    x = x.unsqueeze(0)\n" * 100
    assert refused(session, "x = torch.ones(1)", block) == (
        "this tensor would have 65 dimensions; TensorLab allows at most 64")
    assert run(session, "print(x.dim())").output == "64\n"  # the block ran up to the refused statement


def test_an_empty_tensor_with_enormous_dimensions_is_refused(session):
    assert run(session, "z = torch.zeros(0, 2**40)").error is None  # nothing to list
    assert refused(session, "y = z.t()") == (
        "this empty tensor has dimensions of 1,099,511,627,776 before its zero-size one (listing it would make "
        "that many Python lists); TensorLab allows at most 1,000,000")
    assert refused(session, "s = z.sum(0)").startswith(".sum(...) would have 1,099,511,627,776 elements")


def test_powers_and_products_of_huge_ints(session):
    assert run(session, "a = 2**99999").error is None
    assert refused(session, "b = a * a") == "this product is too large a number for TensorLab"
    assert refused(session, "c = 3 ** 200000") == "this power is too large a number for TensorLab"
    assert run(session, "print(10**5000)").output == "<int of 16,610 bits>\n"
    assert refused(session, "t = torch.ones(10**5000)").startswith("torch.ones(...) would have about 10^5000 ")


# -- item 4: the cost of one statement -------------------------------------------------------------------------
def test_a_matmul_costs_n_k_m(session):
    assert refused(session, "a = torch.ones(10**4, 10**4)", "b = a @ a") == (
        "this step would do about 1.0e+12 element-operations; TensorLab allows at most 1e+10 per step "
        "(a `with` block counts as one step)")


def test_a_with_block_counts_as_one_statement(session):
    block = "with torch.no_grad():\n" + "    y = x @ x\n" * 3
    assert "element-operations" in refused(session, "x = torch.ones(2000, 2000)", block)
    assert "y" in session.names  # the first product ran before the block passed the limit


def test_python_work_counts_too(session):
    assert "element-operations" in refused(session, 's = "a" * 10**6', "t = s[::-1][::-1]", "l = [t] * 10**6",
                                           "b = s in l")
    assert "element-operations" in refused(session, "x = torch.zeros(10**7)", "t = torch.tensor(x.untyped_storage())")


def test_backward_work_is_estimated_from_its_graph():
    x = torch.ones(1000, requires_grad=True)
    y = (x * x * x).sum()
    work, new_grads = est.backward_work(y)
    assert work >= 4 * 1000 and new_grads == 4000
    x.grad = torch.zeros(1000)
    assert est.backward_work(y)[1] == 0
    assert est.backward_work(torch.ones(3)) == (0, 0)


# -- item 5: what a step prints -----------------------------------------------------------------------------------
def test_a_step_prints_at_most_100_000_characters_and_counts_the_rest(session):
    result = run(session, 'print("a" * 10**6)')
    assert result.output == "a" * 100_000 + "\n… 900,001 more characters (TensorLab keeps 100,000 per step)\n"
    result = run(session, 's = "-" * 10**6', "print(1, 2, sep=s)")
    assert result.output.startswith("1---") and "… 900,003 more characters" in result.output


def test_print_takes_flush_and_file_none_and_escapes_lone_surrogates(session):
    assert run(session, "print(1, flush=True, file=None)").output == "1\n"
    assert run(session, 'print("\\ud800")').output == "\\ud800\n"
    assert run(session, "print(1, file=5)").error.type == "TensorLabError"


# -- estimates ----------------------------------------------------------------------------------------------------
def test_nested_measure_counts_repeats_and_arrays():
    inner = [1, 2, 3]
    found = est.measure_nested([inner] * 4 + [torch.ones(10)], 10**6, "x")
    assert (found.leaves, found.elements, found.depth) == (13, 22, 2)
    with pytest.raises(LimitError, match="holds more than 10 items"):
        est.measure_nested([inner] * 4, 10, "this list")


def test_reduction_split_and_conversion_estimates():
    assert est.reduction_numel((0, 7), [0], {}) == 7
    assert est.reduction_numel((3, 4), [], {"dim": (0, 1)}) == 1
    assert est.reduction_numel((3, 4), [], {}) == 1
    assert est.split_pieces("split", (10,), [3], {}) == 4
    assert est.split_pieces("tensor_split", (10,), [[1, 2]], {}) == 3
    assert est.split_pieces("unbind", (5, 2), [1], {}) == 2
    assert est.conversion_itemsize("to", [torch.float64], {}, 4) == 8
    assert est.conversion_itemsize("to", ["cpu"], {"dtype": torch.int8}, 4) == 1
    assert est.conversion_itemsize("half", [], {}, 4) == 2


def test_counts_in_messages_never_fail():
    assert count_text(12345) == "12,345"
    assert count_text(10**5000) == "about 10^5000"


def test_bounded_repr_equals_python_repr_up_to_its_budget():
    from tensorlab.core.observe.reprs import bounded_repr

    values = [[1, 2, 3], (1,), (1, 2), [], (), [1.5, None, True, "ab"], list(range(5000)), tuple(range(3000)),
              ["x" * 50] * 100, [[1, 2], [3]], [float("nan"), -0.0, 1e308 * 10], [(1,), [2, (3,)]]]
    for value in values:
        full = repr(value)
        for budget in (5, 50, 2000):
            text = bounded_repr(value, budget)
            if len(full) <= budget:
                assert text == full
            else:
                assert text == full[:budget] + " ..."


def test_walking_python_values_counts_toward_the_cost():
    from tensorlab.core.sandbox.guard import Guard

    guard = Guard({}, DEFAULT_LIMITS)
    found = guard.nested([[0.0]] * 1000, "this list")
    assert found.visits >= 1000 and guard.cost >= found.visits * est.WALK_ITEM
    guard.start()
    guard.binary(ast.Mod(), 7**30000, 11**20000)
    assert guard.cost >= (7**30000).bit_length() // 30 * ((11**20000).bit_length() // 30)


def test_a_value_cut_while_printing_says_so_instead_of_a_false_count(session):
    # print must not build the text of a huge value, so how much more it had is not known: it says so.
    result = run(session, "l = [0] * 10**6", "print(l)")
    assert len(result.output) < DEFAULT_LIMITS.max_output_chars + 200
    assert "the rest was not printed (TensorLab keeps 100,000 characters per step)" in result.output
    assert "more characters" not in result.output


def test_a_backward_over_the_memory_budget_says_what_needs_the_memory_in_good_english():
    # The outer product's gradient (2000 x 2000 float32, twice in flight) is over a 24 MB budget.
    session = Session(limits=Limits().with_memory(24 * 2**20))
    for code in ("x = torch.ones(1, 2000, requires_grad=True)", "b = torch.ones(2000, 1, requires_grad=True)",
                 "t = (x * b).sum()"):
        assert session.run(code).ok, code
    result = session.run("t.backward()")
    assert result.error is not None and result.error.type == "LimitError"
    assert result.error.message.startswith("computing the gradients of this backward() needs ")
    assert session.namespace["x"].grad is None   # refused before it ran
