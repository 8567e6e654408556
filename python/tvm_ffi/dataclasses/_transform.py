"""PEP 681 ``dataclass_transform`` for our class decorators, on every supported Python.

Type checkers read the marker to learn that ``@c_class``/``@py_class`` classes get dataclass
``__init__`` signatures from their annotations; at run time it only sets the
``__dataclass_transform__`` mapping (Python 3.11 and later have it in ``typing``).
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:

    def dataclass_transform(*, eq_default: bool = True, order_default: bool = False,
                            kw_only_default: bool = False, frozen_default: bool = False,
                            field_specifiers: tuple[Any, ...] = (),
                            **kwargs: Any) -> Callable[[_F], _F]:
        """Record the options on the decorated function, as ``typing.dataclass_transform`` does."""

        def mark(decorator: _F) -> _F:
            decorator.__dataclass_transform__ = {  # type: ignore[attr-defined]
                "eq_default": eq_default, "order_default": order_default,
                "kw_only_default": kw_only_default, "frozen_default": frozen_default,
                "field_specifiers": field_specifiers, "kwargs": kwargs}
            return decorator

        return mark


def note_field_converter(decorator: Any, converter: Callable[[Any], Any]) -> None:
    """Name the fields' default converter in the decorator's marker (run-time metadata only:
    type checkers do not accept ``converter`` among the declared options)."""
    decorator.__dataclass_transform__["kwargs"]["converter"] = converter


__all__ = ["dataclass_transform", "note_field_converter"]
