"""The ``prefix`` directive: a file that declares every object type under a prefix.

``# tvm-ffi-stubgen(prefix): mylib`` makes the run append an empty ``object/<key>`` block (and
an ``import-section`` when the file has none) for each registered ``mylib.<Name>`` type that no
block of the run declares and no ``skip`` directive names, parents first, and drop the blocks
of types under the prefix that are no longer registered. The normal pass then fills them.
"""

from __future__ import annotations

from ._generate import StubgenError
from ._markers import BEGIN, END, Segment, SourceFile
from ._model import BUILTIN_TYPE_KEYS, collect_type_keys, toposort


def _empty_block(kind: str, arg: str, lineno: int) -> list[Segment]:
    """A blank line and an empty block, as inserted into a file."""
    spec = f"{kind}/{arg}" if arg else kind
    return [Segment(None, "", [""], lineno), Segment(kind, arg, [f"{BEGIN} {spec}", END], lineno)]


def owners(sources: list[SourceFile]) -> dict[str, str]:
    """Prefix -> the file that declares it.

    Parameters
    ----------
    sources : list of SourceFile
        The run's files.

    Returns
    -------
    dict
        The first file naming each prefix.

    Raises
    ------
    StubgenError
        When a file has two ``prefix`` directives or two files claim one prefix.
    """
    found: dict[str, str] = {}
    for source in sources:
        heads = source.directives("prefix")
        if len(heads) > 1:
            raise StubgenError(f"{source.path}: more than one prefix directive (line {heads[1].lineno})")
        if heads:
            prefix = heads[0].payload.rstrip(".")
            if found.setdefault(prefix, source.path) != source.path:
                raise StubgenError(f"{source.path}: prefix {prefix!r} is already declared by {found[prefix]}")
    return found


def roll_out(source: SourceFile, declared: set[str]) -> None:
    """Add and remove the ``object/`` blocks the file's ``prefix`` directive asks for.

    Parameters
    ----------
    source : SourceFile
        A file of the run; nothing happens without a ``prefix`` directive.
    declared : set of str
        Type keys that a block of the run declares already.
    """
    heads = source.directives("prefix")
    if not heads:
        return
    head = heads[0]
    prefix = head.payload.rstrip(".")
    registered = collect_type_keys().get(prefix, [])
    kept: list[Segment] = []
    for seg in source.segments:
        if seg.kind == "object" and seg.arg.rpartition(".")[0] == prefix and seg.arg not in registered:
            if kept and kept[-1].kind is None and kept[-1].lines == [""]:
                kept.pop()  # the blank line put before it
            continue
        kept.append(seg)
    source.segments[:] = kept
    skipped = {seg.payload.strip() for seg in source.directives("skip")}
    keys = [k for k in registered if k not in declared and k not in skipped and k not in BUILTIN_TYPE_KEYS]
    if not keys:
        return
    segments = source.segments
    if not source.blocks("import-section"):
        at = segments.index(head) + 1
        segments[at:at] = _empty_block("import-section", "", head.lineno)
    at = max(i for i, s in enumerate(segments) if s.kind in ("object", "import-section")) + 1
    segments[at:at] = [seg for info in toposort(keys) for seg in _empty_block("object", info.type_key, head.lineno)]
    declared.update(keys)
