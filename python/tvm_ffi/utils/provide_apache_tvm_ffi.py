"""Mark the reference distribution name ``apache-tvm-ffi`` as provided by this one.

Kernel packages name their dependency ``apache-tvm-ffi`` (the reference's distribution) and
some read its version at run time (``importlib.metadata.version("apache-tvm-ffi")``). With only
``tvm-ffi-open`` installed, pip then installs the reference over our ``tvm_ffi`` directory and
those version reads raise ``PackageNotFoundError``, although ``import tvm_ffi`` is ours and
serves them. Python packaging has no "provides" field that pip honours, so this module writes a
small metadata-only wheel instead:

- named ``apache-tvm-ffi`` with our version, requiring ``tvm-ffi-open`` of that same version;
- holding only its ``.dist-info`` (no ``tvm_ffi/`` files), so installing or uninstalling it
  never touches our package, and the import-time check (``_dist_check``) knows it from the
  reference by its RECORD.

A requirement such as ``apache-tvm-ffi>=0.1.14`` is then satisfied by ours; one that excludes our
version still makes pip fetch the reference, which ``import tvm_ffi`` reports.

Usage: ``python -m tvm_ffi.utils.provide_apache_tvm_ffi [--wheel-dir DIR] [--install]``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from .._version import __version__

__all__ = ["PROVIDED_NAME", "build_wheel", "main"]

PROVIDED_NAME = "apache-tvm-ffi"
_PROVIDER_NAME = "tvm-ffi-open"


def _record_hash(data: bytes) -> str:
    """The RECORD spelling of a file's digest: urlsafe base64 of sha256, unpadded."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def _dist_info_files(version: str) -> dict[str, bytes]:
    """METADATA and WHEEL, by file name inside the ``.dist-info`` directory."""
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {PROVIDED_NAME}\n"
        f"Version: {version}\n"
        f"Summary: Metadata only: {PROVIDED_NAME} is provided by {_PROVIDER_NAME} {version}\n"
        f"Requires-Dist: {_PROVIDER_NAME}=={version}\n"
        "\n"
        f"Installs no files. The `tvm_ffi` package comes from {_PROVIDER_NAME}; this entry lets\n"
        f"requirements on {PROVIDED_NAME} and importlib.metadata lookups of it find that package.\n"
    )
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: tvm_ffi.utils.provide_apache_tvm_ffi\n"
        "Root-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )
    return {"METADATA": metadata.encode(), "WHEEL": wheel.encode()}


def build_wheel(wheel_dir: Path, version: str = __version__) -> Path:
    """Writes the metadata-only ``apache-tvm-ffi`` wheel.

    Parameters
    ----------
    wheel_dir : Path
        Directory the wheel is written to (created when missing).
    version : str
        Version the entry claims; ours by default, which its requirement on ``tvm-ffi-open`` pins.

    Returns
    -------
    Path
        The wheel file, ``apache_tvm_ffi-<version>-py3-none-any.whl``.
    """
    stem = f"{PROVIDED_NAME.replace('-', '_')}-{version}"
    dist_info = f"{stem}.dist-info"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    path = wheel_dir / f"{stem}-py3-none-any.whl"
    record_lines = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in _dist_info_files(version).items():
            archive.writestr(f"{dist_info}/{name}", data)
            record_lines.append(f"{dist_info}/{name},{_record_hash(data)},{len(data)}")
        record_lines.append(f"{dist_info}/RECORD,,")
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record_lines) + "\n")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: build the wheel, and with ``--install`` install it with this Python's pip.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (``--wheel-dir DIR``, ``--install``); ``sys.argv[1:]`` when None.

    Returns
    -------
    int
        The exit status: 0, or pip's status when installing.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--wheel-dir", default=".", help="where the wheel is written (default: .)")
    parser.add_argument("--install", action="store_true",
                        help="install the wheel into this interpreter's environment (pip, no deps)")
    args = parser.parse_args(argv)
    wheel = build_wheel(Path(args.wheel_dir))
    print(wheel)
    if args.install:
        command = [sys.executable, "-m", "pip", "install", "--no-deps", "--force-reinstall", str(wheel)]
        return subprocess.call(command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
