"""Benchmark worker: a long-lived process that times cases on request.

run.py starts one worker per package; which `tvm_ffi` a worker imports is decided only by its
environment (see refpkg.py). The protocol is one JSON object per line: requests on stdin, replies
on the original stdout. The process's own stdout is pointed at stderr, so output printed by
native code cannot corrupt the protocol.

Requests (`op`):
  hello                          -> python, executable, tvm_ffi (file), version, libtvm_ffi, error
  prepare  case, min_ns          -> number (loop count for one round of at least min_ns)
  measure  case                  -> ns (per call, one round of `number` calls)
  exit
Any failure of a case is returned as `{"error": "Type: message"}`.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import os
import sys
import textwrap
import time
from typing import Any, Callable

from cases import Case, find_case

_TEMPLATE = """\
def _bench(_n, _timer, _repeat):
{setup}
    _it = _repeat(None, _n)
    _t0 = _timer()
    for _ in _it:
{stmt}
    return _timer() - _t0
"""

# Calibration grows the loop tenfold until one run takes this fraction of the round's time,
# then scales the count up to the full round.
_CALIBRATION_FRACTION = 20
_MAX_NUMBER = 10**9

Bench = Callable[[int], int]


def compile_case(case: Case) -> Bench:
    """A function running `case.setup` and then timing `number` runs of `case.stmt` (in ns)."""
    source = _TEMPLATE.format(setup=textwrap.indent(case.setup.strip() or "pass", " " * 4),
                              stmt=textwrap.indent(case.stmt.strip(), " " * 8))
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<benchmark {case.name}>", "exec"), namespace)
    bench = namespace["_bench"]

    def run(number: int) -> int:
        enabled = gc.isenabled()
        gc.disable()  # as timeit does: a collection inside one round is noise
        try:
            return bench(number, time.perf_counter_ns, itertools.repeat)
        finally:
            if enabled:
                gc.enable()

    return run


def calibrate(bench: Bench, min_ns: int) -> int:
    """The smallest loop count whose round lasts about `min_ns`.

    The first run only warms up: a one-time cost it pays (a lazy import, a first-call cache
    fill, such as torch's on its first `from_dlpack`) would otherwise pass for the cost of every
    call and leave the case with a loop of a few calls, timed cold in every round.
    """
    bench(1)
    number = 1
    elapsed = bench(number)
    while elapsed * _CALIBRATION_FRACTION < min_ns and number < _MAX_NUMBER:
        number *= 10
        elapsed = bench(number)
    return max(1, min(_MAX_NUMBER, math.ceil(number * min_ns / max(elapsed, 1))))


def _describe(err: BaseException) -> str:
    first_line = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {first_line}" if first_line else type(err).__name__


def _loaded_runtime() -> str | None:
    """Path of the libtvm_ffi.so mapped into this process, read from /proc/self/maps."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                if line.rstrip().endswith("/libtvm_ffi.so"):
                    return line.split(maxsplit=5)[-1].strip()
    except OSError:
        pass
    return None


class Worker:
    """The state of one worker: the compiled cases and their loop counts."""

    def __init__(self) -> None:
        self.benches: dict[str, Bench] = {}
        self.numbers: dict[str, int] = {}

    def hello(self, _request: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = {"python": sys.version.split()[0], "executable": sys.executable}
        try:
            import tvm_ffi
        except BaseException as err:  # noqa: B036 -- report any import failure, even SystemExit
            reply["error"] = f"import tvm_ffi failed: {_describe(err)}"
            return reply
        reply["tvm_ffi"] = getattr(tvm_ffi, "__file__", None)
        reply["version"] = getattr(tvm_ffi, "__version__", None)
        reply["libtvm_ffi"] = _loaded_runtime()
        return reply

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        name = request["case"]
        bench = compile_case(find_case(name))
        self.numbers[name] = calibrate(bench, int(request["min_ns"]))
        self.benches[name] = bench
        return {"number": self.numbers[name]}

    def measure(self, request: dict[str, Any]) -> dict[str, Any]:
        name = request["case"]
        if name not in self.benches:
            raise RuntimeError(f"case {name!r} was not prepared")
        number = self.numbers[name]
        return {"ns": self.benches[name](number) / number, "number": number}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        handler = {"hello": self.hello, "prepare": self.prepare, "measure": self.measure}.get(request.get("op"))
        if handler is None:
            return {"error": f"unknown request {request!r}"}
        try:
            return handler(request)
        except Exception as err:
            return {"error": _describe(err)}


def main() -> None:
    """Serves requests until `exit` or the end of stdin."""
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    if len(sys.argv) > 1:  # optional CPU to pin to, so that both workers share one core
        os.sched_setaffinity(0, {int(sys.argv[1])})
    worker = Worker()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "exit":
            break
        protocol.write(json.dumps(worker.handle(request)) + "\n")


if __name__ == "__main__":
    main()
