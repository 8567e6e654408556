"""Runs a :class:`BuildPlan` by calling the compilers directly, object files in parallel.

Used when ninja is not installed (or ``TVM_FFI_CPP_BUILD_TOOL=direct``). Like ninja it skips a
step whose output is newer than every input it read (the depfile's headers included) and whose
command is unchanged since it last ran.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from ._cache import parse_depfile, write_atomic
from ._errors import BuildError
from ._plan import OUT, BuildPlan, Step

__all__ = ["display_command", "run_direct"]


def display_command(step: Step) -> str:
    """The step's command as a shell line, naming its real output."""
    return shlex.join(step.output if arg == OUT else arg for arg in step.command)


def _stamp_path(build_dir: Path, step: Step) -> Path:
    return build_dir / f"{step.output}.cmd"


def _up_to_date(build_dir: Path, step: Step) -> bool:
    out = build_dir / step.output
    try:
        out_mtime = out.stat().st_mtime_ns
        if _stamp_path(build_dir, step).read_text() != display_command(step):
            return False
        inputs = list(step.inputs)
        if step.depfile is not None:
            inputs += parse_depfile((build_dir / step.depfile).read_text())
        return all((build_dir / p).stat().st_mtime_ns <= out_mtime for p in inputs)
    except (OSError, UnicodeDecodeError):
        return False


def _run_step(name: str, build_dir: Path, step: Step, tag: str) -> str:
    tmp = f"{step.output}.{os.getpid()}.{tag}.tmp"
    command = [tmp if arg == OUT else arg for arg in step.command]
    proc = subprocess.run(command, cwd=build_dir, capture_output=True, check=False)
    if proc.returncode != 0:
        (build_dir / tmp).unlink(missing_ok=True)
        output = (proc.stdout + proc.stderr).decode("utf-8", errors="replace")
        raise BuildError(name, display_command(step), str(build_dir), output, proc.returncode)
    os.replace(build_dir / tmp, build_dir / step.output)
    write_atomic(_stamp_path(build_dir, step), display_command(step).encode())
    output = (proc.stdout + proc.stderr).decode("utf-8", errors="replace")
    return f"{display_command(step)}\n{output}"


def run_direct(name: str, build_dir: Path, plan: BuildPlan, jobs: int) -> str:
    """Brings every step of ``plan`` up to date and returns the commands and their output.

    Raises :class:`BuildError` on the first failure.
    """
    import threading  # noqa: PLC0415  (only builds pay these imports)
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    compiles = [s for s in plan.object_steps if not _up_to_date(build_dir, s)]
    failed = threading.Event()

    def compile_one(index: int, step: Step) -> str | None:
        if failed.is_set():  # like ninja: start nothing new after a failure
            return None
        try:
            return _run_step(name, build_dir, step, str(index))
        except BaseException:
            failed.set()
            raise

    logs: list[str] = []
    if compiles:
        with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(compiles)))) as pool:
            futures = [pool.submit(compile_one, i, s) for i, s in enumerate(compiles)]
        first = next((f.exception() for f in futures if f.exception() is not None), None)
        if first is not None:
            raise first
        logs = [log for log in (f.result() for f in futures) if log is not None]
    rebuilt = bool(compiles)
    for step in plan.steps:
        if step.depfile is not None:
            continue
        if rebuilt or not _up_to_date(build_dir, step):
            logs.append(_run_step(name, build_dir, step, "final"))
            rebuilt = True
    return "".join(logs)
