"""Binary layout of our public headers, checked against spec/ABI.md (sections 1 and 3).

tests/abi/layout_probe.c prints sizeof/alignof of every ABI struct, the offset of every field,
and the value of every enumerator and version/flag macro. It is compiled as C11 and as C++17
against our headers (proving both languages see the same ABI) and, when the reference package
can be installed, against the reference headers too; all outputs must be identical and must
equal the numbers transcribed from ABI.md below.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from compat.conftest import REFERENCE_REQUIREMENT, REFPKG_DIR, install_reference
from conftest import INCLUDE_DIR, REPO_ROOT, c_compiler, cxx_compiler, run_checked

PROBE = REPO_ROOT / "tests" / "abi" / "layout_probe.c"
HEADERS = [INCLUDE_DIR / "tvm" / "ffi" / "c_api.h", INCLUDE_DIR / "tvm" / "ffi" / "extra" / "c_env_api.h",
           INCLUDE_DIR / "dlpack" / "dlpack.h"]

# ---- expected numbers, transcribed from spec/ABI.md (x86-64 Linux, LP64) ----

# struct/enum -> (sizeof, alignof). ABI.md gives sizes and the alignments it measured; every
# other struct holds a pointer or 64-bit integer and is 8-byte aligned.
SIZES: dict[str, tuple[int, int]] = {
    # 1.1 DLPack
    "DLPackVersion": (8, 4),
    "DLDevice": (8, 4),
    "DLDataType": (4, 2),
    "DLTensor": (48, 8),
    "DLManagedTensor": (64, 8),
    "DLManagedTensorVersioned": (80, 8),
    "DLPackExchangeAPIHeader": (16, 8),
    "DLPackExchangeAPI": (56, 8),
    "DLDeviceType": (4, 4),
    "DLDataTypeCode": (4, 4),
    # 3.1 - 3.6
    "TVMFFIAny": (16, 8),
    "TVMFFIObject": (24, 8),
    "TVMFFIByteArray": (16, 8),
    "TVMFFIShapeCell": (16, 8),
    "TVMFFISeqCell": (32, 8),
    "TVMFFIErrorCell": (72, 8),
    "TVMFFIFunctionCell": (16, 8),
    "TVMFFIOpaqueObjectCell": (8, 8),
    "TVMFFIVersion": (12, 4),
    "TVMFFIObjectAllocHeader": (8, 8),
    "TVMFFICustomAllocator": (16, 8),
    # 3.9 reflection
    "TVMFFIFieldInfo": (120, 8),
    "TVMFFIMethodInfo": (72, 8),
    "TVMFFITypeMetadata": (32, 8),
    "TVMFFITypeAttrColumn": (16, 8),
    "TVMFFITypeInfo": (72, 8),
    # the ABI enums are 32-bit
    "TVMFFITypeIndex": (4, 4),
    "TVMFFIObjectDeleterFlagBitMask": (4, 4),
    "TVMFFIBacktraceUpdateMode": (4, 4),
    "TVMFFIFieldFlagBitMask": (4, 4),
    "TVMFFISEqHashKind": (4, 4),
    "TVMFFIDefRegionKind": (4, 4),
}

OFFSETS: dict[str, dict[str, int]] = {
    "DLPackVersion": {"major": 0, "minor": 4},
    "DLDevice": {"device_type": 0, "device_id": 4},
    "DLDataType": {"code": 0, "bits": 1, "lanes": 2},
    "DLTensor": {"data": 0, "device": 8, "ndim": 16, "dtype": 20, "shape": 24, "strides": 32, "byte_offset": 40},
    "DLManagedTensor": {"dl_tensor": 0, "manager_ctx": 48, "deleter": 56},
    "DLManagedTensorVersioned": {"version": 0, "manager_ctx": 8, "deleter": 16, "flags": 24, "dl_tensor": 32},
    "DLPackExchangeAPIHeader": {"version": 0, "prev_api": 8},
    "DLPackExchangeAPI": {"header": 0, "managed_tensor_allocator": 16, "managed_tensor_from_py_object_no_sync": 24,
                          "managed_tensor_to_py_object_no_sync": 32, "dltensor_from_py_object_no_sync": 40,
                          "current_work_stream": 48},
    "TVMFFIAny": {"type_index": 0, "zero_padding": 4, "small_str_len": 4, "v_int64": 8, "v_float64": 8, "v_ptr": 8,
                  "v_c_str": 8, "v_obj": 8, "v_dtype": 8, "v_device": 8, "v_bytes": 8, "v_uint64": 8},
    "TVMFFIObject": {"combined_ref_count": 0, "type_index": 8, "__padding": 12, "deleter": 16, "__ensure_align": 16},
    "TVMFFIByteArray": {"data": 0, "size": 8},
    "TVMFFIShapeCell": {"data": 0, "size": 8},
    "TVMFFISeqCell": {"data": 0, "size": 8, "capacity": 16, "data_deleter": 24},
    "TVMFFIErrorCell": {"kind": 0, "message": 16, "backtrace": 32, "update_backtrace": 48, "cause_chain": 56,
                        "extra_context": 64},
    "TVMFFIFunctionCell": {"safe_call": 0, "cpp_call": 8},
    "TVMFFIOpaqueObjectCell": {"handle": 0},
    "TVMFFIVersion": {"major": 0, "minor": 4, "patch": 8},
    "TVMFFIObjectAllocHeader": {"delete_space": 0},
    "TVMFFICustomAllocator": {"allocate": 0, "context": 8},
    "TVMFFIFieldInfo": {"name": 0, "doc": 16, "metadata": 32, "flags": 48, "size": 56, "alignment": 64, "offset": 72,
                        "getter": 80, "setter": 88, "default_value_or_factory": 96, "field_static_type_index": 112},
    "TVMFFIMethodInfo": {"name": 0, "doc": 16, "metadata": 32, "flags": 48, "method": 56},
    "TVMFFITypeMetadata": {"doc": 0, "creator": 16, "total_size": 24, "structural_eq_hash_kind": 28},
    "TVMFFITypeAttrColumn": {"data": 0, "size": 8, "begin_index": 12},
    "TVMFFITypeInfo": {"type_index": 0, "type_depth": 4, "type_key": 8, "type_ancestors": 24, "type_key_hash": 32,
                       "num_fields": 40, "num_methods": 44, "fields": 48, "methods": 56, "metadata": 64},
}

VALUES: dict[str, int] = {
    # section 0: versions
    "TVM_FFI_VERSION_MAJOR": 0, "TVM_FFI_VERSION_MINOR": 1, "TVM_FFI_VERSION_PATCH": 16,
    "DLPACK_MAJOR_VERSION": 1, "DLPACK_MINOR_VERSION": 3,
    # 1.3 DLPack flags
    "DLPACK_FLAG_BITMASK_READ_ONLY": 1, "DLPACK_FLAG_BITMASK_IS_COPIED": 2,
    "DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED": 4,
    # 1.4 DLDeviceType
    "kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8, "kDLVPI": 9,
    "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13, "kDLOneAPI": 14, "kDLWebGPU": 15,
    "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18,
    # 1.5 DLDataTypeCode
    "kDLInt": 0, "kDLUInt": 1, "kDLFloat": 2, "kDLOpaqueHandle": 3, "kDLBfloat": 4, "kDLComplex": 5, "kDLBool": 6,
    "kDLFloat8_e3m4": 7, "kDLFloat8_e4m3": 8, "kDLFloat8_e4m3b11fnuz": 9, "kDLFloat8_e4m3fn": 10,
    "kDLFloat8_e4m3fnuz": 11, "kDLFloat8_e5m2": 12, "kDLFloat8_e5m2fnuz": 13, "kDLFloat8_e8m0fnu": 14,
    "kDLFloat6_e2m3fn": 15, "kDLFloat6_e3m2fn": 16, "kDLFloat4_e2m1fn": 17,
    # 2 TVMFFITypeIndex (wheel ABI 0.1.16)
    "kTVMFFIAny": -1, "kTVMFFINone": 0, "kTVMFFIInt": 1, "kTVMFFIBool": 2, "kTVMFFIFloat": 3, "kTVMFFIOpaquePtr": 4,
    "kTVMFFIDataType": 5, "kTVMFFIDevice": 6, "kTVMFFIDLTensorPtr": 7, "kTVMFFIRawStr": 8, "kTVMFFIByteArrayPtr": 9,
    "kTVMFFIObjectRValueRef": 10, "kTVMFFISmallStr": 11, "kTVMFFISmallBytes": 12, "kTVMFFIUnchanged": 13,
    "kTVMFFIStaticObjectBegin": 64, "kTVMFFIObject": 64, "kTVMFFIStr": 65, "kTVMFFIBytes": 66, "kTVMFFIError": 67,
    "kTVMFFIFunction": 68, "kTVMFFIShape": 69, "kTVMFFITensor": 70, "kTVMFFIArray": 71, "kTVMFFIMap": 72,
    "kTVMFFIModule": 73, "kTVMFFIOpaquePyObject": 74, "kTVMFFIList": 75, "kTVMFFIDict": 76,
    "kTVMFFIVisitInterrupt": 77, "kTVMFFIBigInt": 78, "kTVMFFIStaticObjectEnd": 79, "kTVMFFIDynObjectBegin": 128,
    # 3.2 deleter flags
    "kTVMFFIObjectDeleterFlagBitMaskStrong": 1, "kTVMFFIObjectDeleterFlagBitMaskWeak": 2,
    "kTVMFFIObjectDeleterFlagBitMaskBoth": 3,
    # 3.4 backtrace update modes
    "kTVMFFIBacktraceUpdateModeReplace": 0, "kTVMFFIBacktraceUpdateModeAppend": 1,
    # 3.8 field flags (wheel names), SEqHashKind, DefRegionKind
    "kTVMFFIFieldFlagBitMaskWritable": 1, "kTVMFFIFieldFlagBitMaskHasDefault": 2,
    "kTVMFFIFieldFlagBitMaskIsStaticMethod": 4, "kTVMFFIFieldFlagBitMaskSEqHashIgnore": 8,
    "kTVMFFIFieldFlagBitMaskSEqHashDefPattern": 16, "kTVMFFIFieldFlagBitMaskDefaultFromFactory": 32,
    "kTVMFFIFieldFlagBitMaskReprOff": 64, "kTVMFFIFieldFlagBitMaskCompareOff": 128,
    "kTVMFFIFieldFlagBitMaskHashOff": 256, "kTVMFFIFieldFlagBitMaskInitOff": 512,
    "kTVMFFIFieldFlagBitMaskKwOnly": 1024, "kTVMFFIFieldFlagBitSetterIsFunctionObj": 2048,
    "kTVMFFIFieldFlagBitMaskSEqHashDefSimple": 4096,
    "kTVMFFISEqHashKindUnsupported": 0, "kTVMFFISEqHashKindTreeNode": 1, "kTVMFFISEqHashKindFreeVar": 2,
    "kTVMFFISEqHashKindDAGNode": 3, "kTVMFFISEqHashKindConstTreeNode": 4, "kTVMFFISEqHashKindUniqueInstance": 5,
    "kTVMFFIDefRegionKindNone": 0, "kTVMFFIDefRegionKindPattern": 1, "kTVMFFIDefRegionKindSimple": 2,
}


def expected_probe_output() -> dict[str, int]:
    """The probe's lines as ABI.md predicts them."""
    expected: dict[str, int] = {}
    for name, (size, align) in SIZES.items():
        expected[f"sizeof.{name}"] = size
        expected[f"alignof.{name}"] = align
    for struct, fields in OFFSETS.items():
        for field, offset in fields.items():
            expected[f"offsetof.{struct}.{field}"] = offset
    for name, value in VALUES.items():
        expected[f"value.{name}"] = value
    return expected


