"""The build cache: where a build lives, its content-addressed key, and the manifest of a finished build.

A build directory is ``$TVM_FFI_CACHE_DIR/<name>_<key>`` (default ``~/.cache/tvm-ffi``), where the
key hashes everything that decides the output: sources, flags, include paths, the compilers'
identities, the version of our headers and the ABI version. A finished build leaves a manifest
(written last, atomically) listing every input file it read with its size and mtime; a cache
hit is a manifest whose files are all unchanged, checked with ``stat`` alone, without a lock.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "MANIFEST_NAME",
    "cache_root",
    "cache_key",
    "headers_digest",
    "parse_depfile",
    "read_valid_manifest",
    "write_atomic",
    "write_manifest",
]

MANIFEST_NAME = "tvm_ffi_build.json"
_MANIFEST_FORMAT = 2


def cache_root() -> Path:
    """``$TVM_FFI_CACHE_DIR``, else ``~/.cache/tvm-ffi``."""
    return Path(os.environ.get("TVM_FFI_CACHE_DIR") or "~/.cache/tvm-ffi").expanduser()


@functools.cache
def headers_digest(include_dir: str) -> str:
    """Digest of every file under our include directory (content and relative path), once per process."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(include_dir):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, include_dir).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read())
            digest.update(b"\0")
    return digest.hexdigest()


def cache_key(parts: Mapping[str, Any]) -> str:
    """16 hex digits of SHA-256 over a canonical JSON rendering of ``parts``."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=_bytes_digest)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _bytes_digest(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "sha256:" + hashlib.sha256(bytes(value)).hexdigest()
    raise TypeError(f"cannot hash a value of type {type(value).__name__} into the build cache key")


def write_atomic(path: Path, data: bytes) -> None:
    """Writes ``path`` through a temporary file and a rename, skipping identical content."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------------
# depfiles (make syntax, as written by gcc/clang -MMD and nvcc -MD)
# --------------------------------------------------------------------------------------------



def parse_depfile(text: str) -> list[str]:
    """The prerequisites of every rule in a make-style depfile (escaped spaces kept in names)."""
    deps: list[str] = []
    for rule in re.sub(r"\\\r?\n", " ", text).splitlines():
        # Targets end at the first ': ' (a drive-letter colon has no space after it).
        _, sep, prereqs = rule.partition(": ")
        if not sep:
            if rule.rstrip().endswith(":"):
                continue
            _, sep, prereqs = rule.partition(":")
        token = ""
        chars = iter(prereqs)
        for ch in chars:
            if ch == "\\":
                nxt = next(chars, "")
                token += nxt if nxt in " #" else ch + nxt
            elif ch == "$":
                nxt = next(chars, "")
                token += "$" if nxt == "$" else ch + nxt
            elif ch.isspace():
                if token:
                    deps.append(token)
                token = ""
            else:
                token += ch
        if token:
            deps.append(token)
    return deps


# --------------------------------------------------------------------------------------------
# manifest
# --------------------------------------------------------------------------------------------


def _stat_entry(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def write_manifest(build_dir: Path, key: str, output: Path, inputs: Iterable[str]) -> None:
    """Records the build's key, ``output``, and the stats and digest of every input file.

    Written last, so it marks a finished build.
    """
    files = {}
    for name in sorted(set(inputs)):
        path = name if os.path.isabs(name) else str(build_dir / name)
        entry, digest = _stat_entry(path), _file_digest(path)
        if entry is not None and digest is not None:
            files[path] = [*entry, digest]
    out_stat = _stat_entry(str(output))
    if out_stat is None:
        raise RuntimeError(f"build finished without producing {output}")
    manifest = {"format": _MANIFEST_FORMAT, "key": key, "output": str(output), "output_stat": out_stat, "inputs": files}
    write_atomic(build_dir / MANIFEST_NAME, json.dumps(manifest, indent=1).encode())


def read_valid_manifest(build_dir: Path, key: str, compare_content: bool = False) -> Path | None:
    """The output of a finished build of ``key`` in ``build_dir`` whose inputs are all unchanged, else None.

    "Unchanged" means the same size and mtime (``stat`` only, the lock-free fast path). With
    ``compare_content``, an input whose mtime moved but whose bytes did not (a reinstall of the
    same headers, a ``touch``) still counts as unchanged, and the manifest is refreshed; only a
    caller holding the build directory's lock may ask for that.
    """
    try:
        with open(build_dir / MANIFEST_NAME, "rb") as f:
            manifest = json.loads(f.read())
        if manifest.get("format") != _MANIFEST_FORMAT or manifest.get("key") != key:
            return None
        output = manifest["output"]
        if _stat_entry(output) != manifest["output_stat"]:
            return None
        touched = []
        for path, entry in manifest["inputs"].items():
            if _stat_entry(path) != entry[:2]:
                if not compare_content or _file_digest(path) != entry[2]:
                    return None
                touched.append(path)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None  # no manifest, or one from an interrupted or foreign writer: rebuild
    if touched:
        write_manifest(build_dir, key, Path(output), manifest["inputs"])
    return Path(output)
