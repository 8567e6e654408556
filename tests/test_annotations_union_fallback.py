"""String annotations with ``a | b`` resolve on every Python (3.9 has no ``type | type``).

Reflected classes evaluate their annotations; before 3.10 the failing ``|`` is re-read as
``typing.Union``. The fallback is forced here so that it is exercised on any interpreter: a
quoted name on the left of ``|`` fails on every version, as ``int | None`` fails on 3.9.
"""

from __future__ import annotations

from typing import Optional, Union

import pytest
from tvm_ffi import _annotations
from tvm_ffi._annotations import eval_annotation, type_hints


@pytest.fixture
def before_pep604(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_annotations, "_HAS_PEP604", False)


class Leaf:
    pass


class Annotated:
    a: "'Leaf' | None"  # noqa: UP037 -- the quotes are the point: '...' | None fails everywhere
    b: int


def test_bit_or_reads_as_union_when_the_interpreter_cannot(before_pep604: None) -> None:
    assert eval_annotation("'Leaf' | None", globals()) == Optional["Leaf"]
    assert eval_annotation("'Leaf' | int | str", globals()) == Union["Leaf", int, str]
    assert eval_annotation("list['Leaf' | int]", globals()) == list[Union["Leaf", int]]


def test_other_errors_are_not_hidden(before_pep604: None) -> None:
    with pytest.raises(NameError):
        eval_annotation("Missing | None", globals())
    with pytest.raises(TypeError):
        eval_annotation("int + None", globals())


def test_with_pep604_the_error_stands() -> None:
    if not _annotations._HAS_PEP604:
        pytest.skip("the interpreter has no PEP 604 unions")
    with pytest.raises(TypeError):
        eval_annotation("'Leaf' | None", globals())


def test_type_hints_of_a_class_fall_back_per_annotation(before_pep604: None) -> None:
    assert type_hints(Annotated) == {"a": Optional["Leaf"], "b": int}
