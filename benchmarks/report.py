"""Turns measurements into the markdown table (for the README) and the JSON record."""

from __future__ import annotations

import statistics
from typing import Any

from cases import FLOOR
from session import CaseResult, Side

_MAX_ERROR_CHARS = 70


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator


def _cell_ns(side: Side) -> str:
    if side.error is not None:
        text = side.error if len(side.error) <= _MAX_ERROR_CHARS else side.error[:_MAX_ERROR_CHARS - 3] + "..."
        return "n/a (error: " + text.replace("|", "\\|").replace("\n", " ") + ")"
    return f"{side.median:.1f}" if side.median is not None else "n/a"


def _cell_ratio(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "n/a"


def floor_result(results: list[CaseResult], labels: list[str]) -> CaseResult:
    """The floor as a row of its own: every floor round measured alongside the cases."""
    sides = {}
    for label in labels:
        ns = [value for result in results for value in result.sides[label].floor_ns]
        errors = [result.sides[label].floor_error for result in results if result.sides[label].floor_error]
        sides[label] = Side(ns=ns, floor_ns=list(ns), error=None if ns else (errors[0] if errors else "not measured"))
    return CaseResult(FLOOR, sides)


def _target(result: CaseResult, ratio: float | None, over_floor: float | None) -> str:
    if result.case is FLOOR:
        return ""
    if ratio is None:
        return "n/a"
    misses = []
    if ratio > result.case.ref_target:
        misses.append(f"> {result.case.ref_target:g}x ref")
    if result.case.floor_target is not None and (over_floor is None or over_floor > result.case.floor_target):
        misses.append(f"> {result.case.floor_target:g}x floor")
    return "miss (" + ", ".join(misses) + ")" if misses else "ok"


def markdown_table(results: list[CaseResult], labels: list[str], with_targets: bool) -> str:
    """The table: case | A ns | B ns | A/B | A/floor [| target], the floor first."""
    a, b = labels
    header = ["case", f"{a} ns", f"{b} ns", f"{a}/{b}", f"{a}/floor"] + (["target"] if with_targets else [])
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(["---"] + ["---:"] * 4 + (["---"] if with_targets else [])) + "|"]
    for result in [floor_result(results, labels), *results]:
        side_a, side_b = result.sides[a], result.sides[b]
        ratio = _ratio(side_a.median, side_b.median)
        over_floor = _ratio(side_a.median, side_a.floor_median)
        row = [result.case.name.replace("|", "\\|"), _cell_ns(side_a), _cell_ns(side_b), _cell_ratio(ratio),
               _cell_ratio(over_floor)]
        if with_targets:
            row.append(_target(result, ratio, over_floor))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def target_summary(results: list[CaseResult], labels: list[str]) -> str:
    """One line per target: how many cases meet their `ours/ref` target, and the floor targets."""
    a, b = labels
    ratios = [(_ratio(r.sides[a].median, r.sides[b].median), r.case.ref_target) for r in results]
    measured = [(ratio, target) for ratio, target in ratios if ratio is not None]
    met = sum(ratio <= target for ratio, target in measured)
    lines = [f"- every case within its {b} target: met by {met} of {len(results)} cases"
             + (f" ({len(results) - len(measured)} not measured)" if len(measured) < len(results) else "")]
    for result in results:
        if result.case.floor_target is None:
            continue
        over_floor = _ratio(result.sides[a].median, result.sides[a].floor_median)
        verdict = "n/a" if over_floor is None else ("met" if over_floor <= result.case.floor_target else "missed")
        shown = f" ({over_floor:.2f}x)" if over_floor is not None else ""
        lines.append(f"- {result.case.name} <= {result.case.floor_target:g}x floor: {verdict}{shown}")
    return "\n".join(lines)


# Issue 18 target for the geometric mean of ours/ref over every case.
GEOMEAN_TARGET = 0.25


def geomean_summary(results: list[CaseResult], labels: list[str]) -> str:
    """The geometric mean of `ours/ref` over every measured case (the floor excluded)."""
    a, b = labels
    ratios = [ratio for r in results if (ratio := _ratio(r.sides[a].median, r.sides[b].median)) is not None]
    if not ratios:
        return f"- geomean of {a}/{b}: nothing measured"
    value = statistics.geometric_mean(ratios)
    verdict = "met" if value <= GEOMEAN_TARGET else "missed"
    return (f"- geomean of {a}/{b} over {len(ratios)} cases: {value:.3f} "
            f"(target <= {GEOMEAN_TARGET:g}: {verdict})")


# Per-argument cost of a framework tensor: the same kernel call with framework tensors minus the
# call with tvm_ffi.Tensor arguments (already converted), divided by the two arguments.
# Issue 18 target: 100 ns per torch tensor argument.
PER_TENSOR_ARG = (("add_one_cpu(torch, torch)", "add_one_cpu(Tensor, Tensor)", 2, 100.0),)


def per_argument_summary(results: list[CaseResult], labels: list[str]) -> str:
    """Lines `<case>: N ns per tensor argument on top of the call` for each measured pair."""
    by_name = {result.case.name: result for result in results}
    lines = []
    for name, baseline, nargs, target in PER_TENSOR_ARG:
        if name not in by_name or baseline not in by_name:
            continue
        parts = []
        for label in labels:
            with_args = by_name[name].sides[label].median
            base = by_name[baseline].sides[label].median
            if with_args is not None and base is not None:
                parts.append(f"{label} {(with_args - base) / nargs:.1f} ns")
        if parts:
            lines.append(f"- {name}: per tensor argument on top of the call: {', '.join(parts)} "
                         f"(target <= {target:g} ns for {labels[0]})")
    return "\n".join(lines)


def self_test_summary(results: list[CaseResult], labels: list[str]) -> str:
    """For two workers running the same package: how far the A/B ratios stray from 1."""
    a, b = labels
    ratios = [ratio for r in [floor_result(results, labels), *results]
              if (ratio := _ratio(r.sides[a].median, r.sides[b].median)) is not None]
    if not ratios:
        return "- self-test: nothing measured"
    worst = max(abs(ratio - 1.0) for ratio in ratios)
    return (f"- self-test ({a} and {b} run the same package): {a}/{b} ranges {min(ratios):.2f}..{max(ratios):.2f}, "
            f"median {statistics.median(ratios):.2f}; worst deviation from 1.00 is {worst:.0%}")


def to_json(results: list[CaseResult], labels: list[str], meta: dict[str, Any]) -> dict[str, Any]:
    """The JSON record: run settings and workers, then every case with all its rounds."""
    a, b = labels
    cases = []
    for result in [floor_result(results, labels), *results]:
        side_a, side_b = result.sides[a], result.sides[b]
        cases.append({
            "name": result.case.name, "setup": result.case.setup, "stmt": result.case.stmt,
            "floor_target": result.case.floor_target,
            "ref_target": result.case.ref_target,
            a: side_a.to_json(), b: side_b.to_json(),
            "ratio": _ratio(side_a.median, side_b.median),
            f"{a}_over_floor": _ratio(side_a.median, side_a.floor_median),
            f"{b}_over_floor": _ratio(side_b.median, side_b.floor_median),
        })
    return {"meta": meta, "labels": labels, "cases": cases}
