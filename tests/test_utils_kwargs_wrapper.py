"""tvm_ffi.utils.kwargs_wrapper: keyword calls with defaults over positional functions."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper, make_kwargs_wrapper_from_signature
from tvm_ffi.utils.unpack_dataclass import unpack_dataclass_to_tuple


def collect(*args: Any) -> tuple:
    return args


def test_positional_keyword_and_defaults() -> None:
    f = make_kwargs_wrapper(collect, ["a", "b", "c"], arg_defaults=(20, [1]), kwonly_names=["k", "j"],
                            kwonly_defaults={"j": "x"})
    assert f(1, k=0) == (1, 20, [1], 0, "x")
    assert f(1, 2, 3, j=5, k=4) == (1, 2, 3, 4, 5)
    assert f(c=3, b=2, a=1, k=None) == (1, 2, 3, None, "x")
    sig = inspect.signature(f)
    assert str(sig) == "(a, b=20, c=[1], *, k, j='x')"
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'k'"):
        f(1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        f(1, k=0, z=1)


def test_wraps_an_ffi_function() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    f = make_kwargs_wrapper(echo, ["value"], arg_defaults=(7,))
    assert f() == 7
    assert f(value="hi") == "hi"


def test_prototype_metadata() -> None:
    def proto(a: int, b: int = 2) -> int:
        """Adds."""
        return a + b

    f = make_kwargs_wrapper(collect, ["a", "b"], (2,), prototype=proto)
    assert f.__name__ == "proto" and f.__doc__ == "Adds." and f.__wrapped__ is proto


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"arg_names": ["a", "a"]}, ValueError, "Duplicate argument names"),
        ({"arg_names": ["a", 1]}, TypeError, "Argument name must be a string, got int"),
        ({"arg_names": ["class"]}, ValueError, "is a Python keyword"),
        ({"arg_names": ["a-b"]}, ValueError, "not a valid Python identifier"),
        ({"arg_names": ["a"], "arg_defaults": [1]}, TypeError, "arg_defaults must be a tuple, got list"),
        ({"arg_names": ["a"], "arg_defaults": (1, 2)}, ValueError, "arg_defaults has 2 values but only 1"),
        ({"arg_names": [], "kwonly_names": ["k"], "kwonly_defaults": {"z": 1}}, ValueError, "'z' which is not in"),
        ({"arg_names": ["a"], "kwonly_names": ["a"]}, ValueError, "both positional and keyword-only"),
        ({"arg_names": ["__i_target_func"]}, ValueError, "conflict with internal names"),
    ],
)
def test_invalid_specifications(kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        make_kwargs_wrapper(collect, **kwargs)


def test_from_signature() -> None:
    def proto(self: Any, a: int, b: int = 1, *, c: int, d: int = 4) -> None: ...

    f = make_kwargs_wrapper_from_signature(collect, inspect.signature(proto), exclude_arg_names=["self", "nope"])
    assert f(0, c=3) == (0, 1, 3, 4)

    def star(*args: Any) -> None: ...

    def starstar(**kw: Any) -> None: ...

    with pytest.raises(ValueError, match=r"\*args not supported"):
        make_kwargs_wrapper_from_signature(collect, inspect.signature(star))
    with pytest.raises(ValueError, match=r"\*\*kwargs not supported"):
        make_kwargs_wrapper_from_signature(collect, inspect.signature(starstar))
    bad = inspect.Signature([
        inspect.Parameter("a", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1),
        inspect.Parameter("b", inspect.Parameter.POSITIONAL_ONLY),
    ], __validate_parameters__=False)
    with pytest.raises(ValueError, match="Required positional parameter 'b' cannot follow"):
        make_kwargs_wrapper_from_signature(collect, bad)


@dataclasses.dataclass
class Inner:
    x: int
    y: list


@dataclasses.dataclass
class Outer:
    inner: Inner
    name: str


def test_map_dataclass_to_tuple() -> None:
    f = make_kwargs_wrapper(collect, ["cfg", "plain"], map_dataclass_to_tuple=["cfg"])
    cfg = Outer(Inner(1, [Inner(2, [])]), "n")
    assert f(cfg, plain=cfg) == (((1, [(2, [])]), "n"), cfg)


def test_unpack_dataclass_to_tuple() -> None:
    from collections import namedtuple

    Pair = namedtuple("Pair", ["a", "b"])
    leaf = object()
    value = {"k": (Inner(1, [leaf]), Pair(Inner(2, []), 3))}
    out = unpack_dataclass_to_tuple(value)
    assert out == {"k": ((1, [leaf]), Pair((2, []), 3))}
    assert type(out["k"][1]) is Pair and out["k"][0][1][0] is leaf
    assert unpack_dataclass_to_tuple(leaf) is leaf
