"""``run_with_gpu_lock``: serialises GPU tests of concurrent pytest processes on one machine."""

from __future__ import annotations

import fcntl
import getpass
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, TypeVar

__all__ = ["run_with_gpu_lock"]

_R = TypeVar("_R")
_LOCK_PATH: Path | None = None


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001  (no passwd entry, no USER variable)
        try:
            return str(os.getuid())
        except AttributeError:
            return "unknown"


def _lock_path() -> Path:
    """``$TVM_FFI_TEST_LOCK_DIR/gpu.lock``, else a per-user directory under the temp dir."""
    global _LOCK_PATH
    if _LOCK_PATH is None:
        configured = os.environ.get("TVM_FFI_TEST_LOCK_DIR", "")
        directory = Path(configured).expanduser() if configured else (
            Path(tempfile.gettempdir()) / f"tvm-ffi-test-locks-{_user()}")
        directory.mkdir(parents=True, exist_ok=True)
        _LOCK_PATH = directory / "gpu.lock"
    return _LOCK_PATH


def run_with_gpu_lock(func: Callable[..., _R], /, *args: Any, **kwargs: Any) -> _R:
    """Call ``func(*args, **kwargs)`` while holding an exclusive advisory file lock.

    Tests that need a whole GPU serialise on this lock across processes; exceptions propagate and
    the lock is released either way.

    Parameters
    ----------
    func : Callable
        The function to run.
    *args, **kwargs : Any
        Its arguments.

    Returns
    -------
    Any
        What ``func`` returns.

    Examples
    --------
    >>> from tvm_ffi.testing import run_with_gpu_lock
    >>> run_with_gpu_lock(max, 3, 7)
    7
    """
    with open(_lock_path(), "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            return func(*args, **kwargs)
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
