"""Calling FFI functions from Python and Python callables from C, through tvm_ffi._core."""

from __future__ import annotations

import sys
import threading
import time

import pytest
import tvm_ffi
from _core_plugin import plugin
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core

P = plugin()


def test_global_functions_are_function_objects() -> None:
    func = _core._get_global_func("ffi.String", False)
    assert isinstance(func, _core.Function)
    assert isinstance(func, _core.CObject) and not isinstance(func, _core.Object)  # as in the reference
    assert func.type_key == "ffi.Function"
    assert func("hello") == "hello"
    assert func.release_gil is False


def test_functions_carry_attributes_like_python_functions() -> None:
    func = tvm_ffi.convert(lambda x: x + 1)
    func.__name__ = "add_one"
    func.owner = "tests"
    assert (func.__name__, func.owner, func.__dict__) == ("add_one", "tests", {"__name__": "add_one", "owner": "tests"})
    assert func(1) == 2
    assert _core._get_global_func("ffi.String", False).__dict__ == {}  # made on first use, one per wrapper


def test_a_function_in_a_reference_cycle_through_its_attributes_is_collected() -> None:
    import gc
    import weakref

    class Marker:  # weakly referable, unlike the function wrapper itself
        pass

    func = tvm_ffi.convert(lambda: None)
    func.myself = func
    func.marker = Marker()
    alive = weakref.ref(func.marker)
    del func
    gc.collect()
    assert alive() is None


def test_missing_global_function() -> None:
    assert _core._get_global_func("testing.core.no_such_function", True) is None
    with pytest.raises(ValueError, match="Cannot find global function testing.core.no_such_function"):
        _core._get_global_func("testing.core.no_such_function", False)


def test_register_python_function_as_global() -> None:
    remove = _core._get_global_func("ffi.FunctionRemoveGlobal", False)
    name = "testing.core_function.scale"
    registered = _core._register_global_func(name, lambda x, k=2: x * k, False)
    try:
        assert registered(21) == 42
        fetched = _core._get_global_func(name, False)
        assert fetched.same_as(registered)
        assert fetched(4, 3) == 12
        with pytest.raises(RuntimeError, match="already registered"):
            _core._register_global_func(name, lambda x: x, False)
        # A Function can be registered under a second name; override replaces.
        alias = _core._register_global_func(name + "_alias", fetched, False)
        assert alias.same_as(fetched)
        _core._register_global_func(name, lambda x: -x, True)
        assert _core._get_global_func(name, False)(5) == -5
    finally:
        assert remove(name) is True
        assert remove(name + "_alias") is True
    with pytest.raises(TypeError, match="expects a callable"):
        _core._register_global_func(name, 42, False)


def test_argument_counts() -> None:
    num_args = P.fn("num_args")
    for n in range(0, 13):
        assert num_args(*range(n)) == n


def test_callback_called_from_c_many_times() -> None:
    calls: list[int] = []

    def record(value: int) -> int:
        calls.append(value)
        return value + 1

    assert P.fn("call_n")(record, 5, 10) == 11
    assert calls == [10] * 5


def test_callback_called_from_a_c_thread() -> None:
    """The C function runs the callback on a pthread of its own and waits for it."""
    call_in_thread = _core.Function.__from_extern_c__(P.address("core_test_call_in_thread"))
    # The caller must let the GIL go while C waits for its thread, which needs the GIL.
    call_in_thread.release_gil = True
    seen: set[int] = set()

    def square(i: int) -> int:
        seen.add(threading.get_ident())
        return i * i

    assert call_in_thread(square, 100) == sum(i * i for i in range(100))
    assert threading.get_ident() not in seen


def test_callable_argument_lives_as_long_as_the_call() -> None:
    """A callable the callee does not keep is released when the call returns."""

    def double(x: int) -> int:
        return 2 * x

    refs = sys.getrefcount(double)
    live = _core._live_callbacks()
    for _ in range(100):
        assert P.fn("call_n")(double, 1, 21) == 42
    assert _core._live_callbacks() == live
    assert sys.getrefcount(double) == refs


def test_callable_kept_by_c_outlives_the_call() -> None:
    """A kept callable stays callable; its last reference may go on a thread without Python."""
    seen: list[int] = []

    def record(x: int) -> None:
        seen.append(x)

    refs = sys.getrefcount(record)
    live = _core._live_callbacks()
    P.fn("keep")(record)
    assert sys.getrefcount(record) == refs + 1
    assert _core._live_callbacks() == live + 1
    P.fn("call_n")(P.fn("echo")(record), 1, 7)
    assert seen == [7]
    drop = P.fn("drop_kept_in_thread")
    drop.release_gil = True  # the foreign thread takes the GIL to release the callable
    drop()
    assert sys.getrefcount(record) == refs
    assert _core._live_callbacks() == live


