"""Names that frameworks built on tvm_ffi import: the Device/Tensor class hooks of
`tvm_ffi.core`, `tvm_ffi.container.MISSING` and `tvm_ffi.testing.run_with_gpu_lock`."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core
from tvm_ffi.testing import _locking

echo = tvm_ffi.get_global_func("testing.echo")


class FrameworkDevice(core.Device):
    """A framework's Device, as TVM defines one: extra helpers over the FFI device."""

    def describe(self) -> str:
        return f"{self.type}#{self.index}"


class FrameworkTensor(core.Tensor):
    """A framework's Tensor with its own helpers."""

    def numel(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count


@pytest.fixture
def framework_device() -> Iterator[type[FrameworkDevice]]:
    core._set_class_device(FrameworkDevice)
    yield FrameworkDevice
    core._set_class_device(core.Device)


@pytest.fixture
def framework_tensor() -> Iterator[type[FrameworkTensor]]:
    core._set_class_tensor(FrameworkTensor)
    yield FrameworkTensor
    core._set_class_tensor(core.Tensor)


def test_default_classes_are_the_ffi_ones() -> None:
    assert core._CLASS_DEVICE is core.Device is tvm_ffi.Device
    assert core._CLASS_TENSOR is core.Tensor is tvm_ffi.Tensor
    assert type(tvm_ffi.device("cpu", 0)) is core.Device


def test_device_results_use_the_installed_subclass(framework_device: type[FrameworkDevice]) -> None:
    assert core._CLASS_DEVICE is framework_device
    dev = tvm_ffi.device("cuda", 1)
    assert type(dev) is framework_device and dev.describe() == "cuda#1"
    assert type(echo(dev)) is framework_device and echo(dev) == dev
    assert type(echo(core.Device("cpu", 0))) is framework_device  # results of calls
    tensor = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    assert type(tensor.device) is framework_device and tensor.device.describe() == "cpu#0"
    assert type(core.Device("cpu", 0)) is core.Device  # the base class itself still constructs


def test_tensor_results_use_the_installed_subclass(framework_tensor: type[FrameworkTensor]) -> None:
    assert core._CLASS_TENSOR is framework_tensor
    x = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3))
    assert type(x) is framework_tensor and x.numel() == 6
    assert type(echo(x)) is framework_tensor and echo(x).same_as(x)
    assert type(tvm_ffi.convert([x])[0]) is framework_tensor
    np.testing.assert_array_equal(np.from_dlpack(echo(x)), np.arange(6, dtype="float32").reshape(2, 3))


def test_class_hooks_refuse_unrelated_classes() -> None:
    with pytest.raises(TypeError, match=r"_set_class_device\(\) expects .*Device or a subclass of it, got <class"):
        core._set_class_device(int)
    with pytest.raises(TypeError, match=r"_set_class_tensor\(\) expects .*Tensor or a subclass of it"):
        core._set_class_tensor(FrameworkDevice)
    assert core._CLASS_DEVICE is core.Device and core._CLASS_TENSOR is core.Tensor


def test_container_missing_is_the_core_sentinel() -> None:
    from tvm_ffi.container import MISSING

    assert MISSING is core.MISSING is tvm_ffi.MISSING
    assert tvm_ffi.get_global_func("ffi.MapGetItemOrMissing")(tvm_ffi.Map({"a": 1}), "b").same_as(MISSING)


def test_run_with_gpu_lock_runs_the_function_and_returns_its_result(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path / "locks"))
    monkeypatch.setattr(_locking, "_LOCK_PATH", None)  # the path is resolved once per process
    assert tvm_ffi.testing.run_with_gpu_lock(lambda a, b=0: a + b, 2, b=3) == 5
    assert (tmp_path / "locks" / "gpu.lock").is_file()
    with pytest.raises(ZeroDivisionError):  # errors pass through, and the lock is released
        tvm_ffi.testing.run_with_gpu_lock(lambda: 1 / 0)
    assert tvm_ffi.testing.run_with_gpu_lock(lambda: "again") == "again"


def _hold_lock(lock_dir: str, seconds: float, started: multiprocessing.synchronize.Event) -> None:
    import os

    import tvm_ffi.testing

    os.environ["TVM_FFI_TEST_LOCK_DIR"] = lock_dir
    tvm_ffi.testing.run_with_gpu_lock(lambda: (started.set(), time.sleep(seconds)))


def test_run_with_gpu_lock_serializes_processes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path))
    monkeypatch.setattr(_locking, "_LOCK_PATH", None)
    context = multiprocessing.get_context("spawn")
    started = context.Event()
    holder = context.Process(target=_hold_lock, args=(str(tmp_path), 1.0, started))
    holder.start()
    try:
        assert started.wait(60)
        begin = time.monotonic()
        tvm_ffi.testing.run_with_gpu_lock(lambda: None)  # waits for the other process
        assert time.monotonic() - begin > 0.3
    finally:
        holder.join(60)
    assert holder.exitcode == 0


class RemoteDevice(core.Device):
    """A framework's device that names itself, as TVM's RPC devices do ("remote[0]:cpu")."""

    def __device_type_name__(self) -> str:
        return f"remote:{self._DEVICE_TYPE_TO_NAME[self.dlpack_device_type()]}"


def test_a_subclass_name_is_what_prints() -> None:
    core._set_class_device(RemoteDevice)
    try:
        dev = tvm_ffi.device("cuda", 1)
        assert (str(dev), repr(dev), dev.type) == ("remote:cuda:1", "device(type='remote:cuda', index=1)",
                                                    "remote:cuda")
    finally:
        core._set_class_device(core.Device)
    assert str(tvm_ffi.device("cuda", 1)) == "cuda:1"


def test_device_name_tables_of_the_reference() -> None:
    assert core.Device._DEVICE_TYPE_TO_NAME[1] == "cpu" and core.Device._DEVICE_TYPE_TO_NAME[2] == "cuda"
    assert core.Device._DEVICE_NAME_TO_TYPE["mps"] == core.Device._DEVICE_NAME_TO_TYPE["metal"] == 8
    assert all(core.Device._DEVICE_NAME_TO_TYPE[name] == code for code, name in
               core.Device._DEVICE_TYPE_TO_NAME.items())
