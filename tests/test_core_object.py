"""The value and object types of tvm_ffi._core: Object, ObjectRValueRef, OpaquePyObject,
String, Bytes, Device, DataType, and the type-index -> class table."""

from __future__ import annotations

import ctypes
import pickle
import weakref
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing
from _core_plugin import plugin
from leakcheck import live_objects, no_ffi_leaks  # noqa: F401
from tvm_ffi import _core

P = plugin()
echo = P.fn("echo")
use_count = P.fn("use_count")
ARRAY_INDEX = _core._object_type_key_to_index("ffi.Array")


def make_array(*items: object) -> _core.Object:
    return _core._get_global_func("ffi.Array", False)(*items)


def make_plain_object() -> _core.Object:
    """An object whose class adds no value semantics (identity equality, no pickling)."""
    return _core._convert_to_ffi_func(lambda: None)


def test_empty_object() -> None:
    obj = _core.Object.__new__(_core.Object)
    assert obj.__chandle__() == 0
    assert repr(obj) == "Object(chandle=None)"
    with pytest.raises(ValueError, match="no FFI handle"):
        _ = obj.type_index
    assert obj == obj and obj != _core.Object.__new__(_core.Object)
    with pytest.raises(ValueError, match="no FFI handle"):
        echo(obj)


def test_identity_equality_and_hash() -> None:
    a = make_plain_object()
    b = echo(a)
    assert a is not b
    assert a.same_as(b) and a == b and hash(a) == hash(b)
    assert a.__chandle__() == b.__chandle__() != 0
    c = make_plain_object()
    assert not a.same_as(c) and a != c
    assert not a.same_as(1) and a != 1
    assert {a: 1}[b] == 1
    assert repr(a) == "ffi.Function"  # the runtime's ReprPrint: a type without printable fields


def test_handle_accessors_of_the_reference_api() -> None:
    a = make_plain_object()
    b = echo(a)
    assert a.is_(b) and not a.is_(make_plain_object()) and not a.is_(None)
    assert a.id_ == b.id_ == a.__chandle__() != 0
    handle = a.__ctypes_handle__()
    assert isinstance(handle, ctypes.c_void_p) and handle.value == a.__chandle__()
    empty = _core.Object.__new__(_core.Object)
    assert empty.id_ == 0 and empty.__ctypes_handle__().value is None


def test_type_index_and_key() -> None:
    a = make_array()
    assert a.type_index == ARRAY_INDEX == 71
    assert a.type_key == "ffi.Array"
    assert _core._type_index_to_key(71) == "ffi.Array"
    assert _core._type_index_ancestors(71) == [64]
    assert _core._type_index_ancestors(64) == []
    assert _core._object_type_key_to_index("ffi.Object") == 64
    assert _core._object_type_key_to_index("testing.core.no_such_type") is None
    with pytest.raises(ValueError, match="not registered"):
        _core._type_index_to_key(123456)
    with pytest.raises(ValueError, match="not registered"):
        _core._type_index_ancestors(-5)


def test_wrappers_hold_one_reference() -> None:
    a = make_array(1, 2)
    assert use_count(a) == 1
    b = echo(a)
    assert use_count(a) == 2
    del b
    assert use_count(a) == 1


def test_wrappers_take_no_weak_references_as_in_the_reference() -> None:
    class Slotted(_core.Object):
        __slots__ = ()

    obj = Slotted.__new__(Slotted)
    obj.__move_handle_from__(make_array(3))
    assert obj.type_key == "ffi.Array"
    echo = tvm_ffi.get_global_func("testing.echo")
    for value in (obj, tvm_ffi.convert([1]), echo, tvm_ffi.testing.TestIntPair(1, 2)):
        with pytest.raises(TypeError, match="cannot create weak reference"):
            weakref.ref(value)


def test_registered_class_for_results() -> None:
    class MyArray(_core.Object):
        __slots__ = ()

    before = type(make_array())
    _core._register_object_class(ARRAY_INDEX, MyArray)
    try:
        result = make_array(1, 2)
        assert type(result) is MyArray
        assert _core._get_global_func("ffi.ArraySize", False)(result) == 2
    finally:
        _core._register_object_class(ARRAY_INDEX, before)
    assert type(make_array()) is before
    with pytest.raises(TypeError, match="subclass of tvm_ffi Object"):
        _core._register_object_class(ARRAY_INDEX, int)
    with pytest.raises(ValueError, match="not registered"):
        _core._register_object_class(99999, MyArray)


def test_move_and_rvalue_ref() -> None:
    a = make_array(1)
    b = _core.Object.__new__(_core.Object)
    b.__move_handle_from__(a)
    assert a.__chandle__() == 0 and b.type_key == "ffi.Array"
    ref = b._move()
    assert isinstance(ref, _core.ObjectRValueRef) and ref.obj is b
    taken = P.fn("take")(ref)
    assert b.__chandle__() == 0 and taken.type_key == "ffi.Array"
    with pytest.raises(TypeError, match="expects an FFI Object"):
        _core.ObjectRValueRef(1)


def test_objects_without_a_json_graph_form_do_not_pickle() -> None:
    with pytest.raises(TypeError, match="Type `ffi.Function` does not support ToJSONGraph"):
        pickle.dumps(make_plain_object())


