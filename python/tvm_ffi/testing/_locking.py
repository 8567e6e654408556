"""``run_with_gpu_lock``: serialize the GPU part of tests across processes on one machine.

Parallel test workers (pytest-xdist, several CI jobs) that all use the GPU at once run out of
memory or time out. Each worker runs its device work inside ``run_with_gpu_lock``, which holds
an exclusive ``flock`` on one machine-wide file, the same file and lock kind the reference
package uses, so workers of both packages take turns too. On a machine without a GPU the lock
is simply uncontended.
"""

from __future__ import annotations

import fcntl
import getpass
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, TypeVar

__all__ = ["run_with_gpu_lock"]

_R = TypeVar("_R")

LOCK_DIR_ENV_VAR = "TVM_FFI_TEST_LOCK_DIR"
"""Environment variable naming the directory of the lock file (default: per-user temp dir)."""


def gpu_lock_path() -> Path:
    """Path of the machine-wide GPU lock file; its directory is created on demand."""
    override = os.environ.get(LOCK_DIR_ENV_VAR)
    if override:
        lock_dir = Path(override).expanduser()
    else:
        try:
            user = getpass.getuser()
        except Exception:  # no login name (containers): the numeric uid still separates users
            user = str(os.getuid())
        lock_dir = Path(tempfile.gettempdir()) / f"tvm-ffi-test-locks-{user}"
    lock_dir.mkdir(parents=True, exist_ok=True)
    return lock_dir / "gpu.lock"


def run_with_gpu_lock(func: Callable[..., _R], /, *args: Any, **kwargs: Any) -> _R:
    """Calls ``func(*args, **kwargs)`` holding the GPU lock and returns its result.

    Put the whole life of the device work inside ``func`` (allocation, launches, synchronization,
    checks) and keep host-only work such as compiling outside, so it still runs in parallel.

    >>> run_with_gpu_lock(sum, [1, 2, 3])
    6
    """
    fd = os.open(gpu_lock_path(), os.O_WRONLY | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # blocks until the other holder is done
        return func(*args, **kwargs)
    finally:
        os.close(fd)  # closing the descriptor releases the lock
