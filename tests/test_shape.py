"""tvm_ffi.Shape: a tuple of ints backed by the runtime's shape object."""

from __future__ import annotations

import pickle

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401


def test_shape_is_a_tuple_of_ints() -> None:
    s = tvm_ffi.Shape((2, 3))
    assert isinstance(s, tuple) and s == (2, 3) and s[0] == 2 and len(s) == 2
    assert repr(s) == "(2, 3)"
    assert tvm_ffi.Shape() == ()
    assert tvm_ffi.Shape(range(3)) == (0, 1, 2)


def test_shape_from_any_iterable_and_in_subclasses() -> None:
    assert tvm_ffi.Shape(d for d in (4, 5)) == (4, 5)
    assert tvm_ffi.Shape([np_int := 7]) == (np_int,)

    class Dims(tvm_ffi.Shape):
        pass

    dims = Dims((1, 2))
    assert type(dims) is Dims and dims == (1, 2)
    assert tvm_ffi.get_global_func("testing.echo")(dims) == (1, 2)


def test_shape_rejects_non_int_dimensions() -> None:
    with pytest.raises(TypeError, match="#1 must be an int, got float"):
        tvm_ffi.Shape((2, 3.5))
    with pytest.raises(TypeError, match="#0 must be an int, got bool"):
        tvm_ffi.Shape((True,))
    with pytest.raises(TypeError, match="#1 must be an int, got str"):
        tvm_ffi.Shape(d for d in (1, "2"))  # a generator is read once, also when it fails


def test_shape_passes_as_the_runtime_shape_object() -> None:
    s = tvm_ffi.Shape((4, 5))
    make_array = tvm_ffi.get_global_func("ffi.Array")
    held = make_array(s)[0]
    assert isinstance(held, tvm_ffi.Shape) and held == (4, 5)
    assert make_array(held)[0] == (4, 5)  # and passes back as the same runtime object
    assert tvm_ffi.get_global_func("ffi.Shape")(7, 8) == tvm_ffi.Shape((7, 8))


def test_shape_keeps_its_runtime_object_through_calls() -> None:
    s = tvm_ffi.Shape((10, 8))
    echoed = tvm_ffi.convert(lambda x: x)(s)
    assert isinstance(echoed, tvm_ffi.Shape)
    assert echoed._tvm_ffi_cached_object.same_as(s._tvm_ffi_cached_object)
    assert tvm_ffi.convert(s)._tvm_ffi_cached_object.same_as(s._tvm_ffi_cached_object)


def test_a_shape_subclass_protocol_override_is_called() -> None:
    # A Shape that already holds its runtime object passes it without calling
    # __tvm_ffi_object__; a subclass's own protocol method is still what decides.
    made = tvm_ffi.Shape((3, 4))
    calls: list[int] = []

    class Logged(tvm_ffi.Shape):
        def __tvm_ffi_object__(self) -> tvm_ffi.Object:
            calls.append(1)
            return made.__tvm_ffi_object__()

    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(Logged((9, 9))) == (3, 4) and calls == [1]
    lazy = tuple.__new__(tvm_ffi.Shape, (5, 6))  # no runtime object yet: made on first pass
    assert echo(lazy) == (5, 6) and lazy._tvm_ffi_object is not None


def test_shape_pickles_by_value() -> None:
    s = tvm_ffi.Shape((1, 2, 3))
    copy = pickle.loads(pickle.dumps(s))
    assert isinstance(copy, tvm_ffi.Shape) and copy == s


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_shape_pickles_at_every_protocol_also_inside_containers(protocol: int) -> None:
    s = tvm_ffi.Shape((2, -1, 2**40))
    copy = pickle.loads(pickle.dumps(s, protocol=protocol))
    assert type(copy) is tvm_ffi.Shape and copy == (2, -1, 2**40)
    assert not copy.__tvm_ffi_object__().same_as(s.__tvm_ffi_object__())  # a new runtime object
    held = pickle.loads(pickle.dumps(tvm_ffi.Array([s, {"shape": s}]), protocol=protocol))
    assert type(held[0]) is tvm_ffi.Shape and held[0] == s and held[1]["shape"] == s


def test_shape_reads_like_a_tuple() -> None:
    s = tvm_ffi.Shape((1, 2, 3, 4))
    assert s[-1] == 4 and s[1:3] == (2, 3) and s[::-2] == (4, 2) and s[::2] == (1, 3)
    assert list(s) == [1, 2, 3, 4] and 3 in s and 5 not in s and len(s) == 4
    assert hash(s) == hash((1, 2, 3, 4)) and {s: "v"}[(1, 2, 3, 4)] == "v"
    with pytest.raises(IndexError):
        s[4]
    with pytest.raises(IndexError):
        s[-5]


def test_shape_equality_in_both_directions() -> None:
    s = tvm_ffi.Shape((2, 3))
    for same in ((2, 3), tvm_ffi.Shape((2, 3)), tvm_ffi.get_global_func("ffi.Shape")(2, 3)):
        assert s == same and same == s and not (s != same)
    for different in ((2,), (3, 2), (2, 3, 1), [2, 3], "(2, 3)", None):  # a list is not a tuple
        assert s != different and different != s and not (s == different)


def test_shape_repr_and_empty_shape() -> None:
    # Printed as the tuple it is, like the reference; the runtime's own form is Shape(1, 2).
    assert repr(tvm_ffi.Shape((5,))) == "(5,)"
    assert repr(tvm_ffi.Shape()) == "()" and len(tvm_ffi.Shape()) == 0
    assert str(tvm_ffi.Shape((1, 2))) == "(1, 2)"
    assert repr(tvm_ffi.Array([tvm_ffi.Shape((1, 2))])) == "(Shape(1, 2),)"