def test_opaque_py_object_wrapper() -> None:
    class Payload:
        pass

    payload = Payload()
    holder = _core.OpaquePyObject.__new__(_core.OpaquePyObject)
    # echo returns the opaque FFI object made for `payload`; the wrapper adopts it as is.
    holder.__init_handle_by_constructor__(echo, payload)
    assert holder.type_key == "ffi.OpaquePyObject"
    assert holder.pyobject() is payload
    # Passed back to C, it is the same object, and it converts to the payload itself.
    assert echo(holder) is payload


def test_string_and_bytes_types() -> None:
    s = _core.String("text")
    assert s == "text" and isinstance(s, str) and s._tvm_ffi_cached_object is None
    b = _core.Bytes(b"data")
    assert b == b"data" and isinstance(b, bytes) and b._tvm_ffi_cached_object is None
    assert echo(s) == "text" and echo(b) == b"data"
    assert pickle.loads(pickle.dumps(s)) == "text"
    assert type(pickle.loads(pickle.dumps(b))) is bytes

    class MyString(_core.String):
        pass

    mine = MyString("long enough to be an object")
    assert echo(mine) == "long enough to be an object"


@pytest.mark.parametrize("make", [lambda: _core.String("text"), lambda: _core.Bytes(b"data"),
                                  lambda: _core.ObjectRValueRef(make_array(1))])
def test_python_messages_name_the_value_types_as_the_reference_does(make: Any) -> None:
    value = make()
    name = type(value).__name__
    assert type(value).__module__ == "tvm_ffi.core" and repr(type(value)) == f"<class 'tvm_ffi.core.{name}'>"
    with pytest.raises(AttributeError, match=f"^'{name}' object has no attribute 'missing'$"):
        value.missing  # noqa: B018


def test_device() -> None:
    assert str(_core.Device("cuda", 1)) == "cuda:1"
    assert _core.Device("cuda:2").index == 2
    assert _core.Device("cuda:2", 5).index == 2  # an index in the string wins
    assert _core.Device("cpu").index == 0
    assert _core.Device("mps").type == "metal"
    assert _core.Device("wgpu:1").type == "webgpu"
    assert _core.Device(2, 3) == _core.Device("cuda:3")
    assert _core.Device("rocm_host").dlpack_device_type() == 11
    dev = _core.Device("vulkan", 4)
    assert repr(dev) == "device(type='vulkan', index=4)"
    assert dev.__device_type_name__() == "vulkan"
    assert hash(dev) == hash(_core.Device("vulkan:4"))
    assert dev != _core.Device("vulkan", 5) and dev != "vulkan:4"
    assert pickle.loads(pickle.dumps(dev)) == dev
    with pytest.raises(ValueError, match="Unknown device: nope"):
        _core.Device("nope:1")
    for bad in ("cuda:x", "cuda:", "cuda:--1", "cuda:1.5"):  # ("cuda:-1" is index -1)
        with pytest.raises(ValueError, match="Invalid device index"):
            _core.Device(bad)
    with pytest.raises(TypeError):
        _core.Device(1.5)
    with pytest.raises(TypeError):
        _core.Device("cuda", "1")
    assert str(_core.Device(99, 0)) == "99:0"
    with pytest.raises(ValueError, match="Unknown device type"):
        _ = _core.Device(99, 0).type


def test_datatype() -> None:
    f32x4 = _core.DataType("float32x4")
    assert (f32x4.type_code, f32x4.bits, f32x4.lanes, f32x4.itemsize) == (2, 32, 4, 16)
    assert str(f32x4) == "float32x4"
    assert _core.DataType("bool").itemsize == 1
    assert _core.DataType("float4_e2m1fn").itemsize == 1
    assert _core.DataType("int8") == _core.DataType("i8")
    assert hash(_core.DataType("int8")) == hash(_core.DataType("int8"))
    assert _core.DataType("int8") != _core.DataType("uint8")
    assert pickle.loads(pickle.dumps(f32x4)) == f32x4
    with pytest.raises(ValueError):
        _core.DataType("complex64")
    with pytest.raises(ValueError, match="scalable"):
        _ = _core.DataType("float32xvscalex4").itemsize


def test_sentinels() -> None:
    assert isinstance(_core.MISSING, _core.Object)
    assert isinstance(_core.KWARGS, _core.Object)
    assert not _core.MISSING.same_as(_core.KWARGS)
    assert _core._get_global_func("ffi.GetInvalidObject", False)().same_as(_core.MISSING)


def test_env_stream() -> None:
    assert _core._env_get_current_stream(2, 0) == 0
    assert _core._env_set_current_stream(2, 0, 0x1234) == 0
    try:
        assert _core._env_get_current_stream(2, 0) == 0x1234
    finally:
        assert _core._env_set_current_stream(2, 0, None) == 0x1234
    assert _core._env_get_current_stream(2, 0) == 0


def test_env_stream_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="takes exactly 2 arguments"):
        _core._env_get_current_stream(2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes exactly 3 arguments"):
        _core._env_set_current_stream(2, 0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _core._env_get_current_stream("cuda", 0)  # type: ignore[arg-type]
    for device in ((-1, 0), (2, -1), (2, 2**31)):
        with pytest.raises(ValueError, match="must have a type and an id"):
            _core._env_get_current_stream(*device)
        with pytest.raises(ValueError, match="must have a type and an id"):
            _core._env_set_current_stream(*device, 0)
    with pytest.raises(TypeError, match="stream must be an int address"):
        _core._env_set_current_stream(2, 0, "stream")  # type: ignore[arg-type]


def test_live_object_count_tracks_objects() -> None:
    before = live_objects()
    arrays = [make_array(i) for i in range(10)]
    assert live_objects() == before + 10
    del arrays
    assert live_objects() == before
