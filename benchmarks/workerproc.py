"""The parent's handle on one worker process (worker.py): requests with a deadline, restarts.

A worker that crashes (for example a segfault in a package under development) or stops answering
is reported as an error for the request in flight and started afresh for the next one, so one
broken case cannot stop the run.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

WORKER_SCRIPT = Path(__file__).resolve().parent / "worker.py"


class WorkerDied(RuntimeError):
    """The worker exited or timed out while serving a request; `stderr` is what it wrote meanwhile."""

    def __init__(self, reason: str, stderr: str) -> None:
        super().__init__(reason)
        self.stderr = stderr


def _exit_reason(returncode: int | None) -> str:
    if returncode is None:
        return "did not answer"
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


class WorkerProcess:
    """A worker running `python worker.py` in `env`; started lazily, restarted after a death."""

    def __init__(self, label: str, python: str, env: dict[str, str], cpu: int | None = None) -> None:
        self.label = label
        self.python = python
        self.env = env
        self.cpu = cpu
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: Any = None
        self._buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self._stderr is not None:
            self._stderr.close()
        self._stderr = tempfile.TemporaryFile()
        cmd = [self.python, str(WORKER_SCRIPT)] + ([str(self.cpu)] if self.cpu is not None else [])
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                      env=self.env)
        self._buffer = b""
        return self._proc

    def _stderr_since(self, offset: int, limit: int = 4000) -> str:
        """The end of what the worker wrote to stderr after `offset`."""
        if self._stderr is None:
            return ""
        # pread leaves the file offset alone: the worker shares it and may still be writing.
        fd = self._stderr.fileno()
        size = os.fstat(fd).st_size
        start = max(offset, size - limit)
        return os.pread(fd, size - start, start).decode(errors="replace").strip()

    def _read_line(self, proc: subprocess.Popen[bytes], deadline: float) -> bytes | None:
        """One reply line, or None at end of file or when the deadline passes."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Sends one request and returns the reply; WorkerDied when the worker dies or hangs."""
        proc = self._proc if self._proc is not None and self._proc.poll() is None else self._start()
        assert proc.stdin is not None and self._stderr is not None
        stderr_offset = os.fstat(self._stderr.fileno()).st_size
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
        except BrokenPipeError:
            pass  # the read below reports the death
        line = self._read_line(proc, time.monotonic() + timeout)
        if line is not None:
            return json.loads(line)
        timed_out = proc.poll() is None
        self._kill()
        reason = f"timed out after {timeout:.0f} s" if timed_out else _exit_reason(proc.returncode)
        raise WorkerDied(f"worker {reason}", self._stderr_since(stderr_offset))

    def _kill(self) -> None:
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._proc = None
        self.restarts += 1

    def close(self) -> None:
        """Asks the worker to exit, and kills it if it does not."""
        if self._proc is None:
            return
        try:
            if self._proc.poll() is None and self._proc.stdin is not None:
                self._proc.stdin.write(b'{"op": "exit"}\n')
                self._proc.stdin.close()
            self._proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()
        self._proc = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
