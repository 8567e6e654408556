"""Helpers used around the FFI: a cross-process file lock, keyword-argument wrappers, CUBIN embedding."""

from . import kwargs_wrapper
from .lockfile import FileLock

__all__ = ["FileLock", "kwargs_wrapper"]
