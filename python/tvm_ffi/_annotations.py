"""Evaluating string annotations, with PEP 604 unions (``int | None``) on Python 3.9 too.

Under ``from __future__ import annotations`` every annotation is a string, and users write the
modern spelling ``int | None`` whatever interpreter they target; stdlib dataclasses never
evaluate annotations, so such classes work on 3.9. Reflected classes do evaluate them (a field's
type picks its storage and converter), so before 3.10, where ``type | type`` raises TypeError,
an annotation that fails that way is evaluated again with each ``a | b`` read as
``typing.Union[a, b]``: the same type 3.10 builds, as far as ``typing.get_origin`` can tell.
"""

from __future__ import annotations

import ast
import functools
import operator
import sys
import types
import typing
from typing import Any

_UNION_NAME = "__tvm_ffi_union__"
_HAS_PEP604 = sys.version_info >= (3, 10)


class _UnionsFromBitOr(ast.NodeTransformer):
    """Rewrites ``a | b`` to ``Union[a, b]`` (``a | b | c`` nests, which Union flattens)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr):
            return node
        union = ast.Name(id=_UNION_NAME, ctx=ast.Load())
        members = ast.Tuple(elts=[node.left, node.right], ctx=ast.Load())
        return ast.copy_location(ast.Subscript(value=union, slice=members, ctx=ast.Load()), node)


def eval_annotation(text: str, globalns: dict[str, Any], localns: dict[str, Any] | None = None) -> Any:
    """The value of the annotation ``text``, as ``eval`` gives it on 3.10+, on every Python."""
    try:
        return eval(text, globalns, localns)  # noqa: S307 -- annotations are code by design
    except TypeError:
        if _HAS_PEP604 or "|" not in text:
            raise
    tree = ast.fix_missing_locations(_UnionsFromBitOr().visit(ast.parse(text, mode="eval")))
    code = compile(tree, "<annotation>", "eval")
    return eval(code, globalns, {**(localns or {}), _UNION_NAME: typing.Union})  # noqa: S307


def type_hints(obj: Any, localns: dict[str, Any] | None = None) -> dict[str, Any]:
    """``typing.get_type_hints(obj)`` that also reads ``a | b`` string annotations on 3.9.

    Classes merge the annotations of their bases (nearest last wins), as get_type_hints does.
    """
    try:
        return typing.get_type_hints(obj, localns=localns)
    except TypeError:
        if _HAS_PEP604:
            raise
    if isinstance(obj, type):
        hints: dict[str, Any] = {}
        for base in reversed(obj.__mro__):
            module = sys.modules.get(base.__module__)
            globalns = dict(vars(module)) if module is not None else {}
            base_locals = {**dict(vars(base)), **(localns or {})}
            for name, ann in base.__dict__.get("__annotations__", {}).items():
                hints[name] = _evaluated(ann, globalns, base_locals)
        return hints
    globalns = getattr(obj, "__globals__", {})
    return {name: _evaluated(ann, globalns, localns) for name, ann in getattr(obj, "__annotations__", {}).items()}


def _evaluated(ann: Any, globalns: dict[str, Any], localns: dict[str, Any] | None) -> Any:
    while isinstance(ann, str):
        ann = eval_annotation(ann, globalns, localns)
    return type(None) if ann is None else ann


def _has_nested_reference(ann: Any) -> bool:
    """Whether a generic annotation holds a quoted name (``Optional["Node"]``, ``list["Node"]``)."""
    if isinstance(ann, typing.ForwardRef):
        return True
    args = getattr(ann, "__args__", None)
    if not isinstance(args, tuple):
        return False
    # Plain-text arguments are names only in builtin generics (``list["Node"]``); in typing's
    # Literal they are values.
    quoted = isinstance(ann, types.GenericAlias) and any(isinstance(a, str) for a in args)
    return quoted or any(_has_nested_reference(a) for a in args if not isinstance(a, str))


def resolve_nested(ann: Any, globalns: dict[str, Any], localns: dict[str, Any] | None = None) -> Any:
    """``ann`` with the quoted names inside it evaluated: ``Optional["Node"]`` -> ``Optional[Node]``.

    A self-referencing field (``next: Optional["Node"]``) is the common case. Raises NameError
    while a name is not defined yet, as evaluating a whole quoted annotation does.
    """
    if not _has_nested_reference(ann):
        return ann
    if isinstance(ann, types.GenericAlias):  # list["Node"]: get_type_hints leaves the text on 3.9
        args = tuple(resolve_nested(_evaluated(a, globalns, localns), globalns, localns) for a in ann.__args__)
        return types.GenericAlias(typing.get_origin(ann), args)
    if _HAS_PEP604 and isinstance(ann, types.UnionType):  # list["Node"] | None
        members = [resolve_nested(a, globalns, localns) for a in ann.__args__]
        return functools.reduce(operator.or_, members)
    holder = types.SimpleNamespace(__annotations__={"ann": ann})
    return typing.get_type_hints(holder, globalns, localns, include_extras=True)["ann"]
