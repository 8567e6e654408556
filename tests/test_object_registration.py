"""``register_object``: binding Python classes to object types that C code registers at run time,
so objects of those types come back from calls as instances of the classes."""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import tvm_ffi
import tvm_ffi.testing as t  # imported up front: its enum members are made once, not inside a test
from _kernel_lib import build_kernel, load_kernel
from leakcheck import no_ffi_leaks  # noqa: F401

OBJECT_INDEX = 64  # ffi.Object


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kernel(tmp_path_factory.mktemp("kernel"))


@pytest.fixture(scope="module")
def mod(kernel: Path) -> tvm_ffi.Module:
    return load_kernel(kernel)


@pytest.fixture
def type_keys(mod: tvm_ffi.Module) -> Iterator[tuple[str, int, str, int]]:
    """A fresh runtime type and a child type of it: (key, index, child_key, child_index)."""
    base = f"testing.pylayer.Value{uuid.uuid4().hex[:8]}"
    base_index = mod.alloc_type(base, OBJECT_INDEX)
    child_index = mod.alloc_type(base + "Child", base_index)
    live = mod.live_objects()
    yield base, base_index, base + "Child", child_index
    gc.collect()
    assert mod.live_objects() == live  # every object made by the test was released


def test_results_come_back_as_the_registered_class(mod: tvm_ffi.Module, type_keys: tuple) -> None:
    key, index, _, _ = type_keys

    @tvm_ffi.register_object(key)
    class Value(tvm_ffi.Object):
        @property
        def value(self) -> int:
            return mod.object_value(self)

    obj = mod.make_object(index, 7)
    assert type(obj) is Value
    assert obj.value == 7 and obj.type_key == key and obj.type_index == index
    assert Value.__tvm_ffi_type_key__ == key and Value.__tvm_ffi_type_index__ == index
    # passing it back passes the same object
    same = tvm_ffi.get_global_func("ffi.ArrayGetItem")(tvm_ffi.get_global_func("ffi.Array")(obj), 0)
    assert type(same) is Value and same.same_as(obj) and same == obj


def test_child_types_get_a_class_under_the_nearest_registered_one(mod: tvm_ffi.Module, type_keys: tuple) -> None:
    key, _, child_key, child_index = type_keys

    @tvm_ffi.register_object(key)
    class Base(tvm_ffi.Object):
        pass

    synthesised = type(mod.make_object(child_index, 1))
    assert synthesised is not Base and issubclass(synthesised, Base)
    assert synthesised.__name__ == child_key.rpartition(".")[2]
    assert "Auto-generated fallback class" in (synthesised.__doc__ or "")

    @tvm_ffi.register_object(child_key)
    class Child(Base):
        pass

    assert type(mod.make_object(child_index, 2)) is Child


def test_unregistered_types_get_a_generated_class(mod: tvm_ffi.Module, type_keys: tuple) -> None:
    key, index, _, _ = type_keys
    obj = mod.make_object(index, 3)
    assert isinstance(obj, tvm_ffi.Object) and obj.type_key == key
    module, _, name = key.rpartition(".")
    assert (type(obj).__module__, type(obj).__name__) == (module, name)  # named after the type key
    assert mod.object_value(obj) == 3
    assert type(mod.make_object(index, 4)) is type(obj)  # generated once, then cached


