"""``--coverage-out``: which object types' native layout the reflection fully describes.

A type is ``complete`` when its own reflected fields, by ascending offset, fill the bytes
``[parent's size, own size)`` exactly, each starting at the next offset its alignment allows,
and the end rounds up to the size at the largest alignment of the chain; its parent must be
complete too (the root, the 24-byte object header, is). Otherwise it is ``opaque``, with a
reason: ``layout-unknown`` (no size of its own, or a field without byte facts),
``parent-opaque``, ``field-overlap``, ``uncovered-bytes`` (a vtable pointer or an unreflected
member), ``no-mirror`` (the caller's target never reproduces the type's bytes), and for types
whose bytes are covered: ``unrenderable-field`` (the caller's predicate refused a field) or
``by-directive`` (the caller asked for it). The details are worded as the reference tool's, since
they reach generated code (the Rust backend's doc comments) and the JSON report, which uses the
reference's keys, one entry per type key; the module and its names are the reference's.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from .utils import NamedTypeSchema, ObjectInfo

OBJECT_HEADER_ALIGNMENT = 8


class ByteRange(NamedTuple):
    """The bytes ``[start, end)`` of an object."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"


class FieldBytes(NamedTuple):
    """Where one reflected field sits."""

    name: str
    offset: int | None
    size: int | None
    alignment: int | None