# ---- building and running the probe ----

def run_probe(tmp_path: Path, include_dir: Path, *, cxx: bool) -> dict[str, int]:
    """Compiles the probe against `include_dir` (as C11 or C++17) and parses its output."""
    exe = tmp_path / ("probe_cxx" if cxx else "probe_c")
    compiler, lang, std = (cxx_compiler(), "c++", "-std=c++17") if cxx else (c_compiler(), "c", "-std=c11")
    run_checked([compiler, std, "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{include_dir}",
                 "-x", lang, str(PROBE), "-o", str(exe)])
    output = run_checked([str(exe)]).stdout
    values: dict[str, int] = {}
    for line in output.splitlines():
        name, value = line.split()
        assert name not in values, f"probe prints {name} twice"
        values[name] = int(value)
    return values


@pytest.fixture(scope="module")
def c_probe(tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    return run_probe(tmp_path_factory.mktemp("probe_c"), INCLUDE_DIR, cxx=False)


def describe_diff(actual: dict[str, int], expected: dict[str, int]) -> str:
    lines = [f"{k}: got {actual.get(k)}, expected {expected.get(k)}"
             for k in sorted(set(actual) | set(expected)) if actual.get(k) != expected.get(k)]
    return "\n".join(lines)


def test_layout_matches_abi_spec(c_probe: dict[str, int]) -> None:
    expected = expected_probe_output()
    assert c_probe == expected, describe_diff(c_probe, expected)


def test_headers_are_valid_cxx17_with_same_layout(c_probe: dict[str, int], tmp_path: Path) -> None:
    cxx_probe = run_probe(tmp_path, INCLUDE_DIR, cxx=True)
    assert cxx_probe == c_probe, describe_diff(cxx_probe, c_probe)


# ---- the probe must cover everything the headers declare ----

def header_text(*, keep_directives: bool = False) -> str:
    """Our headers without comments (and without preprocessor lines unless asked)."""
    text = "\n".join(path.read_text() for path in HEADERS)
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    if not keep_directives:
        text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)
    return text


