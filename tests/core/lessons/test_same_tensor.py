"""Rows that are one Python tensor object, told apart from other tensors over the same memory (issue #19)."""

from __future__ import annotations

import copy

import torch

from tensorlab.core.lessons.tensor_rows import name_text, same_tensor
from tensorlab.core.observe.inspector import take_snapshot
from tensorlab.core.session.session import Session


def test_same_tensor_follows_python_identity_not_shared_memory():
    online = torch.nn.Linear(2, 1, bias=False)
    alias, target = online, copy.deepcopy(online)
    sd = online.state_dict()
    r = torch.sigmoid(torch.ones(2, requires_grad=True))
    s = torch.nn.ReLU(inplace=True)(r)
    # What torch says: the alias's weight and relu's result are the objects; sd's tensor only shares memory.
    assert alias.weight is online.weight and s is r
    assert sd["weight"] is not online.weight and sd["weight"].data_ptr() == online.weight.data_ptr()
    snapshot = take_snapshot({"online": online, "alias": alias, "target": target, "sd": sd, "r": r, "s": s})
    assert same_tensor(snapshot) == {"alias.weight": "online.weight", "s": "r"}
    assert snapshot.tensor("sd['weight']").storage == snapshot.tensor("online.weight").storage


def test_the_transcript_table_names_the_second_name_of_one_tensor():
    session = Session()
    session.run("online = nn.Linear(2, 1, bias=False)")
    session.run("alias = online")
    snapshot = session.run("sd = online.state_dict()").snapshot
    from tensorlab.core.lessons.transcript import tensor_table

    rows = {line.split()[0]: line for line in tensor_table(snapshot, indent="").splitlines()[1:]}
    assert rows["alias.weight"].startswith("alias.weight is online.weight ")
    assert not rows["sd['weight']"].startswith("sd['weight'] is")   # another tensor, same memory: no "is"
    assert name_text("s", None) == "s" and name_text("s", "r\u202e") == "s is r\\u202e"   # escaped
