"""``_install_dataclass_dunders``, under the name the reference package gives it (see
``tvm_ffi.dataclasses._low_level``)."""

from .dataclasses._low_level import install_dataclass_dunders as _install_dataclass_dunders

__all__ = ["_install_dataclass_dunders"]
