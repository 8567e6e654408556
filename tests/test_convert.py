"""The package's top level: explicit conversion (convert, convert_func), the sentinels, the
`tvm_ffi.core` alias, and the names every user imports."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from typing import Any

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core


def test_convert_strings_and_bytes_keep_their_ffi_object() -> None:
    for value, cls in (("hi", core.String), ("x" * 100, core.String), (b"hi", core.Bytes), (b"y" * 100, core.Bytes)):
        converted = tvm_ffi.convert(value)
        assert type(converted) is cls and converted == value
    assert tvm_ffi.convert(bytearray(b"abc")) == b"abc"


def test_convert_plain_values_pass_through() -> None:
    ptr = ctypes.c_void_p(0x1234)
    dev = tvm_ffi.device("cuda:0")
    for value in (1, 2.5, True, None, ptr, dev, tvm_ffi.float32):
        assert tvm_ffi.convert(value) is value
    func = tvm_ffi.get_global_func("ffi.String")
    assert tvm_ffi.convert(func) is func  # FFI objects as they are


def test_convert_callables_and_exceptions() -> None:
    f = tvm_ffi.convert(lambda x: x + 1)
    assert isinstance(f, tvm_ffi.Function) and f(1) == 2
    err = tvm_ffi.convert(KeyError("k"))
    assert isinstance(err, core.Error) and err.kind == "KeyError"


def test_convert_sequences_become_arrays() -> None:
    arr = tvm_ffi.convert([1, "two", 3.0])
    assert isinstance(arr, tvm_ffi.Object) and arr.type_key == "ffi.Array"
    assert tvm_ffi.registry.array_to_list(arr) == [1, "two", 3.0]
    assert tvm_ffi.registry.array_to_list(tvm_ffi.convert((4, 5))) == [4, 5]


def test_convert_protocols() -> None:
    class HasObject:
        def __init__(self, obj: tvm_ffi.Object) -> None:
            self.obj = obj

        def __tvm_ffi_object__(self) -> tvm_ffi.Object:
            return self.obj

    class HasDataType:
        def __dlpack_data_type__(self) -> tuple[int, int, int]:
            return (2, 16, 1)

    func = tvm_ffi.get_global_func("ffi.String")
    assert tvm_ffi.convert(HasObject(func)) is func
    assert tvm_ffi.convert(HasDataType()) == "float16"


def test_convert_other_objects_are_opaque() -> None:
    payload = object()
    converted = tvm_ffi.convert(payload)
    assert type(converted) is core.OpaquePyObject and converted.pyobject() is payload
    # handed to C and back, an OpaquePyObject gives back the object it holds
    echo = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    assert echo(tvm_ffi.Array([converted]), 0) is payload
    # passed to C as an opaque object, and the very same object comes back
    arr = tvm_ffi.convert([payload])
    assert tvm_ffi.registry.array_to_list(arr)[0] is payload


def test_convert_classes_are_functions_like_other_callables() -> None:
    # a class is callable: it becomes a Function that constructs, as in the reference
    make_list = tvm_ffi.convert(list)
    assert type(make_list) is core.Function
    assert make_list() == []


def test_convert_opaque_keeps_the_object_alive_exactly_as_long_as_needed() -> None:
    class Payload:
        pass

    payload = Payload()
    before = sys.getrefcount(payload)
    converted = tvm_ffi.convert(payload)
    assert sys.getrefcount(payload) == before + 1
    del converted
    assert sys.getrefcount(payload) == before


def test_convert_func() -> None:
    calls = []
    f = tvm_ffi.convert_func(lambda *args: calls.append(args) or len(args))
    assert isinstance(f, tvm_ffi.Function)
    assert f(1, "a", None) == 3 and calls == [(1, "a", None)]
    with pytest.raises(TypeError, match="expected a callable, got int"):
        tvm_ffi.convert_func(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="has no __dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(print, tensor_cls=int)


def test_convert_func_delivers_tensors_as_tensor_cls() -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch publishes no DLPack exchange API")
    seen = []

    def callback(a: Any, b: Any) -> Any:
        seen.append((type(a), type(b), tuple(a.shape)))
        return b

    as_torch = tvm_ffi.convert_func(callback, tensor_cls=torch.Tensor)
    a, b = torch.zeros(2), torch.ones(3)
    out = as_torch(a, b)
    assert seen == [(torch.Tensor, torch.Tensor, (2,))]
    assert tuple(out.shape) == (3,)
    # Without tensor_cls the callback sees FFI tensors; the framework wrap views the same memory.
    plain = tvm_ffi.convert_func(callback)
    plain(a, b)
    assert seen[-1][0] is tvm_ffi.Tensor
    shared = tvm_ffi.convert_func(lambda t: t.add_(1), tensor_cls=torch.Tensor)
    shared(tvm_ffi.from_dlpack(a))
    assert a.tolist() == [1.0, 1.0]


def test_sentinels() -> None:
    assert isinstance(tvm_ffi.MISSING, tvm_ffi.Object) and isinstance(tvm_ffi.KWARGS, tvm_ffi.Object)
    assert not tvm_ffi.MISSING.same_as(tvm_ffi.KWARGS)
    assert tvm_ffi.MISSING.same_as(tvm_ffi.get_global_func("ffi.GetInvalidObject")())
    assert tvm_ffi.KWARGS.same_as(tvm_ffi.get_global_func("ffi.GetKwargsObject")())


def test_core_is_the_extension_module() -> None:
    import tvm_ffi.core as core_module

    assert core_module is tvm_ffi._core is tvm_ffi.core
    assert core.String is tvm_ffi._core.String and core.Object is tvm_ffi.Object
    assert core.Function is tvm_ffi.Function and core.Device is tvm_ffi.Device


def test_top_level_names() -> None:
    for name in tvm_ffi.__all__:
        assert hasattr(tvm_ffi, name), name
    assert tvm_ffi.__version__ == "0.1.16" and tvm_ffi.__version_tuple__ == (0, 1, 16)
    from tvm_ffi._version import version, version_tuple  # the reference's generated module

    assert (version, version_tuple) == (tvm_ffi.__version__, tvm_ffi.__version_tuple__)
    assert isinstance(tvm_ffi.LIB, ctypes.CDLL)
    assert issubclass(tvm_ffi.Function, core.CObject) and issubclass(tvm_ffi.Module, tvm_ffi.Object)
    assert tvm_ffi.registry.register_object is tvm_ffi.register_object
    assert tvm_ffi.error.register_error is tvm_ffi.register_error
    assert tvm_ffi.module.load_module is tvm_ffi.load_module


def test_config_mode_skips_native_code() -> None:
    code = ("import sys; sys.argv[0] = 'tvm-ffi-config'; import tvm_ffi; "
            "print('tvm_ffi._core' in sys.modules, hasattr(tvm_ffi, 'Function'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_convert_wraps_functions_methods_and_builtins() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def add(self, k: int) -> int:
            self.n += k
            return self.n

    def double(x: int) -> int:
        return 2 * x

    counter = Counter()
    for value, args, expected in ((double, (4,), 8), (counter.add, (3,), 3), (len, ([1, 2],), 2),
                                  (lambda: "hi", (), "hi")):
        wrapped = tvm_ffi.convert(value)
        assert type(wrapped) is core.Function and wrapped(*args) == expected
    # each conversion is a Function of its own, as in the reference
    assert tvm_ffi.convert(double) is not tvm_ffi.convert(double)


def test_convert_function_attributes_follow_the_protocols() -> None:
    # A function with a protocol attribute of its own is converted through that protocol.
    arr = tvm_ffi.convert([7])

    def holder() -> None:
        pass

    holder.__tvm_ffi_object__ = lambda: arr  # type: ignore[attr-defined]
    assert tvm_ffi.convert(holder) is arr
    holder.other = 1  # type: ignore[attr-defined]
    assert tvm_ffi.convert(holder) is arr

    def tagged() -> int:
        return 5

    tagged.note = "an unrelated attribute"  # type: ignore[attr-defined]
    assert tvm_ffi.convert(tagged)() == 5


def test_convert_takes_one_argument_by_position_or_keyword() -> None:
    assert tvm_ffi.convert(value=3) == 3
    with pytest.raises(TypeError, match="missing 1 required argument: 'value'"):
        tvm_ffi.convert()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        tvm_ffi.convert(1, 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'value'"):
        tvm_ffi.convert(1, value=2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        tvm_ffi.convert(x=2)  # type: ignore[call-arg]
