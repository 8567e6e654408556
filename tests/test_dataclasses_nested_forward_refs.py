"""@py_class fields whose annotations quote a class name inside a generic: ``Optional["Node"]``.

This module deliberately has no ``from __future__ import annotations``: the annotations below are
evaluated when the class body runs, so the quoted names reach py_class as ``typing.ForwardRef``
objects nested in ``Optional``/``List``/``Dict`` (or as text inside ``list[...]``).
"""

# typing.List/Dict on purpose: they turn quoted arguments into ForwardRef objects, list[...] keeps text.
# ruff: noqa: UP006, UP035
from typing import Dict, List, Optional

import pytest
import tvm_ffi
from tvm_ffi.dataclasses import fields, py_class


@py_class("dc_nested_ref.Node")
class Node(tvm_ffi.Object):
    val: int
    next: Optional["Node"] = None
    kids: List["Node"] = ()
    named: Dict[str, "Node"] = {}  # noqa: RUF012 -- converted into an immutable Map per instance
    more: list["Node"] = ()


@py_class("dc_nested_ref.Holder")
class Holder(tvm_ffi.Object):
    item: Optional["DefinedLater"] = None  # completes when DefinedLater is decorated


@py_class("dc_nested_ref.DefinedLater")
class DefinedLater(tvm_ffi.Object):
    x: int = 0


def test_self_reference_inside_optional_and_containers() -> None:
    leaf = Node(3)
    n = Node(1, Node(2), [leaf], {"a": leaf}, [leaf])
    assert n.next.val == 2 and type(n.next) is Node
    assert n.kids[0].same_as(leaf) and n.named["a"].same_as(leaf) and n.more[0].same_as(leaf)
    assert [f.name for f in fields(Node)] == ["val", "next", "kids", "named", "more"]


def test_self_reference_checks_the_element_type() -> None:
    with pytest.raises(TypeError, match=r"field 'next':\n  expected dc_nested_ref.Node, got int"):
        Node(1, 5)
    with pytest.raises(TypeError, match=r"field 'kids'"):
        Node(1, None, [1])


def test_reference_to_a_class_defined_later() -> None:
    h = Holder(DefinedLater(4))
    assert h.item.x == 4
    with pytest.raises(TypeError, match=r"expected dc_nested_ref.DefinedLater, got int"):
        Holder(5)
