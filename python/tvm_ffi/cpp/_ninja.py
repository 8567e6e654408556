"""``build.ninja`` for a :class:`BuildPlan` (or for sources and flags: :func:`generate`, behind
``extension._generate_ninja_build``), and running ninja on it.

The file has the reference's layout, since other projects read and rewrite it (they wrap
``tvm_ffi.cpp.extension._generate_ninja_build``): first the variables ``cxx``, ``cxxflags``,
``cc``, ``cflags``, ``nvcc``, ``cuda_cflags`` and ``ldflags`` (one line each, up to the first
blank line), then one rule per kind of step (``compile``, ``c_compile``, ``compile_cuda``,
``merge_objects``, ``copy_object``, ``embed_cubin``, ``link``) and one build line per step.
Unlike the reference's, a POSIX rule writes a temporary file and renames it into place, so a
build killed midway never leaves a truncated object that looks up to date, and ninja reads the
depfiles without deleting them (the cache manifest lists the headers they name).
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from ._cache import write_atomic
from ._direct import display_command
from ._errors import BuildError
from ._flags import BuildFlags, Site, build_flags, quote
from ._plan import C_EXTS, BuildPlan, Flags, plan_build
from ._toolchain import find_ninja

__all__ = ["Compilers", "generate", "render_ninja", "run_in", "run_ninja"]


class Compilers(NamedTuple):
    """The compiler commands as shell text (``cc``/``nvcc`` only when the build compiles C/GPU code)."""

    cxx: str
    cc: str | None = None
    nvcc: str | None = None


def _path(text: str) -> str:
    """A path in a ninja build line."""
    return text.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _value(text: str) -> str:
    """Text in a ninja variable (its value runs to the end of the line)."""
    return text.replace("$", "$$")


# Each POSIX command writes `$out.tmp`, renamed over `$out` only when it succeeded.
_PUBLISH = "-o $out.tmp && mv -f $out.tmp $out"
_POSIX_RULES = {
    "compile": ("$cxx -MMD -MF $out.d -MT $out $cxxflags -c $in " + _PUBLISH, True),
    "c_compile": ("$cc -MMD -MF $out.d -MT $out $cflags -c $in " + _PUBLISH, True),
    "compile_cuda": ("$nvcc -MD -MF $out.d -MT $out $cuda_cflags -c $in " + _PUBLISH, True),
    "merge_objects": ("ld -r -o $out.tmp $in && mv -f $out.tmp $out", False),
    "copy_object": ("cp -f $in $out.tmp && mv -f $out.tmp $out", False),
    "embed_cubin": (f"{shlex.quote(sys.executable)} -m tvm_ffi.utils.embed_cubin --output-obj $out.tmp "
                    "--input-obj $in --cubin $cubin --name $name && mv -f $out.tmp $out", False),
    "link": ("$cxx $in $ldflags " + _PUBLISH, False),
}
# MSVC reports headers on stdout (/showIncludes) for ninja's `deps = msvc`.
_WINDOWS_RULES = {
    "compile": ("$cxx /showIncludes $cxxflags -c $in /Fo$out", "msvc"),
    "c_compile": ("$cc /showIncludes $cflags -c $in /Fo$out", "msvc"),
    "compile_cuda": ("$nvcc -MD -MF $out.d $cuda_cflags -c $in -o $out", "depfile"),
    "link": ("$cxx $in /link $ldflags /out:$out", None),
}


def _variables(compilers: Compilers, flags: BuildFlags, windows: bool) -> list[str]:
    lines = ["ninja_required_version = 1.3", f"cxx = {_value(compilers.cxx)}",
             f"cxxflags = {_value(flags.cxxflags.shell_text(windows))}"]
    if compilers.cc is not None:
        lines += [f"cc = {_value(compilers.cc)}", f"cflags = {_value(flags.cflags.shell_text(windows))}"]
    if compilers.nvcc is not None:
        lines += [f"nvcc = {_value(compilers.nvcc)}",
                  f"cuda_cflags = {_value(flags.cuda_cflags.shell_text(windows))}"]
    lines.append(f"ldflags = {_value(flags.ldflags.shell_text(windows))}")
    return lines


def _rule(name: str, windows: bool) -> list[str]:
    lines = [f"rule {name}"]
    if windows:
        command, deps = _WINDOWS_RULES[name]
        lines.append(f"  command = {command}")
        if deps == "msvc":
            lines.append("  deps = msvc")
        elif deps == "depfile":
            lines.append("  depfile = $out.d")
    else:
        command, has_depfile = _POSIX_RULES[name]
        lines.append(f"  command = {command}")
        if has_depfile:
            lines.append("  depfile = $out.d")
    return [*lines, ""]


def render_ninja(plan: BuildPlan, compilers: Compilers, flags: BuildFlags, windows: bool = False) -> str:
    """The text of ``build.ninja`` for ``plan``."""
    lines = [*_variables(compilers, flags, windows), ""]
    used = list(dict.fromkeys(step.rule for step in plan.steps))
    for rule in used:
        lines += _rule(rule, windows)
    for step in plan.steps:
        # embed_cubin's $in is the object; the CUBIN file is an implicit input.
        explicit = step.inputs[:1] if step.rule == "embed_cubin" else step.inputs
        implicit = step.inputs[len(explicit):]
        line = f"build {_path(step.output)}: {step.rule} {' '.join(_path(p) for p in explicit)}"
        if implicit:
            line += f" | {' '.join(_path(p) for p in implicit)}"
        lines.append(line)
        lines += [f"  {key} = {_value(shlex.quote(value))}" for key, value in step.bindings]
    lines += ["", f"default {_path(plan.output)}", ""]
    return "\n".join(lines)


def generate(name: str, site: Site, backend: str | None, extra_cflags: Sequence[str],
             extra_cuda_cflags: Sequence[str], extra_ldflags: Sequence[str], extra_include_paths: Sequence[str],
             sources: Sequence[str], cubin_names: Sequence[str], output: str | None) -> str:
    """``build.ninja`` for building ``sources`` at ``site`` (the extra flags are shell text)."""
    flags = build_flags(site, backend, [f.strip() for f in extra_cflags], [f.strip() for f in extra_cuda_cflags],
                        [f.strip() for f in extra_ldflags], [str(Path(p).resolve()) for p in extra_include_paths])
    default_cxx, default_cc = ("cl", "cl") if site.windows else ("c++", "cc")
    has_c = any(Path(s).suffix.lower() in C_EXTS for s in sources)
    cc = os.environ.get("CC", default_cc) if has_c else None
    nvcc = None
    if backend is not None and site.gpu_home is not None:
        nvcc = quote(str(Path(site.gpu_home) / "bin" / ("nvcc" if backend == "cuda" else "hipcc")), site.windows)
    compilers = Compilers(os.environ.get("CXX", default_cxx), cc, nvcc)
    commands = Flags(shlex.split(compilers.cxx), flags.cxxflags.argv(), shlex.split(cc or ""), flags.cflags.argv(),
                     shlex.split(nvcc or ""), flags.cuda_cflags.argv(), flags.ldflags.argv())
    cubins = {key: f"{key}.cubin" for key in cubin_names}
    plan = plan_build(name, list(sources), commands, output, cubins, site.windows)
    return render_ninja(plan, compilers, flags, site.windows)


def run_in(build_dir: str | os.PathLike[str]) -> None:
    """Runs ninja on the ``build.ninja`` in ``build_dir``; ``RuntimeError`` with its output when it fails."""
    command = [find_ninja() or "ninja", "-v"]
    jobs = os.environ.get("MAX_JOBS")
    if jobs:
        command += ["-j", jobs]
    proc = subprocess.run(command, cwd=build_dir, capture_output=True, check=False)
    stdout, stderr = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        parts = [f"ninja exited with status {proc.returncode}"]
        parts += [f"{label}:\n{text}" for label, text in (("stdout", stdout), ("stderr", stderr)) if text]
        raise RuntimeError("\n".join(parts))
    if os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0") in ("1", "stdout", "stderr"):
        logging.getLogger("tvm_ffi.cpp").info("ninja build in %s:\n%s%s", build_dir, stdout, stderr)


_FAILED = re.compile(r"^FAILED: (?P<targets>.*)$", re.MULTILINE)


def run_ninja(ninja: str, name: str, build_dir: Path, text: str, plan: BuildPlan, jobs: int) -> str:
    """Writes ``text`` as ``build.ninja``, runs ninja and returns its output; :class:`BuildError`
    when a step fails."""
    write_atomic(build_dir / "build.ninja", text.encode())
    proc = subprocess.run([ninja, "-v", "-j", str(jobs)], cwd=build_dir, capture_output=True, check=False)
    output = (proc.stdout + proc.stderr).decode("utf-8", errors="replace")
    if proc.returncode == 0:
        return output
    failed = _FAILED.search(output)
    targets = failed["targets"].split() if failed else []
    step = next((s for s in plan.steps if _path(s.output) in targets), None)
    command = display_command(step) if step is not None else f"{ninja} -j {jobs}"
    raise BuildError(name, command, str(build_dir), output, proc.returncode)
