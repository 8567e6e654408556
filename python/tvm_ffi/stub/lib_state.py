"""What the loaded libraries registered, under the reference's module and names:
``collect_type_keys()`` (object type keys by prefix), ``object_info_from_type_key(key)`` and
``toposort_objects(keys)`` (parents first)."""

from __future__ import annotations

from ._model import collect_global_funcs, collect_type_keys
from ._model import object_info as object_info_from_type_key
from ._model import toposort as toposort_objects

__all__ = ["collect_global_funcs", "collect_type_keys", "object_info_from_type_key", "toposort_objects"]
