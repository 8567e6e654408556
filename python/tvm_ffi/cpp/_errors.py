"""``BuildError``: a failed compile or link, with the compiler's first errors, the command and the build directory."""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["BuildError", "first_errors"]

# gcc/clang: "file:line:col: error: msg" (or "fatal error"); nvcc's front end: "file(line): error: msg";
# the linker: "ld: ... undefined reference ..." / "... error: ...".
_DIAGNOSTIC = (
    r"^(?P<loc>(?:[^\s:]|[A-Za-z]:)[^:\n]*?(?::\d+(?::\d+)?|\(\d+\))):\s*(?:fatal )?error:?\s(?P<msg>.*)$"
)
_LINKER = r"(undefined reference to|multiple definition of|cannot find -l|ld returned \d+ exit status)"
_MAX_ERRORS = 5
_MAX_OUTPUT = 20000


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    # Compiled on the first error, not when `import tvm_ffi` imports this module.
    return re.compile(_DIAGNOSTIC), re.compile(_LINKER)


def first_errors(output: str, limit: int = _MAX_ERRORS) -> list[str]:
    """The first ``limit`` error lines of a compiler or linker output, location first."""
    diagnostic, linker = _patterns()
    found: list[str] = []
    for line in output.splitlines():
        line = line.rstrip()
        match = diagnostic.match(line)
        if match is not None:
            found.append(f"{match['loc']}: error: {match['msg']}")
        elif linker.search(line):
            found.append(line.strip())
        if len(found) >= limit:
            break
    return found


class BuildError(RuntimeError):
    """A step of a :mod:`tvm_ffi.cpp` build failed.

    ``str()`` starts with the first errors (``file:line:col: error: ...``), then the failing
    command and the build directory, then the full output of the failing step.

    Parameters
    ----------
    name : str
        The module being built.
    command : str
        The failing command line.
    build_dir : str
        The build directory.
    output : str
        Everything the failing step printed.
    returncode : int
        Its exit status.

    Attributes
    ----------
    errors : list of str
        The first error lines found in ``output``.

    Examples
    --------
    >>> from tvm_ffi.cpp import BuildError
    >>> err = BuildError("m", "c++ -c x.cc", "/tmp/b", "x.cc:1:1: error: oops\\n", 1)
    >>> err.errors, isinstance(err, RuntimeError)
    (['x.cc:1:1: error: oops'], True)
    """

    def __init__(self, name: str, command: str, build_dir: str, output: str, returncode: int) -> None:
        self.name = name
        self.command = command
        self.build_dir = build_dir
        self.output = output
        self.returncode = returncode
        self.errors = first_errors(output)
        shown = output if len(output) <= _MAX_OUTPUT else "...\n" + output[-_MAX_OUTPUT:]
        lines = [f"Failed to build module '{name}' (exit status {returncode})"]
        lines += [f"  {err}" for err in self.errors] or ["  (no error line recognised; see the output below)"]
        lines += [f"command: {command}", f"build directory: {build_dir}", "output:", shown.rstrip()]
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.name, self.command, self.build_dir, self.output, self.returncode))