def test_same_callable_twice_in_one_call_is_one_function() -> None:
    def f() -> None:
        pass

    pair = tvm_ffi.Array([f, f])
    assert pair[0].same_as(pair[1])
    assert not pair[0].same_as(tvm_ffi.Array([lambda: None, f])[0])


def test_many_callables_alive_at_once() -> None:
    """More wrapped callables than the block pool holds, alive together, then released."""
    live = _core._live_callbacks()
    funcs = [tvm_ffi.convert(lambda x, i=i: x + i) for i in range(300)]
    assert _core._live_callbacks() == live + 300
    assert [f(1) for f in funcs] == [i + 1 for i in range(300)]
    del funcs
    assert _core._live_callbacks() == live
    assert tvm_ffi.convert(lambda: 5)() == 5


def test_callbacks_keep_the_gil_when_called() -> None:
    """A Python callback takes the GIL itself, so calling it from Python keeps the GIL."""
    assert tvm_ffi.convert(lambda: None).release_gil is False


def test_python_callables_with_many_arguments() -> None:
    def total(*args: int) -> int:
        return sum(args)

    for n in (0, 3, 8, 9, 15):
        assert P.fn("call_n")(total, 1, *range(n)) == sum(range(n))


def test_function_returned_by_c_is_callable() -> None:
    func = P.fn("echo")(lambda a, b: f"{a}-{b}")
    assert isinstance(func, _core.Function)
    assert func("x", 7) == "x-7"


def test_from_extern_c_keeps_object_alive() -> None:
    keep = [1, 2, 3]
    base = sys.getrefcount(keep)
    func = _core.Function.__from_extern_c__(P.address("core_test_last"), keep_alive_object=keep)
    assert sys.getrefcount(keep) == base + 1
    assert func(1, 2, 3) == 3
    del func
    assert sys.getrefcount(keep) == base
    with pytest.raises(ValueError, match="NULL"):
        _core.Function.__from_extern_c__(0)


def test_from_mlir_packed_safe_call() -> None:
    keep = object()
    base = sys.getrefcount(keep)
    func = _core.Function.__from_mlir_packed_safe_call__(P.address("core_test_mlir_last"), keep_alive_object=keep)
    assert func(1, "two", 3.5) == 3.5
    assert func() is None
    assert sys.getrefcount(keep) == base + 1
    del func
    assert sys.getrefcount(keep) == base


def test_release_gil_lets_other_threads_run() -> None:
    sleep = _core.Function.__from_extern_c__(P.address("core_test_sleep_ms"))
    assert sleep.release_gil is True  # the default for every function that is not a builtin
    sleep.release_gil = False
    assert sleep.release_gil is False
    sleep.release_gil = True
    ticks = 0
    stop = threading.Event()

    def spin() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    worker = threading.Thread(target=spin)
    worker.start()
    try:
        time.sleep(0.01)
        before = ticks
        sleep(200)
        assert ticks > before  # the spinning thread ran while C slept
    finally:
        stop.set()
        worker.join()


def test_function_subclass_is_callable() -> None:
    class MyFunction(_core.Function):
        __slots__ = ()

    func = MyFunction.__new__(MyFunction)
    func.__move_handle_from__(_core._convert_to_ffi_func(lambda: "from subclass"))
    assert func() == "from subclass"
    assert func.type_key == "ffi.Function"


def test_empty_function_raises() -> None:
    empty = _core.Function.__new__(_core.Function)
    with pytest.raises(ValueError, match="NULL handle"):
        empty()


def test_keyword_arguments_are_rejected() -> None:
    with pytest.raises(TypeError, match=r"`ffi.String` does not accept keyword arguments"):
        _core._get_global_func("ffi.String", False)("a", extra=1)
    with pytest.raises(TypeError, match=r"`function` does not accept keyword arguments"):
        P.fn("nop")(x=1)


def test_init_handle_by_constructor() -> None:
    array_ctor = _core._get_global_func("ffi.Array", False)
    obj = _core.Object.__new__(_core.Object)
    obj.__init_handle_by_constructor__(array_ctor, 1, 2, 3)
    assert obj.type_key == "ffi.Array"
    assert _core._get_global_func("ffi.ArraySize", False)(obj) == 3
    with pytest.raises(TypeError, match="expected an FFI object"):
        obj.__init_handle_by_constructor__(P.fn("num_args"), 1)
    with pytest.raises(TypeError, match="expects a tvm_ffi Function"):
        obj.__init_handle_by_constructor__(len, 1)


def test_nop_is_cheap() -> None:
    """A call with no arguments costs about as much as a bare C-extension call."""
    nop = P.fn("nop")

    def per_call(fn: object, *args: object) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter_ns()
            for _ in range(20000):
                fn(*args)  # type: ignore[operator]
            best = min(best, (time.perf_counter_ns() - start) / 20000)
        return best

    # Generous bound: timings on shared CI machines are noisy.
    assert per_call(nop) < 10 * per_call(id, None) + 200
