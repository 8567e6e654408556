"""libtvm_ffi.so exports exactly the C API: the 50 TVMFFI* functions of spec/ABI.md section 5.10.

Kernels and hosts built against the reference link by symbol name, so every one of these must
exist; anything else leaking out of the library (helpers, data) would become ABI by accident.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, installed_runtime_library

# ABI.md 5.10: the anchor set (48) ...
ANCHOR_SYMBOLS = {
    "TVMFFIAnyViewToOwnedAny", "TVMFFIBacktrace", "TVMFFIBytesFromByteArray", "TVMFFIDataTypeFromString",
    "TVMFFIDataTypeToString", "TVMFFIEnvCheckSignals", "TVMFFIEnvGetDLPackManagedTensorAllocator",
    "TVMFFIEnvGetStream", "TVMFFIEnvModLookupFromImports", "TVMFFIEnvModRegisterContextSymbol",
    "TVMFFIEnvModRegisterSystemLibSymbol", "TVMFFIEnvRegisterCAPI", "TVMFFIEnvSetDLPackManagedTensorAllocator",
    "TVMFFIEnvSetStream", "TVMFFIEnvTensorAlloc", "TVMFFIErrorCreate", "TVMFFIErrorCreateWithCauseAndExtraContext",
    "TVMFFIErrorMoveFromRaised", "TVMFFIErrorSetRaised", "TVMFFIErrorSetRaisedFromCStr",
    "TVMFFIErrorSetRaisedFromCStrParts", "TVMFFIFunctionCall", "TVMFFIFunctionCreate", "TVMFFIFunctionGetGlobal",
    "TVMFFIFunctionSetGlobal", "TVMFFIFunctionSetGlobalFromMethodInfo", "TVMFFIGetCustomAllocator",
    "TVMFFIGetTypeAttrColumn", "TVMFFIGetTypeInfo", "TVMFFIGetVersion", "TVMFFIHandleDeinitOnce",
    "TVMFFIHandleInitOnce", "TVMFFIObjectCreateOpaque", "TVMFFIObjectDecRef", "TVMFFIObjectIncRef",
    "TVMFFISetCustomAllocator", "TVMFFIStringFromByteArray", "TVMFFITensorCreateUnsafeView",
    "TVMFFITensorFromDLPack", "TVMFFITensorFromDLPackVersioned", "TVMFFITensorToDLPack",
    "TVMFFITensorToDLPackVersioned", "TVMFFITypeGetOrAllocIndex", "TVMFFITypeKeyToIndex", "TVMFFITypeRegisterAttr",
    "TVMFFITypeRegisterField", "TVMFFITypeRegisterMetadata", "TVMFFITypeRegisterMethod",
}
# ... plus the two BigInt functions of the 0.1.16 wheel.
WHEEL_SYMBOLS = {"TVMFFIBigIntFromByteArray", "TVMFFIBigIntGetContentByteArray"}
EXPECTED_SYMBOLS = ANCHOR_SYMBOLS | WHEEL_SYMBOLS

PUBLIC_HEADERS = [INCLUDE_DIR / "tvm" / "ffi" / "c_api.h", INCLUDE_DIR / "tvm" / "ffi" / "extra" / "c_env_api.h"]


def dynamic_symbols(library: Path) -> dict[str, str]:
    """Defined dynamic symbols of a shared library, name -> nm type letter."""
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not available")
    proc = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True, check=True)
    symbols: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            symbols[parts[2].split("@")[0]] = parts[1]
    return symbols


def declared_functions(headers: list[Path]) -> set[str]:
    """Names of the functions our headers declare with TVM_FFI_DLL (the runtime's entry points)."""
    text = "\n".join(path.read_text() for path in headers)
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)  # the macro definitions themselves
    return set(re.findall(r"\bTVM_FFI_DLL\b[^;()]*?\b(TVMFFI\w+)\s*\(", text))


def test_expected_list_has_fifty_names() -> None:
    assert len(ANCHOR_SYMBOLS) == 48 and len(EXPECTED_SYMBOLS) == 50


def test_headers_declare_exactly_the_abi_functions() -> None:
    declared = declared_functions(PUBLIC_HEADERS)
    assert declared == EXPECTED_SYMBOLS, (
        f"declared but not in ABI.md 5.10: {sorted(declared - EXPECTED_SYMBOLS)}; "
        f"in ABI.md 5.10 but not declared: {sorted(EXPECTED_SYMBOLS - declared)}")


def test_library_exports_exactly_the_abi_functions() -> None:
    library = installed_runtime_library()
    symbols = dynamic_symbols(library)
    exported = set(symbols)
    missing = sorted(EXPECTED_SYMBOLS - exported)
    extra = sorted(exported - EXPECTED_SYMBOLS)
    assert not missing and not extra, (
        f"{library}: {len(missing)} C API functions missing: {missing}; unexpected exports: {extra}")


def test_exports_are_functions() -> None:
    symbols = dynamic_symbols(installed_runtime_library())
    not_code = {name: kind for name, kind in symbols.items() if kind not in ("T", "W", "i")}
    assert not not_code, f"exported symbols that are not functions: {not_code}"
