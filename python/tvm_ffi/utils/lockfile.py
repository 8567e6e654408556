"""An advisory, cross-process file lock (``flock``), released by the kernel when its holder dies.

Builders of the JIT cache take one per build directory. Because the operating system drops an
``flock`` as soon as the holding process exits, a builder killed mid-build never leaves a lock
that blocks others; the file itself stays (removing it would race with a waiting process).
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from types import TracebackType
from typing import Literal

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

__all__ = ["FileLock"]


def _try_lock(fd: int) -> bool:
    """Takes the exclusive lock on ``fd`` without waiting; False when someone else holds it."""
    try:
        if sys.platform == "win32":
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """An exclusive lock on a file, shared by every cooperating process.

    Each instance is one lock holder: two instances on the same path exclude each other even in
    one process (threads included), while re-acquiring through the same instance is an error.
    The holder's pid is written into the file, so a timeout can say who holds the lock.

    Parameters
    ----------
    lock_file_path : str or os.PathLike
        The lock file (created on first acquisition, never deleted).

    Examples
    --------
    >>> import os, tempfile
    >>> from tvm_ffi.utils.lockfile import FileLock
    >>> with tempfile.TemporaryDirectory() as tmp, FileLock(os.path.join(tmp, "my.lock")) as lock:
    ...     lock.is_locked  # other processes wait in their own ``with`` until this block exits
    True
    """

    def __init__(self, lock_file_path: str | os.PathLike[str]) -> None:
        """A lock on ``lock_file_path`` (created on first acquisition, never deleted)."""
        self.lock_file_path = os.fspath(lock_file_path)
        self._file_descriptor: int | None = None
        self._guard = threading.Lock()  # protects _file_descriptor between threads

    @property
    def is_locked(self) -> bool:
        """True while this instance holds the lock."""
        return self._file_descriptor is not None

    def __enter__(self) -> FileLock:
        """Waits for the lock."""
        self.blocking_acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc_val: BaseException | None, exc_tb: TracebackType | None
    ) -> Literal[False]:
        """Releases the lock; exceptions propagate."""
        self.release()
        return False

    def _open(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        return os.open(self.lock_file_path, flags, 0o666)

    def acquire(self) -> bool:
        """Take the lock if it is free, without waiting.

        Returns
        -------
        bool
            True when this call took the lock; False when another holder has it, or this instance
            already holds it.

        Raises
        ------
        RuntimeError
            On an unexpected OS error (a missing directory, no permission), naming the file.

        Examples
        --------
        >>> import os, tempfile
        >>> from tvm_ffi.utils.lockfile import FileLock
        >>> path = os.path.join(tempfile.mkdtemp(), "acquire.lock")
        >>> first, second = FileLock(path), FileLock(path)
        >>> first.acquire(), second.acquire()
        (True, False)
        >>> first.release()
        """
        with self._guard:
            if self._file_descriptor is not None:
                return False
            try:
                fd = self._open()
            except OSError as err:
                raise RuntimeError(f"cannot open lock file {self.lock_file_path!r}: {err}") from err
            try:
                locked = _try_lock(fd)
            except OSError as err:
                os.close(fd)
                raise RuntimeError(f"cannot lock {self.lock_file_path!r}: {err}") from err
            if not locked:
                os.close(fd)
                return False
            self._file_descriptor = fd
            self._note_holder(fd)
            return True

    def blocking_acquire(self, timeout: float | None = None, poll_interval: float = 0.1) -> bool:
        """Wait until the lock is taken.

        Without ``timeout`` the wait sleeps in the kernel and wakes as soon as the holder lets go (or
        dies); with one it polls.

        Parameters
        ----------
        timeout : float, optional
            Seconds to wait at most (default: forever).
        poll_interval : float, optional
            Seconds between attempts when ``timeout`` is given (default 0.1).

        Returns
        -------
        bool
            True once the lock is held.

        Raises
        ------
        TimeoutError
            When ``timeout`` passes first (the message names the holder's pid when known).
        RuntimeError
            When this instance already holds the lock.
        """
        if self._file_descriptor is not None:
            raise RuntimeError("Lock is already held by this instance.")
        if timeout is None and sys.platform != "win32":
            return self._wait_in_kernel()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.acquire():
            if deadline is not None and time.monotonic() >= deadline:
                holder = self._read_holder()
                who = f" (held by pid {holder})" if holder else ""
                raise TimeoutError(f"Failed to acquire lock on '{self.lock_file_path}' after {timeout} seconds{who}.")
            time.sleep(poll_interval)
        return True

    def _wait_in_kernel(self) -> bool:
        with self._guard:
            if self._file_descriptor is not None:
                raise RuntimeError("Lock is already held by this instance.")
            try:
                fd = self._open()
            except OSError as err:
                raise RuntimeError(f"cannot open lock file {self.lock_file_path!r}: {err}") from err
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # releases the GIL while it waits
            except BaseException:
                os.close(fd)
                raise
            self._file_descriptor = fd
            self._note_holder(fd)
            return True

    def release(self) -> None:
        """Releases the lock (nothing happens when this instance does not hold it)."""
        with self._guard:
            fd = self._file_descriptor
            if fd is None:
                return
            self._file_descriptor = None
            try:
                _unlock(fd)
            finally:
                os.close(fd)

    @staticmethod
    def _note_holder(fd: int) -> None:
        # Best effort: the pid only serves error messages.
        if sys.platform == "win32":
            return  # the locked byte cannot be rewritten there
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass

    def holder_pid(self) -> int | None:
        """Read the pid the current holder wrote into the file; for messages only.

        Returns
        -------
        int or None
            The pid, or None when unknown.
        """
        text = self._read_holder()
        return int(text) if text.isdigit() else None

    def _read_holder(self) -> str:
        try:
            with open(self.lock_file_path, encoding="ascii", errors="replace") as f:
                return f.read(32).strip()
        except OSError:
            return ""

    def __repr__(self) -> str:
        state = "locked" if self.is_locked else "unlocked"
        return f"<FileLock {self.lock_file_path!r} {state}>"

    def __del__(self) -> None:
        # An instance dropped while holding the lock must not keep others waiting.
        if getattr(self, "_file_descriptor", None) is not None:
            self.release()