def test_bare_decorator_uses_the_class_name(kernel: Path) -> None:
    # Run apart: a dot-less type key must not join this process's type table, where every key
    # is expected to start with `ffi.` or `testing.`.
    code = """if True:
        import sys, tvm_ffi
        mod = tvm_ffi.load_module(sys.argv[1])
        index = mod.alloc_type("PylayerBare", 64)

        @tvm_ffi.register_object
        class PylayerBare(tvm_ffi.Object):
            pass

        print(type(mod.make_object(index, 0)) is PylayerBare, PylayerBare.__tvm_ffi_type_key__)
    """
    out = subprocess.run([sys.executable, "-c", code, str(kernel)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "PylayerBare"]


def test_registered_classes_cannot_be_constructed_without_init(type_keys: tuple) -> None:
    key = type_keys[0]

    @tvm_ffi.register_object(key)
    class NoInit(tvm_ffi.Object):
        pass

    with pytest.raises(TypeError, match="`NoInit` cannot be constructed directly"):
        NoInit()


def test_classes_that_define_init_keep_it(mod: tvm_ffi.Module, type_keys: tuple) -> None:
    key, index, _, _ = type_keys

    @tvm_ffi.register_object(key)
    class Constructible(tvm_ffi.Object):
        def __init__(self, value: int) -> None:
            self.__init_handle_by_constructor__(mod.make_object, index, value)

    obj = Constructible(11)
    assert mod.object_value(obj) == 11 and obj.type_key == key


def test_init_false_leaves_init_alone(type_keys: tuple) -> None:
    @tvm_ffi.register_object(type_keys[0], init=False)
    class Later(tvm_ffi.Object):
        pass

    assert Later.__init__ is tvm_ffi.Object.__init__


def test_unknown_type_key_is_a_clear_error() -> None:
    # The reference's text: users match on it.
    with pytest.raises(ValueError, match=r"^Cannot find object type index for testing.pylayer.DoesNotExist$"):

        @tvm_ffi.register_object("testing.pylayer.DoesNotExist")
        class Orphan(tvm_ffi.Object):
            pass


def test_register_object_argument_errors() -> None:
    with pytest.raises(TypeError, match="type_key must be a str, got int"):
        tvm_ffi.register_object(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decorates classes"):
        tvm_ffi.register_object("ffi.Object")(lambda: None)


def test_builtin_module_class_is_registered(mod: tvm_ffi.Module) -> None:
    assert type(mod) is tvm_ffi.Module
    assert tvm_ffi.Module.__tvm_ffi_type_key__ == "ffi.Module"


class _ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


class _FieldInfo(ctypes.Structure):  # TVMFFIFieldInfo, 120 bytes
    _fields_ = [
        ("name", _ByteArray), ("doc", _ByteArray), ("metadata", _ByteArray),
        ("flags", ctypes.c_int64), ("size", ctypes.c_int64), ("alignment", ctypes.c_int64),
        ("offset", ctypes.c_int64), ("getter", ctypes.c_void_p), ("setter", ctypes.c_void_p),
        ("default_type_index", ctypes.c_int32), ("default_pad", ctypes.c_uint32),
        ("default_value", ctypes.c_int64), ("field_static_type_index", ctypes.c_int32),
    ]


def _register_value_field(kernel: Path, index: int, name: bytes) -> ctypes.Array:
    """Registers a read-only int64 field at offset 24 read by the kernel's C getter."""
    buffer = ctypes.create_string_buffer(name)
    info = _FieldInfo()
    info.name.data, info.name.size = ctypes.addressof(buffer), len(name)
    info.size = info.alignment = 8
    info.offset = 24
    info.getter = ctypes.cast(ctypes.CDLL(str(kernel)).pylayer_value_getter, ctypes.c_void_p).value
    info.field_static_type_index = 1
    register = tvm_ffi.LIB.TVMFFITypeRegisterField
    register.argtypes = [ctypes.c_int32, ctypes.POINTER(_FieldInfo)]
    assert register(index, ctypes.byref(info)) == 0
    return buffer


def test_reflected_fields_registered_after_the_class_are_picked_up(kernel: Path, mod: tvm_ffi.Module,
                                                                   type_keys: tuple) -> None:
    key, index, _, child_index = type_keys

    @tvm_ffi.register_object(key)
    class Late(tvm_ffi.Object):
        pass

    obj = mod.make_object(index, 5)
    with pytest.raises(AttributeError, match="'Late' object has no attribute 'value'"):
        obj.value  # noqa: B018
    _register_value_field(kernel, index, b"value")
    assert obj.value == 5  # the C getter, found once the field exists
    assert mod.make_object(child_index, 6).value == 6  # inherited by the synthesised child class
    with pytest.raises(AttributeError, match="no setter|can't set attribute"):
        obj.value = 7
    assert [f.name for f in Late.__tvm_ffi_type_info__.fields] == ["value"]


def test_types_with_registered_reflection_get_no_miss_hook() -> None:
    # The enum fixtures register metadata but no fields or methods of their own: their
    # reflection is complete, so attribute misses need not look again (a hook slows every read).
    for cls in (t._TestCxxIntEnum, t._TestCxxStrEnum):
        assert cls.__tvm_ffi_type_info__.metadata and not cls.__tvm_ffi_type_info__.fields
        assert "__getattr__" not in cls.__dict__
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        t._TestCxxIntEnum.high.missing  # noqa: B018
