"""Errors crossing the boundary: kinds mapped to exception classes (and registering new ones),
C backtraces shown as Python traceback entries, and Python tracebacks sent to C as text."""

from __future__ import annotations

import gc
import traceback
import uuid
import weakref
from pathlib import Path

import pytest
import tvm_ffi
from _kernel_lib import build_kernel, load_kernel
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core, error

C_BACKTRACE = (
    '  File "kernels/inner.cc", line 12, in inner_kernel\n'
    '  File "kernels/outer.cc", line 30, in outer_kernel\n'
)


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> tvm_ffi.Module:
    return load_kernel(build_kernel(tmp_path_factory.mktemp("kernel")))


@pytest.mark.parametrize("kind", ["ValueError", "TypeError", "RuntimeError", "AttributeError", "KeyError",
                                  "IndexError", "AssertionError", "MemoryError"])
def test_builtin_kinds_raise_builtin_classes(mod: tvm_ffi.Module, kind: str) -> None:
    with pytest.raises(BaseException) as info:
        mod.raise_error(kind, "error XYZ")
    assert type(info.value).__name__ == kind and type(info.value).__module__ == "builtins"
    assert info.value.__tvm_ffi_error__.kind == kind
    assert info.value.__tvm_ffi_error__.message == "error XYZ"


@pytest.mark.parametrize("kind", ["PylayerOddError", "InternalError", "NotImplementedError", "OSError"])
def test_unknown_kind_is_a_runtime_error(mod: tvm_ffi.Module, kind: str) -> None:
    # As in the reference: a kind without a registered class raises RuntimeError itself.
    with pytest.raises(RuntimeError, match="odd") as info:
        mod.raise_error(kind, "odd")
    assert type(info.value) is RuntimeError
    assert info.value.__tvm_ffi_error__.kind == kind


def test_registered_class_round_trips_through_c(mod: tvm_ffi.Module) -> None:
    kind = f"PylayerError{uuid.uuid4().hex[:6]}"

    @tvm_ffi.register_error(kind)
    class PylayerError(ValueError):
        pass

    # a C error of that kind is raised as the class ...
    with pytest.raises(PylayerError, match="from C") as info:
        mod.raise_error(kind, "from C")
    assert info.value.__tvm_ffi_error__.kind == kind
    # ... and the class raised in Python becomes an FFI error of that kind
    ffi_error = tvm_ffi.convert(PylayerError("from Python"))
    assert isinstance(ffi_error, core.Error)
    assert (ffi_error.kind, ffi_error.message) == (kind, "from Python")
    assert isinstance(ffi_error.py_error(), PylayerError)


def test_register_error_forms() -> None:
    @error.register_error
    class PylayerBareError(RuntimeError):
        pass

    class PylayerDirectError(Exception):
        pass

    assert tvm_ffi.register_error("PylayerDirect", PylayerDirectError) is PylayerDirectError
    assert core.ERROR_NAME_TO_TYPE["PylayerBareError"] is PylayerBareError
    assert core.ERROR_TYPE_TO_NAME[PylayerBareError] == "PylayerBareError"
    assert core.ERROR_NAME_TO_TYPE["PylayerDirect"] is PylayerDirectError
    assert tvm_ffi.convert(PylayerDirectError("x")).kind == "PylayerDirect"
    with pytest.raises(TypeError, match="expected an exception class"):
        tvm_ffi.register_error("NotAnException", int)
    with pytest.raises(TypeError, match="expected an error kind"):
        tvm_ffi.register_error(42)  # type: ignore[call-overload]


def test_subclass_of_registered_class_uses_nearest_kind() -> None:
    class PylayerSpecificValueError(ValueError):
        pass

    class PylayerUnregisteredError(Exception):
        pass

    assert tvm_ffi.convert(PylayerSpecificValueError("x")).kind == "ValueError"
    assert tvm_ffi.convert(PylayerUnregisteredError("x")).kind == "RuntimeError"  # the default kind


def test_c_backtrace_becomes_traceback_entries(mod: tvm_ffi.Module) -> None:
    with pytest.raises(ValueError, match="bad value") as info:
        mod.raise_with_backtrace("ValueError", "bad value", C_BACKTRACE)
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [f.name for f in frames]
    # the Python caller first, the C frames last, innermost at the end
    assert names[-2:] == ["outer_kernel", "inner_kernel"]
    assert (frames[-1].filename, frames[-1].lineno) == ("kernels/inner.cc", 12)
    assert (frames[-2].filename, frames[-2].lineno) == ("kernels/outer.cc", 30)
    assert "test_c_backtrace_becomes_traceback_entries" in names
    text = "".join(traceback.format_exception(info.type, info.value, info.value.__traceback__))
    assert 'File "kernels/inner.cc", line 12, in inner_kernel' in text


def test_runtime_captured_backtrace_names_the_kernel(mod: tvm_ffi.Module) -> None:
    with pytest.raises(IndexError) as info:
        mod.raise_error("IndexError", "out of range")
    assert "__tvm_ffi_raise_error" in info.value.__tvm_ffi_error__.backtrace
    assert "__tvm_ffi_raise_error" in [f.name for f in traceback.extract_tb(info.value.__traceback__)]


