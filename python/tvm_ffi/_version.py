"""The package version, in the one place the build reads it from (pyproject.toml's regex)."""

from __future__ import annotations

__all__ = ["__version__", "__version_tuple__", "version", "version_tuple"]

__version__ = "0.1.16"
__version_tuple__: tuple[int | str, ...] = (0, 1, 16)

version = __version__
version_tuple = __version_tuple__
