"""libtvm_ffi.so exports exactly the C API -- the 50 TVMFFI* functions of spec/ABI.md section
5.10 -- plus the reference's exported C++ symbols that src/cxx_abi provides.

Kernels and hosts built against the reference link by symbol name, so every one of these must
exist; anything else leaking out of the library (helpers, data) would become ABI by accident.
tests/compat/test_cxx_abi_symbols.py compares the C++ list with the reference library's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXPORTS_MAP, INCLUDE_DIR, installed_runtime_library

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
C_API_SYMBOLS = ANCHOR_SYMBOLS | WHEEL_SYMBOLS
# The reference library's exported C++ functions (tvm/ffi/extra/*.h), by mangled name ...
CXX_ABI_FUNCTIONS = {
    "_ZN3tvm3ffi15StructuralEqual5EqualERKNS0_3AnyES4_bb",
    "_ZN3tvm3ffi15StructuralEqual16GetFirstMismatchERKNS0_3AnyES4_bb",
    "_ZN3tvm3ffi14StructuralHash4HashERKNS0_3AnyEbb",
    "_ZN3tvm3ffi11RecursiveEqERKNS0_3AnyES3_", "_ZN3tvm3ffi11RecursiveLtERKNS0_3AnyES3_",
    "_ZN3tvm3ffi11RecursiveLeERKNS0_3AnyES3_", "_ZN3tvm3ffi11RecursiveGtERKNS0_3AnyES3_",
    "_ZN3tvm3ffi11RecursiveGeERKNS0_3AnyES3_", "_ZN3tvm3ffi13RecursiveHashERKNS0_3AnyE",
    "_ZN3tvm3ffi8DeepCopyERKNS0_3AnyE", "_ZN3tvm3ffi9ReprPrintERKNS0_3AnyE",
    "_ZN3tvm3ffi11ToJSONGraphERKNS0_3AnyES3_", "_ZN3tvm3ffi13FromJSONGraphERKNS0_3AnyE",
    "_ZN3tvm3ffi4json5ParseERKNS0_6StringEPS2_", "_ZN3tvm3ffi4json9StringifyERKNS0_3AnyERKNS0_8OptionalIivEE",
    "_ZN3tvm3ffi17VisitErrorContext15FindAccessPathsERKNS0_9ObjectRefERKS1_b",
    "_ZN3tvm3ffi6Module12LoadFromFileERKNS0_6StringE",
    "_ZN3tvm3ffi6Module19VisitContextSymbolsERKNS0_13TypedFunctionIFvNS0_6StringEPvEEE",
    "_ZN3tvm3ffi9ModuleObj11GetFunctionERKNS0_6StringEb", "_ZN3tvm3ffi9ModuleObj18ImplementsFunctionERKNS0_6StringEb",
    "_ZN3tvm3ffi9ModuleObj14GetFunctionDocERKNS0_6StringEb",
    "_ZN3tvm3ffi9ModuleObj19GetFunctionMetadataERKNS0_6StringEb",
    "_ZN3tvm3ffi9ModuleObj12ImportModuleERKNS0_6ModuleE", "_ZN3tvm3ffi9ModuleObj12ClearImportsEv",
}
# ... and its exported data: typeinfo, typeinfo name and vtable of Error and ModuleObj.
CXX_ABI_DATA = {f"_ZT{kind}N3tvm3ffi{name}E" for kind in "ISV" for name in ("5Error", "9ModuleObj")}
CXX_ABI_SYMBOLS = CXX_ABI_FUNCTIONS | CXX_ABI_DATA
EXPECTED_SYMBOLS = C_API_SYMBOLS | CXX_ABI_SYMBOLS

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
    assert len(ANCHOR_SYMBOLS) == 48 and len(C_API_SYMBOLS) == 50


def test_headers_declare_exactly_the_abi_functions() -> None:
    declared = declared_functions(PUBLIC_HEADERS)
    assert declared == C_API_SYMBOLS, (
        f"declared but not in ABI.md 5.10: {sorted(declared - C_API_SYMBOLS)}; "
        f"in ABI.md 5.10 but not declared: {sorted(C_API_SYMBOLS - declared)}")


def test_library_exports_exactly_the_abi_functions() -> None:
    library = installed_runtime_library()
    symbols = dynamic_symbols(library)
    exported = set(symbols)
    missing = sorted(EXPECTED_SYMBOLS - exported)
    extra = sorted(exported - EXPECTED_SYMBOLS)
    assert not missing and not extra, (
        f"{library}: {len(missing)} C API functions missing: {missing}; unexpected exports: {extra}")


def test_exports_are_functions_except_the_cxx_class_data() -> None:
    symbols = dynamic_symbols(installed_runtime_library())
    not_code = {name: kind for name, kind in symbols.items()
                if kind not in ("T", "W", "i") and name not in CXX_ABI_DATA}
    assert not not_code, f"exported symbols that are not functions: {not_code}"
    assert {symbols[name] for name in CXX_ABI_DATA} <= {"V", "R", "D"}, {n: symbols[n] for n in CXX_ABI_DATA}


def test_version_script_lists_exactly_the_cxx_symbols() -> None:
    text = re.sub(r"/\*.*?\*/", "", EXPORTS_MAP.read_text(), flags=re.S)
    listed = set(re.findall(r"\b(_Z\w+);", text))
    assert listed == CXX_ABI_SYMBOLS, (sorted(listed - CXX_ABI_SYMBOLS), sorted(CXX_ABI_SYMBOLS - listed))