def test_python_traceback_becomes_backtrace_text() -> None:
    def pylayer_raising_function() -> None:
        raise ValueError("in Python")

    def backtrace_of_error() -> str:
        try:
            pylayer_raising_function()
        except ValueError as exc:
            # The FFI error holds the exception, whose traceback holds this frame: keep only text
            # here, or the frame's locals and the error would keep each other alive.
            return tvm_ffi.convert(exc).backtrace
        raise AssertionError("unreachable")

    lines = backtrace_of_error().splitlines()
    # most recent call first
    assert lines[0].endswith("in pylayer_raising_function") and f'File "{__file__}"' in lines[0]
    assert lines[1].endswith("in backtrace_of_error")


def test_python_error_through_c_keeps_type_and_frames(mod: tvm_ffi.Module) -> None:
    def pylayer_callback(x: int) -> int:
        raise KeyError(f"missing {x}")

    with pytest.raises(KeyError, match="missing 3") as info:
        mod.call(pylayer_callback, 3)
    names = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "pylayer_callback" in names
    # a C error passing through Python callbacks comes back unchanged, too
    with pytest.raises(TypeError, match="add_one expects one int"):
        mod.call(lambda: mod.add_one("not an int"))


def test_parse_backtrace() -> None:
    text = C_BACKTRACE + "garbage line\n" + '  File "<unknown>", line 0, in TVMFFIFunctionCall\n'
    assert error.parse_backtrace(text) == [
        ("kernels/inner.cc", 12, "inner_kernel"),
        ("kernels/outer.cc", 30, "outer_kernel"),
        ("<unknown>", 0, "TVMFFIFunctionCall"),
    ]
    # indented and surrounded by blank lines, under the reference package's name
    assert error._parse_backtrace('\n    File "a.py", line 1, in <module>\n    ') == [("a.py", 1, "<module>")]


def test_the_frames_of_a_backtrace_are_parsed_once_and_the_memo_stays_bounded() -> None:
    first = error._frames_of(C_BACKTRACE)  # type: ignore[attr-defined]
    assert first == error.parse_backtrace(C_BACKTRACE)
    assert error._frames_of(C_BACKTRACE) is first  # type: ignore[attr-defined]
    limit = error._MAX_PARSED_BACKTRACES  # type: ignore[attr-defined]
    for i in range(limit + 5):
        assert error._frames_of(f'  File "k.cc", line {i}, in f\n') == [("k.cc", i, "f")]  # type: ignore[attr-defined]
    assert len(error._PARSED_BACKTRACES) <= limit  # type: ignore[attr-defined]


def test_traceback_manager_caches_code_objects() -> None:
    manager = error.TracebackManager()
    first = manager.make_frame("lib.cc", 7, "kernel_fn")
    second = manager.make_frame("lib.cc", 7, "kernel_fn")
    assert first.f_code is second.f_code
    assert (first.f_code.co_filename, first.f_code.co_name) == ("lib.cc", "kernel_fn")
    tb = manager.prepend_frames(None, [("lib.cc", 7, "inner"), ("lib.cc", 3, "outer")])
    assert [(f.name, f.lineno) for f in traceback.extract_tb(tb)] == [("outer", 3), ("inner", 7)]
    # one frame at a time, as the reference's append_traceback
    tb = manager.append_traceback(manager.append_traceback(None, "lib.cc", 7, "inner"), "lib.cc", 3, "outer")
    assert [(f.name, f.lineno) for f in traceback.extract_tb(tb)] == [("outer", 3), ("inner", 7)]


def test_error_frames_do_not_keep_callers_alive(mod: tvm_ffi.Module) -> None:
    class Payload:
        pass

    def caller() -> weakref.ref[Payload]:
        payload = Payload()
        try:
            mod.raise_with_backtrace("RuntimeError", "boom", C_BACKTRACE)
        except RuntimeError:
            pass
        return weakref.ref(payload)

    gc.collect()
    gc.disable()
    try:
        ref = caller()
        # freed by reference counting alone: no cycle through the synthesized frames
        assert ref() is None
    finally:
        gc.enable()


def test_error_object_view() -> None:
    err = core.Error("ValueError", "message text", C_BACKTRACE)
    assert (err.kind, err.message, err.backtrace) == ("ValueError", "message text", C_BACKTRACE)
    exc = err.py_error()
    assert isinstance(exc, ValueError) and str(exc) == "message text"



def test_traceback_with_frames_in_a_shared_library_prints(tmp_path: Path) -> None:
    """A frame naming a binary .so must print without reading the binary as source."""
    library = tmp_path / "libkernel.so"
    library.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 4)
    error = tvm_ffi.error._with_append_backtrace(  # type: ignore[attr-defined]
        ValueError("boom"), f'  File "{library}", line 12, in KernelEntry\n'
    )
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    assert f'File "{library}", line 12, in KernelEntry' in text
    assert text.rstrip().endswith("ValueError: boom")
