"""Concurrent builders of one module: one build, every caller gets a working library, and a
builder that dies mid-build does not block the next one."""

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
import tvm_ffi
import tvm_ffi.cpp
from _jit_sources import ADD_SOURCE, write
from tvm_ffi.cpp import _toolchain

# A compiler wrapper that logs every invocation; with JIT_TEST_STALL set, a compile announces
# itself by creating that file and then hangs (a builder that will be killed mid-build).
WRAPPER = """#!/bin/sh
echo "$*" >> "$JIT_TEST_LOG"
if [ -n "$JIT_TEST_STALL" ]; then
  case " $* " in *" -c "*) touch "$JIT_TEST_STALL"; sleep 300;; esac
fi
exec {cxx} "$@"
"""


@pytest.fixture
def logged_cxx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """CXX set to the logging wrapper; returns the log file."""
    wrapper = tmp_path / "cxx-wrapper.sh"
    wrapper.write_text(WRAPPER.format(cxx=os.environ.get("CXX", "c++")))
    wrapper.chmod(0o755)
    log = tmp_path / "compiler.log"
    monkeypatch.setenv("CXX", str(wrapper))
    monkeypatch.setenv("JIT_TEST_LOG", str(log))
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(tmp_path / "cache"))
    return log


def _invocations(log: Path) -> tuple[int, int]:
    lines = log.read_text().splitlines() if log.exists() else []
    compiles = sum(" -c " in f" {line} " for line in lines)
    return compiles, len(lines) - compiles


RACER = textwrap.dedent(
    """
    import os, sys, time
    import tvm_ffi, tvm_ffi.cpp
    go = sys.argv[2]
    while not os.path.exists(go):
        time.sleep(0.001)
    path = tvm_ffi.cpp.build("race", sources=sys.argv[1])
    print(tvm_ffi.load_module(path).add(20, 22), path)
    """
)


def test_three_processes_racing_build_once(tmp_path: Path, logged_cxx: Path) -> None:
    src = write(tmp_path / "race.cpp", ADD_SOURCE)
    go = tmp_path / "go"
    racers = [
        subprocess.Popen([sys.executable, "-c", RACER, str(src), str(go)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    time.sleep(0.5)  # let all three import and spin on the start line
    go.touch()
    results = [p.communicate(timeout=300) for p in racers]
    for proc, (_out, err) in zip(racers, results):
        assert proc.returncode == 0, err
    answers = {out.split()[0] for out, _ in results}
    paths = {out.split()[1] for out, _ in results}
    assert answers == {"42"} and len(paths) == 1
    assert _invocations(logged_cxx) == (1, 1)  # one compile, one link


def test_threads_racing_build_once(tmp_path: Path, logged_cxx: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", "direct")
    src = write(tmp_path / "t.cpp", ADD_SOURCE)
    paths: list[str] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            paths.append(tvm_ffi.cpp.build("threads", sources=src))
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(set(paths)) == 1 and len(paths) == 4
    assert tvm_ffi.load_module(paths[0]).add(1, 1) == 2
    assert _invocations(logged_cxx) == (1, 1)


def test_builder_waits_for_the_lock_holder(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from tvm_ffi.utils import FileLock

    src = write(tmp_path / "w.cpp", ADD_SOURCE)
    build_dir = tmp_path / "out"
    build_dir.mkdir()
    result: list[str] = []
    with FileLock(build_dir / "lock"), caplog.at_level("INFO", logger="tvm_ffi.cpp"):
        waiter = threading.Thread(target=lambda: result.append(tvm_ffi.cpp.build("w", sources=src,
                                                                               build_directory=build_dir)))
        waiter.start()
        deadline = time.monotonic() + 60
        while "waiting for process" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.01)
        assert f"waiting for process {os.getpid()}, which is building in {build_dir}" in caplog.text
        assert result == [] and waiter.is_alive()
    waiter.join(timeout=120)
    assert result == [str(build_dir / "w.so")]


STALLED = "import sys, tvm_ffi.cpp; tvm_ffi.cpp.build('crash', sources=sys.argv[1])"


@pytest.mark.parametrize("tool", ["ninja", "direct"])
def test_killed_builder_does_not_block(tmp_path: Path, logged_cxx: Path, monkeypatch: pytest.MonkeyPatch,
                                       tool: str) -> None:
    if tool == "ninja" and _toolchain.find_ninja() is None:
        pytest.skip("ninja is not installed")
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", tool)
    src = write(tmp_path / "crash.cpp", ADD_SOURCE)
    stalled = tmp_path / "stalled"
    env = {**os.environ, "JIT_TEST_STALL": str(stalled)}
    builder = subprocess.Popen([sys.executable, "-c", STALLED, str(src)], env=env, start_new_session=True,
                               stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not stalled.exists():  # the builder holds the lock and is inside the compiler
            assert builder.poll() is None, builder.stderr.read() if builder.stderr else ""
            assert time.monotonic() < deadline, "the builder never reached the compiler"
            time.sleep(0.01)
    finally:
        os.killpg(builder.pid, signal.SIGKILL)  # the builder and its compiler die mid-build
        builder.wait(timeout=30)
    (build_dir,) = (tmp_path / "cache").glob("crash_*")
    # what a compiler killed while writing leaves behind (ninja's rules and the direct runner)
    leftovers = [build_dir / "cpp_0.o.tmp", build_dir / "cpp_0.o.4242.0.tmp"]
    for leftover in leftovers:
        leftover.write_bytes(b"\x7fELF truncated")
    start = time.monotonic()
    path = tvm_ffi.cpp.build("crash", sources=src)
    assert time.monotonic() - start < 60
    assert tvm_ffi.load_module(path).add(2, 3) == 5
    assert not any(leftover.exists() for leftover in leftovers)


def _complete_elf(data: bytes) -> bool:
    """True when ``data`` is a whole ELF64 file: the section header table (last, as ld writes it) is all there."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        return False
    shoff = int.from_bytes(data[0x28:0x30], "little")
    shentsize = int.from_bytes(data[0x3A:0x3C], "little")
    shnum = int.from_bytes(data[0x3C:0x3E], "little")
    return shoff + shentsize * shnum == len(data)


@pytest.mark.parametrize("tool", ["ninja", "direct"])
def test_readers_never_see_a_torn_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str) -> None:
    if tool == "ninja" and _toolchain.find_ninja() is None:
        pytest.skip("ninja is not installed")
    monkeypatch.setenv("TVM_FFI_CPP_BUILD_TOOL", tool)
    src = write(tmp_path / "r.cpp", ADD_SOURCE)
    out = tmp_path / "out"
    library = Path(tvm_ffi.cpp.build("r", sources=src, build_directory=out))
    stop = threading.Event()
    reads: list[bool] = []

    def reader() -> None:
        while not stop.is_set():
            reads.append(_complete_elf(library.read_bytes()))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(4):  # rebuild in place while the reader keeps reading
            filler = "".join(f"static volatile int pad{i}_{k} = {k};\n" for k in range(200 * (i + 1)))
            write(src, ADD_SOURCE + filler)
            assert tvm_ffi.cpp.build("r", sources=src, build_directory=out) == str(library)
    finally:
        stop.set()
        thread.join()
    assert reads and all(reads), f"{reads.count(False)} of {len(reads)} reads saw a partial library"
