"""View patches: diff then apply gives the new value; one HP change is one small op."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from fray_table.server.patch import apply, diff

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=20,
)


def test_one_field_change_is_one_op():
    old = {"round": 1, "combatants": [{"id": "a", "hp": 5}, {"id": "b", "hp": 4}]}
    new = copy.deepcopy(old)
    new["combatants"][1]["hp"] = 1
    assert diff(old, new) == [[["combatants", 1, "hp"], 1]]


def test_removed_key_and_resized_list():
    old = {"a": 1, "b": [1, 2], "c": {"x": 1}}
    new = {"b": [1, 2, 3], "c": {"x": 1}, "d": None}
    ops = diff(old, new)
    assert ops == [[["b", 2], 3], [["d"], None], [["a"]]]
    assert apply(copy.deepcopy(old), ops) == new


def test_shrunk_list_is_replaced_whole():
    assert diff({"a": [1, 2, 3]}, {"a": [1, 2]}) == [[["a"], [1, 2]]]


def test_equal_values_give_no_ops():
    assert diff({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) == []


def test_type_change_replaces():
    assert diff({"a": [1]}, {"a": {"0": 1}}) == [[["a"], {"0": 1}]]
    assert apply(1, diff(1, [2])) == [2]


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_apply_of_diff_gives_the_new_value(old, new):
    assert apply(copy.deepcopy(old), diff(old, new)) == new
