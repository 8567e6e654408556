"""copy.copy / copy.deepcopy of FFI values and the runtime's ffi.DeepCopy: sharing and cycles
are kept, immutable leaves are shared, non-copyable types raise."""

from __future__ import annotations

import copy
import inspect
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing
from _structural_types import st_make_fixture  # noqa: F401 (the st_make fixture)
from tvm_ffi import structural_equal

DeepCopy = tvm_ffi.get_global_func("ffi.DeepCopy")


def test_sharing_is_kept() -> None:
    a = tvm_ffi.convert([1, 2])
    x = tvm_ffi.List([a, a, {"k": a}])
    y = copy.deepcopy(x)
    assert not y.same_as(x) and not y[0].same_as(a)
    assert y[0].same_as(y[1]) and y[0].same_as(y[2]["k"])
    assert structural_equal(DeepCopy([a, a]), [a, a])


def test_deepcopy_method_takes_an_optional_memo() -> None:
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    for copied in (pair.__deepcopy__(), pair.__deepcopy__({})):
        assert (copied.a, copied.b) == (1, 2) and not copied.same_as(pair)
    assert str(inspect.signature(type(pair).__deepcopy__)) == "(self, memo=None, /)"
    with pytest.raises(TypeError, match="at most 1 argument"):
        pair.__deepcopy__({}, {})


def test_cycles_through_mutable_and_immutable_containers() -> None:
    lst = tvm_ffi.List([1])
    lst.append(lst)
    lc = copy.deepcopy(lst)
    assert lc[1].same_as(lc) and not lc.same_as(lst)
    d = tvm_ffi.Dict()
    d["self"] = d
    dc = DeepCopy(d)
    assert dc["self"].same_as(dc)
    inner = tvm_ffi.List([1])
    arr = tvm_ffi.Array([inner])
    inner.append(arr)  # List -> Array -> List
    ic = copy.deepcopy(inner)
    assert ic[1][0].same_as(ic) and not ic[1].same_as(arr)
    dd = tvm_ffi.Dict()
    ad = tvm_ffi.Array([dd])
    dd["a"] = ad  # Array -> Dict -> Array: the Dict copy points at the Array copy
    ac = DeepCopy(ad)
    assert ac[0]["a"].same_as(ac)
    for cyclic in (lst, d, inner, dd, lc, dc, ic, ac[0]):
        cyclic.clear()  # break the cycles so everything is freed


def test_a_container_used_as_a_key_inside_itself_becomes_its_copy() -> None:
    d = tvm_ffi.Dict()
    root = tvm_ffi.Array([d])
    d["before"] = 1
    d[root] = 2
    d["after"] = 3
    copied = copy.deepcopy(root)
    keys = list(copied[0].keys())
    assert keys[0] == "before" and keys[2] == "after"  # entries keep their order
    assert keys[1].same_as(copied) and not copied.same_as(root)
    assert copied[0][copied] == 2
    m_dict = tvm_ffi.Dict()
    m_root = tvm_ffi.Map({"d": m_dict})
    m_dict[m_root] = m_root  # as key and as value
    m_copy = copy.deepcopy(m_root)
    (key, value), = m_copy["d"].items()
    assert key.same_as(m_copy) and value.same_as(m_copy)
    for cyclic in (d, m_dict, copied[0], m_copy["d"]):
        cyclic.clear()


def test_immutable_leaves_are_shared() -> None:
    s = tvm_ffi.convert("a string longer than seven bytes")
    shape = tvm_ffi.Shape((1, 2))
    copied = DeepCopy([s, shape, 2**70, b"bytes longer than seven"])
    assert copied[0] == s
    assert copied[1] == (1, 2) and copied[2] == 2**70
    assert DeepCopy(5) == 5 and DeepCopy(None) is None and DeepCopy("x") == "x"


def test_objects_are_cloned_with_their_fields_copied(st_make: Any) -> None:
    p = st_make("st.Node", 1, None)
    x = [p, p, {"k": p}]
    y = DeepCopy(x)
    assert not y[0].same_as(p) and y[0].same_as(y[1]) and y[0].same_as(y[2]["k"])
    child = tvm_ffi.List([1])
    node = st_make("st.Node", child, None)
    node_copy = copy.deepcopy(node)
    assert structural_equal(node_copy, node) and not node_copy.same_as(node)
    assert repr(node_copy) == "st.Node(val=[1], next=None)"
    shallow = copy.copy(node)
    assert not shallow.same_as(node) and repr(shallow) == repr(node)


def test_object_cycles(st_make: Any) -> None:
    holder = tvm_ffi.List()
    node = st_make("st.Node", 1, holder)
    holder.append(node)  # object -> List -> same object
    node_copy = DeepCopy(node)
    copied_holder = node_copy.next
    assert repr(node_copy) == "st.Node(val=1, next=[...])"
    assert copied_holder[0].same_as(node_copy) and not copied_holder.same_as(holder)
    arr_holder = tvm_ffi.List()
    wrapper = st_make("st.Node", tvm_ffi.Array([arr_holder]), None)
    arr_holder.append(wrapper)  # object -> Array -> List -> same object
    wrapper_copy = DeepCopy(wrapper)
    assert wrapper_copy.val[0][0].same_as(wrapper_copy)
    for cyclic in (holder, copied_holder, arr_holder, wrapper_copy.val[0]):
        cyclic.clear()  # break the cycles so everything is freed


def test_non_copyable_types_raise(st_make: Any) -> None:
    message = 'Cannot deep copy object of type "st.NoCopy" because it is not copy-constructible'
    with pytest.raises(RuntimeError, match=message):
        DeepCopy(st_make("st.NoCopy", 1))
    with pytest.raises(RuntimeError, match=message):
        copy.deepcopy(tvm_ffi.List([st_make("st.NoCopy", 1)]))
    with pytest.raises(RuntimeError, match='"ffi.Function"'):
        DeepCopy(DeepCopy)
    with pytest.raises(TypeError, match="does not support copy"):
        copy.copy(st_make("st.NoCopy", 1))


def test_functions_tensors_and_errors_copy_as_they_pickle() -> None:
    import numpy as np

    tensor = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    for value in (DeepCopy, tensor):
        for copier in (copy.copy, copy.deepcopy):
            with pytest.raises(TypeError, match="does not support ToJSONGraph"):
                copier(value)
    error = tvm_ffi.core.Error("ValueError", "bad value", "")
    for copied in (copy.copy(error), copy.deepcopy(error)):
        assert (copied.kind, copied.message) == ("ValueError", "bad value")
        assert not copied.same_as(error)


def test_shallow_copies_of_containers() -> None:
    inner = tvm_ffi.convert([2])
    lst = tvm_ffi.List([1, inner])
    c = copy.copy(lst)
    assert c == lst and not c.same_as(lst) and c[1].same_as(inner)
    m = tvm_ffi.Map({"a": inner})
    assert copy.copy(m)["a"].same_as(inner)
    assert copy.copy(tvm_ffi.Shape((1,))) == (1,)


def test_deep_chains_do_not_overflow_the_stack() -> None:
    value: Any = tvm_ffi.List()
    for _ in range(100_000):
        value = tvm_ffi.List([value])
    copied = DeepCopy(value)
    assert structural_equal(copied, value)
