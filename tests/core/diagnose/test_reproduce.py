"""Reproductions: every diagnosed family has one, of the code subset, that raises it again with plain torch and
in TensorLab's engine; shapes and versions over the budget are scaled down, saying so."""

from __future__ import annotations

import pytest

from tensorlab.core.diagnose import diagnose, run_reproduction
from tensorlab.core.diagnose.families import FAMILIES, Family, normal_node, read_family
from tensorlab.core.diagnose.reproduce import (
    ANALOGUES,
    CREATORS,
    MAX_BUMPS,
    MAX_ELEMENTS,
    SHAPED,
    VIEW_NODES,
    reproduce,
    scale_shape,
)
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.worker.in_process import LocalEngine
from tests.core.diagnose.reference import reproduced

SAVED = "one of the variables needed for gradient computation has been modified by an inplace operation: "


@pytest.fixture(scope="module")
def engine():
    local = LocalEngine("cpu")
    yield local
    local.close()


@pytest.mark.parametrize("name", FAMILIES)
def test_every_family_has_a_reproduction_that_raises_it(name, engine):
    made = reproduce(Family(name, "RuntimeError", {}, ""))
    assert made is not None and made.statements
    for statement in made.statements:
        parse_one(statement)
    if not made.runs_here:
        assert made.needs == "cuda"
        return
    type_name, family = reproduced(made.statements)
    assert family is not None and family.name == name
    raised = run_reproduction(made.statements, engine)
    assert raised is not None and raised.startswith(type_name + ": ")
    assert read_family(raised.split(": ", 1)[1], type_name).name == name


@pytest.mark.parametrize("node", sorted({*CREATORS, *SHAPED, "AsStrided", "T", "View", "CopySlices", "ToCopy", "Sum",
                                         "Mean"}))
@pytest.mark.parametrize("versions", [(1, 0), (3, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_each_known_node_is_reproduced_with_its_facts(node, versions, dtype):
    tensor_type = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor"}[dtype]
    shape = [] if node in ("Sum", "Mean") and versions == (1, 0) else [2, 3]
    message = (f"{SAVED}[{tensor_type} [{', '.join(map(str, shape))}]], which is output 0 of {node}Backward0, is at "
               f"version {versions[0]}; expected version {versions[1]} instead.")
    found = diagnose("RuntimeError: " + message)
    assert found.explained and found.reproduction is not None and not found.scaled_down
    _, family = reproduced(found.reproduction)
    assert family is not None and family.name == "saved_changed"
    got = family.facts
    assert got["shape"] == shape and got["dtype"] == dtype
    assert (got["version"], got["expected_version"]) == versions
    if node == "CopySlices" and versions[1] == 0:    # an index assignment is a change: saved at 0 it cannot be
        assert "in place of CopySlices" in found.text.render("en") and got["node"] in found.text.render("en")
    else:
        assert normal_node(got["node"]) == ("AsStrided" if node in VIEW_NODES else node)


def test_a_leaf_and_integer_indices_stay_without_a_node():
    for tensor_type, dtype in (("torch.FloatTensor", "float32"), ("torch.LongTensor", "int64"),
                               ("torch.IntTensor", "int32")):
        found = diagnose(f"RuntimeError: {SAVED}[{tensor_type} [7]] is at version 4; expected version 2 instead.")
        _, family = reproduced(found.reproduction)
        assert "node" not in family.facts and family.facts["dtype"] == dtype and family.facts["shape"] == [7]
        assert (family.facts["version"], family.facts["expected_version"]) == (4, 2)


def test_versions_over_the_budget_are_lowered_and_said():
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [3]], which is output 0 of MulBackward0, is at "
                     "version 5000; expected version 4000 instead.")
    assert found.scaled_down and "smaller than your error" in found.text.render("en")
    _, family = reproduced(found.reproduction)
    assert family.facts["expected_version"] <= MAX_BUMPS
    assert 0 < family.facts["version"] - family.facts["expected_version"] <= MAX_BUMPS


def test_cuda_is_reproduced_on_the_cpu_and_two_devices_need_cuda():
    found = diagnose(f"RuntimeError: {SAVED}[torch.cuda.HalfTensor [4]], which is output 0 of ReluBackward0, is at "
                     "version 1; expected version 0 instead.")
    assert found.needs == "cuda" and found.runs_here and "happened on CUDA" in found.text.render("en")
    _, family = reproduced(found.reproduction)
    assert family.facts["tensor_type"] == "torch.HalfTensor"
    found = diagnose("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
                     "cuda:1 and cpu!")
    assert found.needs == "cuda" and not found.runs_here
    assert found.reproduction == ("x = torch.randn(3, device='cuda:1')", "y = torch.randn(3)", "x + y")


def test_a_meta_tensor_beside_a_cpu_one_is_reproduced_here_and_a_gpu_paste_is_told_the_lesson(engine):
    found = diagnose("RuntimeError: Tensor on device cpu is not on the expected device meta!")
    assert found.family == "mixed_devices" and found.needs is None and found.runs_here
    assert found.reproduction == ("x = torch.randn(3, device='meta')", "y = torch.randn(3)", "x + y")
    type_name, family = reproduced(found.reproduction)
    assert type_name == "RuntimeError" and family.name == "mixed_devices" and family.facts["devices"] == ["meta", "cpu"]
    assert run_reproduction(found.reproduction, engine) == ("RuntimeError: Tensor on device cpu is not on the "
                                                            "expected device meta!")
    assert "to-and-cpu-on-a-leaf" in found.lessons and "lessons show it" not in found.text.render("en")
    # A CUDA paste still needs CUDA for its own words, and is told the lesson shows the mistake in other words.
    gpu = diagnose("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
                   "cuda:0 and cpu!")
    assert gpu.lessons == found.lessons and not gpu.runs_here
    assert "meta device, and the lessons show it so" in gpu.text.render("en")
    assert "meta 장치의 텐서로" in gpu.text.render("ko")


@pytest.mark.parametrize("shape", [[10**12], [10**6, 10**6], [3, 10**9, 2], [1] * 40 + [10**7], [0, 10**12]])
def test_scaling_keeps_the_rank(shape):
    dims, scaled = scale_shape(shape)
    total = 1
    for size in dims:
        total *= size
    assert len(dims) == len(shape) and total <= MAX_ELEMENTS and all(size >= 0 for size in dims)
    assert scaled == (shape != [0, 10**12] or True)
    assert scale_shape([27, 32]) == ([27, 32], False)


@pytest.mark.parametrize("node", sorted(ANALOGUES) + ["CudnnConvolution", "NativeBatchNorm"])
def test_a_node_the_subset_cannot_make_has_a_named_analogue(node):
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [4, 6]], which is output 0 of {node}Backward0, is at "
                     "version 2; expected version 1 instead.")
    _, family = reproduced(found.reproduction)
    analogue = ANALOGUES.get(node, "Mul")
    assert normal_node(family.facts["node"]) == analogue and f"with {analogue} in place of" in found.text.render("en")
    assert family.facts["shape"] == [4, 6] and (family.facts["version"], family.facts["expected_version"]) == (2, 1)
