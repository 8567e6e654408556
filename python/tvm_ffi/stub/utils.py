"""The stub generator's records under the reference's module and names: ``NamedTypeSchema`` (a
reflected field: name, schema, layout facts), ``ObjectInfo`` (a reflected object type),
``FuncInfo``, ``InitConfig`` (the ``--init-*`` flags) and ``MISSING``."""

from __future__ import annotations

from .._core import MISSING
from ._init_pkg import InitConfig
from ._model import FieldInfo as NamedTypeSchema
from ._model import FuncInfo, ObjectInfo

__all__ = ["MISSING", "FuncInfo", "InitConfig", "NamedTypeSchema", "ObjectInfo"]
