"""What a build runs: a list of steps (compile, merge, embed, link), independent of who runs them.

Every step writes exactly one file. Its command names that file as :data:`OUT`; the runner
substitutes a temporary name and renames the finished file into place, so a reader (or a
second builder after a crash) never sees a half-written object or library.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = ["OUT", "BuildPlan", "Step", "plan_build"]

OUT = "\0out\0"
"""Placeholder in a step's command for the (temporary) file it writes."""

C_EXTS = frozenset({".c"})
CUDA_EXTS = frozenset({".cu"})
OBJECT_EXTS = frozenset({".o", ".obj"})


class Step(NamedTuple):
    """One command producing ``output`` (relative to the build directory) from ``inputs``.

    ``rule`` names the same command in ``build.ninja`` (a rule over the file's flag variables),
    with ``bindings`` for the rule's per-step variables.
    """

    output: str
    inputs: tuple[str, ...]
    command: tuple[str, ...]
    depfile: str | None = None
    rule: str = ""
    bindings: tuple[tuple[str, str], ...] = ()


class BuildPlan:
    """The steps in dependency order; the last one produces ``output``."""

    def __init__(self, output: str) -> None:
        self.output = output
        self.steps: list[Step] = []

    @property
    def object_steps(self) -> list[Step]:
        """The compile steps (independent of each other, so they may run in parallel)."""
        return [s for s in self.steps if s.depfile is not None]


class Flags(NamedTuple):
    """Complete command-line pieces for each language and for the link."""

    cxx: Sequence[str]
    cxxflags: Sequence[str]
    cc: Sequence[str]
    cflags: Sequence[str]
    gpu: Sequence[str]
    gpu_flags: Sequence[str]
    ldflags: Sequence[str]


_RULES = {"c": "c_compile", "cpp": "compile", "cuda": "compile_cuda"}


def _compile_step(compiler: Sequence[str], flags: Sequence[str], src: str, obj: str, kind: str) -> Step:
    depfile = f"{obj}.d"
    deps = ["-MD", "-MF", depfile, "-MT", obj] if kind == "cuda" else ["-MMD", "-MF", depfile, "-MT", obj]
    command = (*compiler, *deps, *flags, "-c", src, "-o", OUT)
    return Step(obj, (src,), command, depfile, _RULES[kind])


def plan_build(
    name: str,
    sources: Sequence[str],
    flags: Flags,
    output: str | None = None,
    cubins: Mapping[str, str] | None = None,
    windows: bool = False,
) -> BuildPlan:
    """Steps that compile ``sources`` (by extension) and link or merge them into ``output``.

    ``cubins`` maps an embedding name to a blob file; the objects are then merged, each blob is
    embedded under its name, and the result is linked. ``windows`` plans a DLL (for the text of
    a Windows ``build.ninja``; merging objects needs ``ld -r``, which Windows lacks).
    """
    object_mode = output is not None and Path(output).suffix.lower() in OBJECT_EXTS
    if windows and (object_mode or cubins):
        raise NotImplementedError("object output and CUBIN embedding need `ld -r`, which Windows lacks")
    target = Path(output).name if output is not None else f"{name}{'.dll' if windows else '.so'}"
    plan = BuildPlan(target)
    objects: list[str] = []
    counters = {"c": 0, "cpp": 0, "cuda": 0}
    for src in sorted(sources):
        ext = Path(src).suffix.lower()
        if ext in OBJECT_EXTS:
            objects.append(src)
            continue
        kind = "c" if ext in C_EXTS else "cuda" if ext in CUDA_EXTS else "cpp"
        obj = f"{kind}_{counters[kind]}.o"
        counters[kind] += 1
        if kind == "c":
            plan.steps.append(_compile_step(flags.cc, flags.cflags, src, obj, kind))
        elif kind == "cuda":
            plan.steps.append(_compile_step(flags.gpu, flags.gpu_flags, src, obj, kind))
        else:
            plan.steps.append(_compile_step(flags.cxx, flags.cxxflags, src, obj, kind))
        objects.append(obj)
    if not objects:
        raise ValueError(f"build '{name}': no source files to compile")

    if object_mode:
        plan.steps.append(_merge_step(objects, target))
        return plan
    if cubins:
        merged = "unified.o"
        plan.steps.append(_merge_step(objects, merged))
        for cubin_name in sorted(cubins):
            nxt = f"unified_with_{cubin_name}.o"
            command = (
                sys.executable, "-m", "tvm_ffi.utils.embed_cubin", "--output-obj", OUT,
                "--input-obj", merged, "--cubin", cubins[cubin_name], "--name", cubin_name,
            )
            bindings = (("cubin", cubins[cubin_name]), ("name", cubin_name))
            plan.steps.append(Step(nxt, (merged, cubins[cubin_name]), command, None, "embed_cubin", bindings))
            merged = nxt
        objects = [merged]
    link = (*flags.cxx, *objects, *flags.ldflags, "-o", OUT)
    plan.steps.append(Step(target, tuple(objects), link, None, "link"))
    return plan


def _merge_step(objects: list[str], target: str) -> Step:
    if len(objects) == 1:
        # A partial link of one object only rewrites it; a copy keeps it byte for byte.
        return Step(target, (objects[0],), ("cp", "-f", objects[0], OUT), None, "copy_object")
    return Step(target, tuple(objects), ("ld", "-r", "-o", OUT, *objects), None, "merge_objects")
