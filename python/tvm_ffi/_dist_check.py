"""Import-time check that no other distribution installed files into our ``tvm_ffi`` directory.

Packages that depend on the reference distribution ``apache-tvm-ffi`` make pip install it, and
it unpacks into the same ``site-packages/tvm_ffi/`` as this distribution (``tvm-ffi-open``):
whichever came last overwrote the other's files, leaving a mix of both. That is detected here
from the other distribution's metadata next to ours, and reported as a warning that says what to
do (README: "Using tvm-ffi-open with packages that depend on apache-tvm-ffi").

A metadata-only ``apache-tvm-ffi`` entry written by ``tvm_ffi.utils.provide_apache_tvm_ffi``
installs no files, so it is no second provider: its RECORD names nothing under ``tvm_ffi/``.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

__all__ = ["DuplicateDistributionWarning", "other_distributions", "warn_if_shared"]

# Distributions that ship a top-level `tvm_ffi` package (normalized, as in dist-info names).
_OTHER_PROVIDERS = ("apache_tvm_ffi",)


class DuplicateDistributionWarning(RuntimeWarning):
    """Another distribution installed its own ``tvm_ffi`` package into the same directory."""


def _installs_package_files(metadata_dir: Path) -> bool:
    """Whether a distribution's RECORD names files of the ``tvm_ffi`` package (no RECORD: assume so)."""
    try:
        record = (metadata_dir / "RECORD").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    return any(line.startswith("tvm_ffi/") for line in record.splitlines())


def other_distributions(site_dir: Path) -> list[tuple[str, str]]:
    """(name, version) of every other ``tvm_ffi`` provider with metadata in ``site_dir``."""
    try:
        entries = os.listdir(site_dir)
    except OSError:
        return []
    found = []
    for entry in sorted(entries):
        for suffix in (".dist-info", ".egg-info"):
            if entry.endswith(suffix):
                name, _, version = entry[: -len(suffix)].partition("-")
                if name.lower() in _OTHER_PROVIDERS and _installs_package_files(site_dir / entry):
                    found.append((name.replace("_", "-").lower(), version))
    return found


def warn_if_shared(package_dirs: list[str]) -> None:
    """Warns once per other provider found next to the ``tvm_ffi`` directories given."""
    for package_dir in package_dirs:
        site_dir = Path(package_dir).parent
        for name, version in other_distributions(site_dir):
            warnings.warn(
                f"{site_dir} holds two distributions of the `tvm_ffi` package: tvm-ffi-open and "
                f"{name} {version}. Both install into {package_dir}, so the files there are a mix "
                f"of the two. Fix: `pip uninstall -y {name} tvm-ffi-open`, reinstall tvm-ffi-open, "
                f"and install packages that require {name} with `pip install --no-deps` (see the "
                "README section 'Using tvm-ffi-open with packages that depend on apache-tvm-ffi').",
                DuplicateDistributionWarning,
                stacklevel=3,
            )
