"""The training-loop chapter (issue 19): each lesson's key outcomes, and the general rules its notes state,
compared with plain torch run here directly.

(Every field of every step is compared with plain torch in test_against_plain_torch; the answers of the
questions are derived and checked in test_curriculum. These tests check what the notes say in general:
the sentences that are true beyond the lesson's own numbers.)
"""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn, optim

from tensorlab.core.lessons.course import builtin_course
from tensorlab.core.lessons.lesson import find_lesson
from tests.core.lessons.lesson_runs import raised, run_by_code

CHAPTER = ["the-optimizer-takes-the-same-step", "what-step-and-zero-grad-do", "state-dict-shares-memory",
           "a-target-network", "relu-inplace", "freezing-no-grad-and-eval"]




def test_the_chapter_comes_last_in_the_manifest_with_every_lesson_asking_twice():
    chapters = builtin_course().chapters
    assert chapters[-1].title == "The training loop" and chapters[-1].text("ko") == "학습 루프"
    assert [entry.id for entry in chapters[-1].lessons] == CHAPTER
    for lesson_id in CHAPTER:
        assert sum(step.ask is not None for step in find_lesson(lesson_id).steps) >= 2, lesson_id


def test_the_optimizer_holds_the_parameter_and_updates_it_in_place_like_the_hand_written_step():
    by_code, _ = run_by_code("the-optimizer-takes-the-same-step")
    w = torch.tensor([1., 2.], requires_grad=True)
    v = torch.tensor([1., 2.], requires_grad=True)
    opt = optim.SGD([v], lr=0.25)
    assert opt.param_groups[0]["params"][0] is v
    (w * w).sum().backward()
    (v * v).sum().backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    opt.step()
    assert torch.equal(v, w) and (v.is_leaf, v._version, v.grad_fn) == (True, 1, None)
    stepped = by_code["opt.step()"].snapshot.tensor("v")
    assert (stepped.values, stepped.version, stepped.is_leaf) == (tuple(v.tolist()), 1, True)
    old = v
    v = v - 0.25 * v.grad
    assert opt.param_groups[0]["params"][0] is old and not v.is_leaf


def _net():
    net = nn.Sequential(nn.Linear(2, 2, bias=False), nn.Linear(2, 1, bias=False))
    net.load_state_dict({"0.weight": torch.ones(2, 2), "1.weight": torch.ones(1, 2)})
    return net, optim.SGD(net.parameters(), lr=0.25), torch.ones(1, 2)


def test_step_before_any_backward_writes_nothing_and_step_between_a_loss_and_its_backward_fails_later():
    by_code, results = run_by_code("what-step-and-zero-grad-do")
    net, opt, x = _net()
    assert net[0].weight._version == 2   # the constructor's random fill, then load_state_dict
    loss = net(x).sum()
    opt.step()
    assert net[1].weight._version == 2
    assert raised(loss.backward) is None
    opt.step()
    net(x).sum().backward()
    assert torch.equal(net[1].weight.grad, torch.tensor([[3.5, 3.5]]))   # step() never clears .grad
    opt.zero_grad()
    assert net[1].weight.grad is None                                   # set_to_none=True by default
    net(x).sum().backward()
    loss = net(x).sum()
    opt.step()
    message = raised(loss.backward)
    assert "modified by an inplace operation" in message
    backwards = [r for r in results if r.code == "loss.backward()"]
    assert backwards[0].ok and backwards[1].error.message == message


def test_only_a_weight_whose_input_requires_grad_is_saved():
    """The note: the first layer's weight is not saved, since its input x does not require grad."""
    layer = nn.Linear(2, 1, bias=False)
    opt = optim.SGD(layer.parameters(), lr=0.25)
    layer(torch.ones(1, 2)).sum().backward()
    loss = layer(torch.ones(1, 2)).sum()
    opt.step()
    assert raised(loss.backward) is None
    loss = layer(torch.ones(1, 2, requires_grad=True)).sum()
    opt.step()
    assert "modified by an inplace operation" in raised(loss.backward)


