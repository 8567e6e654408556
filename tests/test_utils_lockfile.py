"""tvm_ffi.utils.FileLock: exclusive between instances, threads and processes; dies with its holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from tvm_ffi.utils import FileLock


def test_context_manager_takes_and_releases(tmp_path: Path) -> None:
    lock = FileLock(tmp_path / "a.lock")
    assert not lock.is_locked
    with lock as held:
        assert held is lock and lock.is_locked
        assert (tmp_path / "a.lock").read_text().strip() == str(os.getpid())
        assert FileLock(tmp_path / "a.lock").holder_pid() == os.getpid()
    assert not lock.is_locked
    assert repr(lock).endswith("unlocked>")


def test_two_instances_exclude_each_other(tmp_path: Path) -> None:
    first, second = FileLock(str(tmp_path / "x.lock")), FileLock(str(tmp_path / "x.lock"))
    assert first.acquire()
    assert not second.acquire()
    assert not first.acquire()  # already held by this instance
    first.release()
    assert second.acquire()
    second.release()
    second.release()  # releasing an unheld lock is a no-op


def test_blocking_acquire_twice_on_one_instance_is_an_error(tmp_path: Path) -> None:
    lock = FileLock(tmp_path / "x.lock")
    lock.blocking_acquire()
    with pytest.raises(RuntimeError, match="already held"):
        lock.blocking_acquire()
    lock.release()


def test_timeout_names_the_holder(tmp_path: Path) -> None:
    with FileLock(tmp_path / "x.lock"):
        start = time.monotonic()
        with pytest.raises(TimeoutError, match=rf"after 0.2 seconds \(held by pid {os.getpid()}\)"):
            FileLock(tmp_path / "x.lock").blocking_acquire(timeout=0.2, poll_interval=0.02)
        assert time.monotonic() - start < 5


def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="cannot open lock file"):
        FileLock(tmp_path / "no" / "such" / "dir.lock").acquire()


def test_threads_take_turns(tmp_path: Path) -> None:
    path = tmp_path / "t.lock"
    inside = []
    overlaps = []

    def work() -> None:
        for _ in range(20):
            with FileLock(path):
                inside.append(1)
                if len(inside) > 1:
                    overlaps.append(len(inside))
                time.sleep(0.0005)
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []


_HOLDER = textwrap.dedent(
    """
    import sys, time
    from tvm_ffi.utils import FileLock
    lock = FileLock(sys.argv[1])
    lock.blocking_acquire()
    print("held", flush=True)
    time.sleep(60)
    """
)


def test_lock_of_a_killed_process_is_released(tmp_path: Path) -> None:
    path = tmp_path / "k.lock"
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert not FileLock(path).acquire()
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        waiter = FileLock(path)
        assert waiter.blocking_acquire(timeout=10, poll_interval=0.01)
        waiter.release()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
