"""Interleaved measurement of cases in two workers, and the results it produces.

For each case both workers calibrate a loop of at least `min_time`; then each round times the
case and the floor in one worker and then in the other, alternating which goes first (A B, B A,
...), so slow drifts of the machine (clock, cache, neighbours) hit both sides alike. A side's
number is the median over the rounds.
"""

from __future__ import annotations

import statistics
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any

from cases import FLOOR, Case
from workerproc import WorkerDied, WorkerProcess


class CaseFailed(RuntimeError):
    """A case could not be prepared or measured in one worker; `stderr` is set when it died."""

    def __init__(self, message: str, stderr: str | None = None) -> None:
        super().__init__(message)
        self.stderr = stderr


@dataclass
class Side:
    """One worker's measurements of one case (ns per call, one entry per round)."""

    ns: list[float] = field(default_factory=list)
    floor_ns: list[float] = field(default_factory=list)
    number: int | None = None
    error: str | None = None
    floor_error: str | None = None
    # What a worker that died wrote to stderr meanwhile (a crash report, a backtrace).
    stderr: str | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.ns) if self.ns and self.error is None else None

    @property
    def floor_median(self) -> float | None:
        return statistics.median(self.floor_ns) if self.floor_ns else None

    def to_json(self) -> dict[str, Any]:
        return {"ns": self.median, "rounds_ns": self.ns, "floor_ns": self.floor_median,
                "floor_rounds_ns": self.floor_ns, "number": self.number, "error": self.error,
                "floor_error": self.floor_error, "stderr": self.stderr}


@dataclass
class CaseResult:
    """Both workers' measurements of one case, keyed by worker label."""

    case: Case
    sides: dict[str, Side]


class Session:
    """Runs cases on a pair of workers."""

    def __init__(self, workers: list[WorkerProcess], rounds: int, min_time: float, verbose: bool = True) -> None:
        self.workers = workers
        self.rounds = rounds
        self.min_ns = int(min_time * 1e9)
        # Generous: a round takes about min_time; anything far beyond that is a hang.
        self.timeout = 30.0 + 20 * min_time
        self.verbose = verbose
        self._floor_ready: dict[str, int] = {}  # label -> worker restart count when calibrated

    def _log(self, text: str) -> None:
        if self.verbose:
            print(text, file=sys.stderr, flush=True)

    def _ask(self, worker: WorkerProcess, message: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = worker.request(message, self.timeout)
        except WorkerDied as err:
            raise CaseFailed(str(err), err.stderr or None) from err
        if "error" in reply:
            raise CaseFailed(str(reply["error"]))
        return reply

    def hello(self) -> dict[str, dict[str, Any]]:
        """What each worker imported: {label: {tvm_ffi, version, libtvm_ffi, python, error?}}."""
        info: dict[str, dict[str, Any]] = {}
        for worker in self.workers:
            try:
                info[worker.label] = worker.request({"op": "hello"}, self.timeout)
            except WorkerDied as err:
                info[worker.label] = {"error": str(err)}
        return info

    def _ensure_floor(self, worker: WorkerProcess) -> None:
        """Calibrates the floor in `worker` unless done since the worker last (re)started."""
        if self._floor_ready.get(worker.label) == worker.restarts:
            return
        try:
            self._ask(worker, {"op": "prepare", "case": FLOOR.name, "min_ns": self.min_ns})
        except CaseFailed as err:
            raise CaseFailed(f"floor: {err}", err.stderr) from err
        self._floor_ready[worker.label] = worker.restarts

    def _measure_floor(self, worker: WorkerProcess) -> float:
        self._ensure_floor(worker)
        try:
            return float(self._ask(worker, {"op": "measure", "case": FLOOR.name})["ns"])
        except CaseFailed as err:
            raise CaseFailed(f"floor: {err}", err.stderr) from err

    def _fail(self, worker: WorkerProcess, side: Side, err: CaseFailed, *, floor: bool = False) -> None:
        if floor:
            side.floor_error = str(err)
        else:
            side.error = str(err)
        side.stderr = side.stderr or err.stderr
        if err.stderr:
            tail = "\n".join(err.stderr.splitlines()[-8:])
            self._log(f"  {worker.label} worker's stderr (end):\n" + textwrap.indent(tail, "    | "))

    def run_case(self, case: Case) -> CaseResult:
        """Calibrates and measures `case` in every worker, interleaving the rounds.

        The floor is measured even where the case fails, so the floor row stays meaningful.
        """
        result = CaseResult(case, {worker.label: Side() for worker in self.workers})
        for worker in self.workers:
            side = result.sides[worker.label]
            try:
                side.number = int(self._ask(worker, {"op": "prepare", "case": case.name,
                                                     "min_ns": self.min_ns})["number"])
            except CaseFailed as err:
                self._fail(worker, side, err)
        for round_index in range(self.rounds):
            order = self.workers if round_index % 2 == 0 else self.workers[::-1]
            for worker in order:
                side = result.sides[worker.label]
                if side.error is None:
                    try:
                        side.ns.append(float(self._ask(worker, {"op": "measure", "case": case.name})["ns"]))
                    except CaseFailed as err:
                        self._fail(worker, side, err)
                if side.floor_error is None:
                    try:
                        side.floor_ns.append(self._measure_floor(worker))
                    except CaseFailed as err:
                        self._fail(worker, side, err, floor=True)
        self._log(f"  {case.name}: " + ", ".join(
            f"{label} {_short(side)}" for label, side in result.sides.items()))
        return result

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


def _short(side: Side) -> str:
    if side.error is not None:
        return f"error ({side.error[:80]})"
    return f"{side.median:.1f} ns" if side.median is not None else "-"
