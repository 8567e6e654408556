"""Our libtvm_ffi.so exports the reference library's C++ symbols under exactly the same mangled
names (src/cxx_abi), compared with `nm -D` of both libraries.

Left out on purpose, because no code built against the reference's headers links to them: the
libstdc++ template instances the reference happens to export (std::...), and its STB_GNU_UNIQUE
function-local statics ('u': ModuleObj's type-index guard and a lookup-cache mutex), which every
binary that uses them defines itself.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Runtime
from test_exported_symbols import CXX_ABI_DATA, CXX_ABI_SYMBOLS

from .conftest import Reference


def exported_cxx_symbols(library: Path) -> dict[str, str]:
    """Defined dynamic C++ symbols of the tvm::ffi namespace (mangled name -> nm type letter)."""
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not available")
    proc = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True)
    out = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        # tvm::ffi names, their typeinfo/vtable, and function-local statics (not std:: instances)
        if len(parts) == 3 and re.match(r"_Z(T[ISV]|GVZ|Z)?N3tvm3ffi", parts[2]):
            out[parts[2].split("@")[0]] = parts[1]
    return out


def test_reference_exports_exactly_the_symbols_we_provide_plus_unique_statics(reference: Reference) -> None:
    ref = exported_cxx_symbols(reference.library)
    provided = {name for name, kind in ref.items() if kind != "u"}
    assert provided == CXX_ABI_SYMBOLS, (sorted(provided - CXX_ABI_SYMBOLS), sorted(CXX_ABI_SYMBOLS - provided))


def test_our_library_exports_them_with_the_same_kinds(reference: Reference, plain_runtime: Runtime) -> None:
    ours = exported_cxx_symbols(plain_runtime.library)
    ref = exported_cxx_symbols(reference.library)
    assert set(ours) == CXX_ABI_SYMBOLS
    # Functions are code (T), the typeinfo/vtable data is weak data (V), as in the reference.
    assert {name: ours[name] for name in CXX_ABI_SYMBOLS} == {name: ref[name] for name in CXX_ABI_SYMBOLS}
    assert {ours[name] for name in CXX_ABI_DATA} == {"V"}
