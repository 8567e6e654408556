"""Errors crossing the FFI boundary in both directions, through tvm_ffi._core."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import types
from collections.abc import Iterator

import pytest
import tvm_ffi  # noqa: F401
from _core_plugin import plugin
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core

P = plugin()
raise_error = P.fn("raise")
call_n = P.fn("call_n")


@pytest.mark.parametrize(
    "kind, cls",
    [("RuntimeError", RuntimeError), ("ValueError", ValueError), ("TypeError", TypeError),
     ("AttributeError", AttributeError), ("KeyError", KeyError), ("IndexError", IndexError),
     ("AssertionError", AssertionError), ("MemoryError", MemoryError),
     ("RecursionError", RecursionError)],
)
def test_c_error_kinds_map_to_exception_classes(kind: str, cls: type) -> None:
    with pytest.raises(cls) as info:
        raise_error(kind, "error XYZ")
    assert type(info.value) is cls
    assert info.value.args == ("error XYZ",)
    error = info.value.__tvm_ffi_error__
    assert isinstance(error, _core.Error)
    assert (error.kind, error.message) == (kind, "error XYZ")
    assert "core_test_raise" in error.backtrace


@pytest.mark.parametrize("kind, builtin", [("OverflowError", OverflowError), ("OSError", OSError),
                                           ("ZeroDivisionError", ZeroDivisionError),
                                           ("NotImplementedError", NotImplementedError),
                                           ("InternalError", None), ("CoreTestStrangeError", None)])
def test_kinds_without_a_registered_class_raise_runtime_error(kind: str, builtin: type | None) -> None:
    # As in the reference: RuntimeError itself; the kind stays on the Error it carries.
    with pytest.raises(RuntimeError) as info:
        raise_error(kind, "error XYZ")
    assert type(info.value) is RuntimeError and info.value.args == ("error XYZ",)
    assert info.value.__tvm_ffi_error__.kind == kind
    # Raised again into C, it is that Error, kind and all; a new exception of the builtin class
    # has no kind of its own and travels as RuntimeError.
    assert _core._convert_to_ffi_error(info.value).kind == kind
    if builtin is not None:
        assert _core._convert_to_ffi_error(builtin("x")).kind == "RuntimeError"


def test_errors_of_unknown_kinds_pickle_also_into_a_fresh_process() -> None:
    with pytest.raises(RuntimeError) as info:
        raise_error("CoreTestNeverSeenKind", "sent to another process")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is RuntimeError and again.args == ("sent to another process",)
    assert again.__tvm_ffi_error__.kind == "CoreTestNeverSeenKind"
    code = ("import pickle, sys\n"
            "error = pickle.loads(sys.stdin.buffer.read())\n"
            "print(type(error).__name__, error.__tvm_ffi_error__.kind, error)")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(info.value),
                         capture_output=True, check=True).stdout.decode()
    assert out.split() == ["RuntimeError", "CoreTestNeverSeenKind", "sent", "to", "another", "process"]


def test_registered_kinds_in_both_directions() -> None:
    class MyError(ValueError):
        pass

    class Unregistered(KeyError):
        pass

    _core.ERROR_NAME_TO_TYPE["CoreTestMyError"] = MyError
    _core.ERROR_TYPE_TO_NAME[MyError] = "CoreTestMyError"
    try:
        with pytest.raises(MyError, match="mine"):
            raise_error("CoreTestMyError", "mine")
        assert _core._convert_to_ffi_error(MyError("m")).kind == "CoreTestMyError"
        # Unregistered classes take the kind of their nearest registered base.
        assert _core._convert_to_ffi_error(Unregistered("u")).kind == "KeyError"
        assert _core._convert_to_ffi_error(GeneratorExit()).kind == "RuntimeError"
    finally:
        del _core.ERROR_NAME_TO_TYPE["CoreTestMyError"]
        del _core.ERROR_TYPE_TO_NAME[MyError]


def _frame_names(tb: types.TracebackType | None) -> list[str]:
    """Function names along a traceback (no source lookup: some frames are C functions)."""
    names = []
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return names


class CallbackError(Exception):
    """A Python-only exception type; FFI knows nothing about it."""


def test_callback_exception_comes_back_as_the_same_object() -> None:
    original = CallbackError("from the callback")

    def failing(_: int) -> None:
        raise original

    with pytest.raises(CallbackError) as info:
        call_n(failing, 1, 0)
    assert info.value is original
    assert str(info.value) == "from the callback"
    assert "failing" in _frame_names(info.value.__traceback__)


def test_callback_exception_through_nested_calls() -> None:
    original = KeyError("deep")

    def inner() -> None:
        raise original

    def outer() -> object:
        return call_n(inner, 1)

    with pytest.raises(KeyError) as info:
        call_n(outer, 1)
    assert info.value is original


def test_callback_exception_from_a_c_thread() -> None:
    call_in_thread = _core.Function.__from_extern_c__(P.address("core_test_call_in_thread"))
    call_in_thread.release_gil = True
    original = ZeroDivisionError("in a pthread")

    def failing(i: int) -> int:
        if i == 3:
            raise original
        return i

    with pytest.raises(ZeroDivisionError) as info:
        call_in_thread(failing, 10)
    assert info.value is original


def test_ffi_error_passing_through_python_keeps_its_error_object() -> None:
    seen: list[_core.Error] = []

    def relay() -> None:
        try:
            raise_error("ValueError", "from C")
        except ValueError as err:
            seen.append(err.__tvm_ffi_error__)
            raise

    with pytest.raises(ValueError, match="from C") as info:
        call_n(relay, 1)
    assert info.value.__tvm_ffi_error__.same_as(seen[0])
    backtrace = info.value.__tvm_ffi_error__.backtrace
    assert "relay" in backtrace and "core_test_raise" in backtrace


def test_python_backtrace_text_most_recent_first() -> None:
    def level_two() -> None:
        raise IndexError("bt")

    def level_one() -> None:
        level_two()

    try:
        level_one()
    except IndexError as exc:
        error = _core._convert_to_ffi_error(exc)
    assert error.kind == "IndexError" and error.message == "bt"
    assert error.backtrace.index("level_two") < error.backtrace.index("level_one")
    assert 'File "' in error.backtrace and "line" in error.backtrace


def test_cause_chain_becomes_cause() -> None:
    with pytest.raises(RuntimeError, match="outer problem") as info:
        P.fn("raise_with_cause")()
    cause = info.value.__cause__
    assert isinstance(cause, ValueError) and str(cause) == "inner problem"
    assert cause.__tvm_ffi_error__.kind == "ValueError"


def test_python_cause_travels_to_c() -> None:
    try:
        try:
            raise KeyError("root")
        except KeyError as root:
            raise ValueError("top") from root
    except ValueError as exc:
        error = _core._convert_to_ffi_error(exc)
    assert error.kind == "ValueError"
    back = error.py_error()
    assert isinstance(back.__cause__, KeyError)


def test_error_object_api() -> None:
    error = _core.Error("ValueError", "message", '  File "x.c", line 3, in f\n')
    assert (error.kind, error.message) == ("ValueError", "message")
    assert "x.c" in error.backtrace
    assert error.extra_context is None
    error.update_backtrace("replaced\n")
    assert error.backtrace == "replaced\n"
    exc = error.py_error()
    assert type(exc) is ValueError and exc.args == ("message",)
    assert exc.__tvm_ffi_error__.same_as(error)
    restored = pickle.loads(pickle.dumps(error))
    assert (restored.kind, restored.message, restored.backtrace) == ("ValueError", "message", "replaced\n")
    assert not restored.same_as(error)


def test_converted_exception_is_a_plain_error() -> None:
    """Only errors leaving a callback keep the exception object (see test above)."""
    original = TypeError("carry me")
    error = _core._convert_to_ffi_error(original)
    assert error.extra_context is None
    back = error.py_error()
    assert type(back) is TypeError and back.args == ("carry me",) and back is not original
    assert P.fn("echo")(original).kind == "TypeError"


def test_callback_error_keeps_the_exception_as_extra_context() -> None:
    original = TypeError("carry me")

    def failing() -> None:
        raise original

    error = P.fn("catch")(failing)
    assert isinstance(error, _core.Error)
    assert (error.kind, error.message) == ("TypeError", "carry me")
    assert "failing" in error.backtrace
    assert error.extra_context is original
    assert error.py_error() is original
    # py_error() gave `original` traceback frames that lead back to this frame, which holds
    # `error`, which holds `original` through C: a cycle the collector cannot see. Break it.
    del error


def test_return_code_without_error() -> None:
    with pytest.raises(RuntimeError, match="raised no error"):
        P.fn("fail_silently")()


@pytest.fixture
def sigint_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in the main thread for the duration of the test."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["minus1", "EnvErrorAlreadySet", "minus2"])
def test_signal_check_raises_keyboard_interrupt(sigint_raises: None, mode: int) -> None:
    """A C loop polling TVMFFIEnvCheckSignals stops with KeyboardInterrupt on SIGINT."""
    with pytest.raises(KeyboardInterrupt):
        P.fn("check_signals")(1, 10000, mode)
    assert P.fn("check_signals")(0, 3, mode) == 3


def test_signal_from_another_thread(sigint_raises: None) -> None:
    check = _core.Function.__from_extern_c__(P.address("core_test_check_signals"))
    check.release_gil = True
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            check(0, 20000, 0)
    finally:
        timer.join()


_HOOK_SCRIPT = textwrap.dedent(
    """
    import ctypes, sys
    import tvm_ffi
    from tvm_ffi import _core

    lib = ctypes.CDLL(sys.argv[1])
    def fn(name):
        return _core.Function.__from_extern_c__(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value)

    calls = []
    def append(exc, text):
        calls.append(("append", text))
        return exc
    def to_text(tb):
        calls.append(("to_text", tb is not None))
        return "  File \\"hooked.py\\", line 1, in hooked\\n"

    _core._set_error_hooks(append, to_text)
    try:
        fn("core_test_raise")("ValueError", "m")
    except ValueError:
        pass
    assert calls[0][0] == "append" and "core_test_raise" in calls[0][1], calls

    def failing(_):
        raise KeyError("k")
    try:
        fn("core_test_call_n")(failing, 1, 0)
    except KeyError as exc:
        assert _core._convert_to_ffi_error(exc).backtrace.startswith("  File \\"hooked.py\\""), calls
    assert ("to_text", True) in calls, calls

    # Without hooks: plain-text backtraces both ways.
    _core._set_error_hooks(None, None)
    def plain():
        raise IndexError("p")
    try:
        plain()
    except IndexError as exc:
        assert "in plain" in _core._convert_to_ffi_error(exc).backtrace
    try:
        fn("core_test_raise")("ValueError", "m")
    except ValueError as exc:
        notes = getattr(exc, "__notes__", ["core_test_raise"])
        assert any("core_test_raise" in note for note in notes), notes
    print("hooks ok")
    """
)


def test_error_hooks_and_plain_text_fallback() -> None:
    proc = subprocess.run([sys.executable, "-c", _HOOK_SCRIPT, str(P.path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "hooks ok" in proc.stdout
    with pytest.raises(TypeError, match="two callables"):
        _core._set_error_hooks(1, None)


def test_errors_do_not_leak() -> None:
    """Many errors in both directions leave no FFI object behind (checked by the fixture)."""

    def failing() -> None:
        raise ValueError("x")

    for _ in range(200):
        with pytest.raises(ValueError):
            raise_error("ValueError", "y")
        with pytest.raises(ValueError):
            call_n(failing, 1)
