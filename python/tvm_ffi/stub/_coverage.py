"""``--coverage-out``: which object types' native layout the reflection fully describes.

A type is ``complete`` when its own reflected fields, by ascending offset, fill the bytes
``[parent's size, own size)`` exactly, each starting at the next offset its alignment allows,
and the end rounds up to the size at the largest alignment of the chain; its parent must be
complete too (the root, the 24-byte object header, is). Otherwise it is ``opaque``, with a
reason: ``layout-unknown`` (no size of its own), ``parent-opaque``, ``field-overlap`` or
``uncovered-bytes`` (a vtable pointer or an unreflected member). The JSON report uses the
reference tool's keys, one entry per type key.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ._model import ObjectInfo

HEADER_ALIGNMENT = 8


def _align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


@dataclasses.dataclass
class Verdict:
    """The layout verdict of one type and the byte ranges behind it."""

    info: ObjectInfo
    verdict: str = "opaque"
    reason: str | None = None
    detail: str = ""
    alignment: int | None = None
    own_bytes: tuple[int, int] | None = None
    uncovered: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    padding: list[tuple[int, int]] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The report entry of this type."""
        info = self.info
        fields = sorted(info.fields, key=lambda f: f.offset or 0)
        return {
            "verdict": self.verdict, "reason": self.reason, "detail": self.detail,
            "parent": info.parent_type_key, "ancestors": list(info.ancestors),
            "total_size": info.total_size, "is_final": info.is_final,
            "own_bytes": list(self.own_bytes) if self.own_bytes else None,
            "fields": [{"name": f.name, "offset": f.offset, "size": f.size, "alignment": f.alignment}
                       for f in fields] if self.reason != "layout-unknown" else [],
            "uncovered": [list(r) for r in self.uncovered], "padding": [list(r) for r in self.padding],
        }


def _gap(verdict: Verdict, cursor: int, expected: int, actual: int) -> None:
    """Sorts the bytes between ``cursor`` and ``actual``: padding when alignment explains them."""
    if expected != actual:
        verdict.uncovered.append((cursor, actual))
    elif expected != cursor:
        verdict.padding.append((cursor, expected))


def _fill(verdict: Verdict, start: int, end: int) -> None:
    """Walks the fields over ``[start, end)`` and sets the verdict."""
    assert verdict.alignment is not None
    cursor, overlap = start, None
    for field in sorted(verdict.info.fields, key=lambda f: f.offset or 0):
        offset, size, alignment = field.offset or 0, field.size or 0, field.alignment or 1
        if offset < cursor:
            overlap = overlap or f"field {field.name!r} at [{offset}, {offset + size}) starts before byte {cursor}"
            cursor = max(cursor, offset + size)
            continue
        _gap(verdict, cursor, _align_up(cursor, alignment), offset)
        cursor = offset + size
    if cursor > end:
        overlap = overlap or f"the fields end at byte {cursor}, past the size {end}"
    else:
        _gap(verdict, cursor, _align_up(cursor, verdict.alignment), end)
    if overlap:
        verdict.reason, verdict.detail = "field-overlap", overlap
    elif verdict.uncovered:
        holes = ", ".join(f"[{a}, {b})" for a, b in verdict.uncovered)
        verdict.reason = "uncovered-bytes"
        verdict.detail = f"no reflected field covers bytes {holes} of [{start}, {end})"
    else:
        verdict.verdict = "complete"
        verdict.detail = f"the reflected fields fill [{start}, {end})"
        if verdict.padding:
            verdict.detail += " with alignment padding " + ", ".join(f"[{a}, {b})" for a, b in verdict.padding)


def classify(infos: dict[str, ObjectInfo]) -> dict[str, Verdict]:
    """Classify each type of ``infos`` (every ancestor must be among them).

    Parameters
    ----------
    infos : dict
        Type key -> reflection.

    Returns
    -------
    dict
        Type key -> verdict.
    """
    verdicts: dict[str, Verdict] = {}

    def visit(key: str) -> Verdict:
        if key in verdicts:
            return verdicts[key]
        info = infos[key]
        parent = visit(info.parent_type_key) if info.parent_type_key else None
        verdict = verdicts[key] = Verdict(info)
        if info.total_size is None or any(f.offset is None or f.size is None for f in info.fields):
            verdict.reason, verdict.detail = "layout-unknown", "the type registered no size of its own"
        elif parent is None:
            verdict.verdict, verdict.alignment = "complete", HEADER_ALIGNMENT
            verdict.own_bytes = (info.total_size, info.total_size)
            verdict.detail = f"the object header [0, {info.total_size}) is fixed by the C ABI"
        elif parent.verdict != "complete":
            verdict.reason = "parent-opaque"
            verdict.detail = f"the parent {parent.info.type_key!r} is opaque ({parent.reason})"
        else:
            assert parent.info.total_size is not None and parent.alignment is not None
            verdict.alignment = max([parent.alignment, *(f.alignment or 1 for f in info.fields)])
            verdict.own_bytes = (parent.info.total_size, info.total_size)
            _fill(verdict, parent.info.total_size, info.total_size)
        return verdict

    for key in infos:
        visit(key)
    return verdicts


def write_report(path: Path, verdicts: dict[str, Verdict]) -> None:
    """Write the JSON report: one entry per type key, sorted.

    Parameters
    ----------
    path : Path
        The output file.
    verdicts : dict
        Type key -> verdict.
    """
    report = {key: verdicts[key].to_json() for key in sorted(verdicts)}
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
