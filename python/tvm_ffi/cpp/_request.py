"""BuildRequest: what a build is asked for, shared by the cache-hit check and the compile step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["BuildRequest"]


class BuildRequest(NamedTuple):
    """Everything that decides a build's output (normalised by the public functions)."""

    name: str
    sources: list[str]  # absolute paths (empty for inline builds)
    extra_cflags: list[str]
    extra_cuda_cflags: list[str]
    extra_ldflags: list[str]
    extra_include_paths: list[str]  # absolute paths
    backend: str | None  # "cuda" / "hip" when there are GPU sources
    output: str | None
    cubins: Mapping[str, bytes]
    # Inline builds: file name -> text, written into the build directory and compiled from there.
    inline_sources: Mapping[str, str] | None = None

    def source_names(self) -> list[str]:
        """The source names, for picking compilers by extension."""
        return list(self.inline_sources or ()) + self.sources