def test_probe_covers_every_enumerator_and_macro(c_probe: dict[str, int]) -> None:
    text = header_text()
    bodies = re.findall(r"TVM_FFI_ENUM_BEGIN\(\w+\)(.*?)TVM_FFI_ENUM_END", text, flags=re.S)
    bodies += re.findall(r"typedef\s+enum[^{]*\{(.*?)\}", text, flags=re.S)
    enumerators = {name for body in bodies for name in re.findall(r"\b(k\w+)\s*=", body)}
    directives = header_text(keep_directives=True)
    macros = set(re.findall(r"#define\s+(TVM_FFI_VERSION_\w+|DLPACK_\w+_VERSION|DLPACK_FLAG_\w+)\s", directives))
    # the parser must see every enum of every header (guards the regexes above)
    assert {"kDLCPU", "kDLInt", "kTVMFFIAny", "kTVMFFIDefRegionKindSimple"} <= enumerators, enumerators
    assert len(macros) == 8, macros
    missing = sorted(name for name in enumerators | macros if f"value.{name}" not in c_probe)
    assert not missing, f"enumerators/macros in the headers but not in tests/abi/layout_probe.c: {missing}"


def test_probe_covers_every_struct_and_enum_type(c_probe: dict[str, int]) -> None:
    text = header_text()
    types = set(re.findall(r"\}\s*(\w+)\s*;", text)) | set(re.findall(r"TVM_FFI_ENUM_END\((\w+)\)", text))
    missing = sorted(name for name in types if f"sizeof.{name}" not in c_probe)
    assert not missing, f"types in the headers but not in tests/abi/layout_probe.c: {missing}"


# ---- same answers from the reference headers ----

@pytest.fixture(scope="module")
def reference_include_dir() -> Path:
    error = install_reference(REFPKG_DIR)
    if error is not None:
        pytest.skip(f"cannot install {REFERENCE_REQUIREMENT} into {REFPKG_DIR}: {error}")
    include_dir = REFPKG_DIR / "tvm_ffi" / "include"
    if not (include_dir / "tvm" / "ffi" / "c_api.h").is_file():
        pytest.fail(f"{REFPKG_DIR} lacks tvm/ffi/c_api.h; delete the directory to reinstall")
    return include_dir


@pytest.mark.parametrize("cxx", [False, True], ids=["c11", "cxx17"])
def test_reference_headers_give_identical_layout(c_probe: dict[str, int], reference_include_dir: Path,
                                                 tmp_path: Path, cxx: bool) -> None:
    ref_probe = run_probe(tmp_path, reference_include_dir, cxx=cxx)
    assert ref_probe == c_probe, describe_diff(c_probe, ref_probe)