def align_up(value: int, alignment: int) -> int:
    """``value`` rounded up to a multiple of ``alignment``.

    Parameters
    ----------
    value : int
        A byte offset.
    alignment : int
        A positive alignment.

    Returns
    -------
    int
        The first multiple of ``alignment`` at or above ``value``.
    """
    return -(-value // alignment) * alignment


@dataclasses.dataclass
class Verdict:
    """The layout verdict of one type and the byte ranges behind it.

    Parameters
    ----------
    info : ObjectInfo
        The type's reflection.
    verdict : str
        ``"complete"`` or ``"opaque"``.
    reason : str, optional
        Why an opaque type is opaque (``"uncovered-bytes"``, ...).
    detail : str
        The evidence, in words.
    alignment : int, optional
        The alignment of a type whose layout is known.
    own_bytes : ByteRange, optional
        The bytes the type adds to its parent's.
    fields : list of FieldBytes
        The own reflected fields, by offset.
    uncovered : list of ByteRange
        Own bytes no field covers and alignment does not explain.
    padding : list of ByteRange
        Own bytes left empty by alignment.
    """

    info: ObjectInfo
    verdict: str = "opaque"
    reason: str | None = None
    detail: str = ""
    alignment: int | None = None
    own_bytes: ByteRange | None = None
    fields: list[FieldBytes] = dataclasses.field(default_factory=list)
    uncovered: list[ByteRange] = dataclasses.field(default_factory=list)
    padding: list[ByteRange] = dataclasses.field(default_factory=list)

    @property
    def is_complete(self) -> bool:
        """Whether the reflection describes every byte of the type."""
        return self.verdict == "complete"

    @property
    def total_size(self) -> int | None:
        """The type's registered size."""
        return self.info.total_size

    @property
    def is_final(self) -> bool | None:
        """Whether the type is registered final (None when it did not say)."""
        return self.info.is_final

    def to_json(self) -> dict[str, Any]:
        """The report entry of this type.

        Returns
        -------
        dict
            The verdict, its evidence and the type's layout facts, as JSON values.
        """
        info = self.info
        return {
            "verdict": self.verdict, "reason": self.reason, "detail": self.detail,
            "parent": info.parent_type_key, "ancestors": list(info.ancestors),
            "total_size": info.total_size, "is_final": info.is_final,
            "own_bytes": list(self.own_bytes) if self.own_bytes else None,
            "fields": [{"name": f.name, "offset": f.offset, "size": f.size, "alignment": f.alignment}
                       for f in self.fields] if self.reason != "layout-unknown" else [],
            "uncovered": [list(r) for r in self.uncovered], "padding": [list(r) for r in self.padding],
        }


def _ranges(ranges: list[ByteRange]) -> str:
    return ", ".join(str(r) for r in ranges)


def _gap(verdict: Verdict, cursor: int, expected: int, actual: int) -> None:
    """Sorts the bytes between ``cursor`` and ``actual``: padding when alignment explains them."""
    if expected != actual:
        verdict.uncovered.append(ByteRange(cursor, actual))
    elif expected != cursor:
        verdict.padding.append(ByteRange(cursor, expected))


def _fill(verdict: Verdict, start: int, end: int) -> None:
    """Walks the fields over ``[start, end)`` and sets the verdict."""
    assert verdict.alignment is not None
    cursor, overlap = start, None
    for field in verdict.fields:
        offset, size, alignment = field.offset or 0, field.size or 0, field.alignment or 1
        if offset < cursor:
            overlap = overlap or f"field {field.name!r} at [{offset}, {offset + size}) starts before byte {cursor}"
            cursor = max(cursor, offset + size)
            continue
        _gap(verdict, cursor, align_up(cursor, alignment), offset)
        cursor = offset + size
    if cursor > end:
        overlap = overlap or f"fields extend to byte {cursor}, past total_size {end}"
    else:
        _gap(verdict, cursor, align_up(cursor, verdict.alignment), end)
    if overlap:
        verdict.reason, verdict.detail = "field-overlap", overlap
    elif verdict.uncovered:
        verdict.reason = "uncovered-bytes"
        verdict.detail = (f"bytes {_ranges(verdict.uncovered)} of [{start}, {end}) are not accounted for "
                          "by reflected fields")
    else:
        verdict.verdict = "complete"
        verdict.detail = f"reflected fields fill [{start}, {end}) exactly"
        if verdict.padding:
            verdict.detail += f" (alignment padding {_ranges(verdict.padding)})"


def classify(infos: Mapping[str, ObjectInfo], *, forced_opaque: Collection[str] = frozenset(),
             unmirrored: Collection[str] = frozenset(),
             field_renderable: Callable[[NamedTypeSchema], bool] | None = None) -> dict[str, Verdict]:
    """Classify each type of ``infos``, parents before children.

    Parameters
    ----------
    infos : Mapping
        Type key -> reflection; every ancestor of a type must be among them (KeyError).
    forced_opaque : collection of str
        Types to report opaque (``by-directive``) even when their bytes are covered.
    unmirrored : collection of str
        Types whose bytes the caller's target never reproduces (its runtime owns them): opaque
        (``no-mirror``) before any evidence is weighed.
    field_renderable : callable, optional
        Asked about each field of a covered type; a field it refuses makes the type opaque
        (``unrenderable-field``).

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
        ordered = sorted(info.fields, key=lambda f: f.offset or 0)
        verdict.fields = [FieldBytes(f.name, f.offset, f.size, f.alignment) for f in ordered]
        missing = [f.name for f in info.fields if f.offset is None or f.size is None or f.alignment is None]
        if key in unmirrored:
            verdict.reason = "no-mirror"
            verdict.detail = "its bytes are owned by the target's runtime and never mirrored"
        elif info.total_size is None:
            verdict.reason, verdict.detail = "layout-unknown", "no metadata of its own: total_size is unknown"
        elif missing:
            verdict.reason = "layout-unknown"
            verdict.detail = f"field {missing[0]!r} carries no native layout facts"
        elif parent is None:
            verdict.verdict, verdict.alignment = "complete", OBJECT_HEADER_ALIGNMENT
            verdict.own_bytes = ByteRange(info.total_size, info.total_size)
            verdict.detail = f"object header [0, {info.total_size}): owned by the C ABI"
        elif not parent.is_complete:
            verdict.reason = "parent-opaque"
            verdict.detail = f"parent {parent.info.type_key!r} is opaque ({parent.reason})"
        else:
            assert parent.info.total_size is not None and parent.alignment is not None
            verdict.alignment = max([parent.alignment, *(f.alignment or 1 for f in info.fields)])
            verdict.own_bytes = ByteRange(parent.info.total_size, info.total_size)
            _fill(verdict, parent.info.total_size, info.total_size)
        if verdict.is_complete:
            _demote(verdict, ordered, key in forced_opaque, field_renderable)
        return verdict

    for key in infos:
        visit(key)
    return verdicts


def _demote(verdict: Verdict, ordered: list[NamedTypeSchema], forced: bool,
            field_renderable: Callable[[NamedTypeSchema], bool] | None) -> None:
    """A covered type the caller cannot render (its fields by offset), or asked to keep opaque."""
    if field_renderable is not None:
        for field in ordered:
            if not field_renderable(field):
                verdict.verdict, verdict.reason = "opaque", "unrenderable-field"
                verdict.detail = f"field {field.name!r} ({field.repr()}) has no native mirror"
                return
    if forced:
        verdict.verdict, verdict.reason = "opaque", "by-directive"
        verdict.detail = "vetoed by directive although the layout is reproducible"


def coverage_report(verdicts: dict[str, Verdict]) -> dict[str, dict[str, Any]]:
    """The JSON-ready report: one entry per type key, sorted.

    Parameters
    ----------
    verdicts : dict
        Type key -> verdict.

    Returns
    -------
    dict
        Type key -> its entry.
    """
    return {key: verdicts[key].to_json() for key in sorted(verdicts)}


def write_coverage_report(path: Path | str, verdicts: dict[str, Verdict]) -> None:
    """Write :func:`coverage_report` as JSON.

    Parameters
    ----------
    path : Path or str
        The output file.
    verdicts : dict
        Type key -> verdict.
    """
    Path(path).write_text(json.dumps(coverage_report(verdicts), indent=2) + "\n", encoding="utf-8")