def test_state_dict_shares_the_parameters_memory_and_load_state_dict_copies_into_it():
    by_code, _ = run_by_code("state-dict-shares-memory")
    model = nn.Linear(2, 1)
    model.load_state_dict({"weight": torch.tensor([[1., 2.]]), "bias": torch.tensor([0.])})
    sd = model.state_dict()
    assert not sd["weight"].requires_grad and sd["weight"].data_ptr() == model.weight.data_ptr()
    best = copy.deepcopy(model.state_dict())
    assert best["weight"].data_ptr() != model.weight.data_ptr() and best["weight"]._version == 1   # set_()
    opt = optim.SGD(model.parameters(), lr=0.5)
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    assert torch.equal(sd["weight"], model.weight.detach()) and sd["weight"]._version == model.weight._version
    assert torch.equal(best["weight"], torch.tensor([[1., 2.]]))
    pointer = model.weight.data_ptr()
    model.load_state_dict(best)
    assert model.weight.data_ptr() == pointer and model.weight._version == 4
    assert torch.equal(sd["weight"], best["weight"])
    snap = by_code["model.load_state_dict(best)"].snapshot
    assert snap.tensor("sd['weight']").storage == snap.tensor("model.weight").storage   # on the same strip
    assert snap.tensor("best['weight']").storage != snap.tensor("model.weight").storage


def test_a_target_network_deepcopy_alias_and_copy_under_no_grad():
    by_code, _ = run_by_code("a-target-network")
    online = nn.Linear(2, 1, bias=False)
    online.load_state_dict({"weight": torch.tensor([[1., 2.]])})
    alias = online
    target = copy.deepcopy(online)
    assert target.weight.requires_grad and target.weight.is_leaf
    assert target.weight.data_ptr() != online.weight.data_ptr() and alias.weight is online.weight
    message = raised(lambda: target.weight.copy_(online.weight))
    assert by_code["target.weight.copy_(online.weight)"].error.message == message
    assert "a leaf Variable that requires grad" in message
    pointer = target.weight.data_ptr()
    with torch.no_grad():
        target.weight.copy_(online.weight)
    assert target.weight.data_ptr() == pointer and target.weight.grad_fn is None and target.weight._version == 1


@pytest.mark.parametrize("saves_its_output", [torch.sigmoid, torch.tanh, torch.exp])
def test_an_inplace_relu_after_an_operation_that_saves_its_output_breaks_backward(saves_its_output):
    relu = nn.ReLU(inplace=True)
    x = torch.tensor([-1., 2.], requires_grad=True)
    s = saves_its_output(x)
    before = s.detach().clone()
    r = relu(s)
    assert r is s and s._version == 1
    if saves_its_output is not torch.tanh:       # sigmoid and exp are positive: nothing changed, still counted
        assert torch.equal(s.detach(), before)
    assert "modified by an inplace operation" in raised(lambda: r.sum().backward())


def test_an_inplace_relu_after_x_times_2_or_a_linear_is_fine_and_after_a_saved_tensor_is_not():
    by_code, results = run_by_code("relu-inplace")
    relu = nn.ReLU(inplace=True)
    x = torch.tensor([-1., 2.], requires_grad=True)
    relu(x * 2).sum().backward()
    assert torch.equal(x.grad, torch.tensor([0., 2.]))
    assert results[-1].snapshot.tensor("x").grad == tuple(x.grad.tolist())
    layer = nn.Linear(2, 2)
    assert raised(lambda: relu(layer(torch.ones(1, 2, requires_grad=True))).sum().backward()) is None
    y = x * 2
    z = y * torch.tensor([3., 4.], requires_grad=True)
    relu(y)
    assert "modified by an inplace operation" in raised(lambda: z.sum().backward())
    x = torch.tensor([-1., 2.], requires_grad=True)
    s = x.sigmoid()
    relu(s)
    assert [r for r in results if r.code == "r.sum().backward()"][0].error.message == raised(
        lambda: s.sum().backward())


def test_eval_changes_dropout_and_batchnorm_not_gradients_and_freezing_gives_no_grad():
    run_by_code("freezing-no-grad-and-eval")
    model = nn.Sequential(nn.Linear(2, 1), nn.Dropout(0.5))
    model.load_state_dict({"0.weight": torch.tensor([[1., 2.]]), "0.bias": torch.tensor([0.])})
    x = torch.ones(1, 2)
    assert model.eval() is model and not model[1].training
    y = model(x)
    assert y.requires_grad and y.tolist() == [[3.0]]
    with torch.no_grad():
        z = model(x)
    assert not z.requires_grad and z.grad_fn is None and model[0].weight.requires_grad
    model[0].weight.requires_grad_(False)
    model(x).sum().backward()
    assert model[0].weight.grad is None and torch.equal(model[0].bias.grad, torch.tensor([1.]))
    bn = nn.BatchNorm1d(1)
    b = torch.tensor([[1.], [3.]])
    bn(b)
    assert bn.running_mean.tolist() == [pytest.approx(0.2)] and bn.running_mean._version == 1
    assert bn.running_var.tolist() == [pytest.approx(0.9 + 0.1 * 2.0)]   # the unbiased variance of (1, 3) is 2
    bn.eval()
    out = bn(b)
    assert bn.running_mean._version == 1 and out.requires_grad
