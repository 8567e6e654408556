"""Prints, as JSON, every public name of ABI.md section 9 with its kind and signature.

Run under our package and under the reference (tests/compat/test_public_signatures.py) the
two outputs must agree; a name missing on one side reads "<missing>".
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from typing import Any

import tvm_ffi

# ABI.md 9.2: module -> the public names it must have.
MODULES: dict[str, list[str]] = {
    "tvm_ffi.registry": ["register_object", "register_global_func", "get_global_func",
                         "get_global_func_metadata", "list_global_func_names", "remove_global_func",
                         "init_ffi_api", "get_registered_type_keys"],
    "tvm_ffi.module": ["Module", "ModulePropertyMask", "load_module", "system_lib"],
    "tvm_ffi.stream": ["StreamContext", "use_raw_stream", "get_raw_stream", "use_torch_stream"],
    "tvm_ffi.container": ["Array", "List", "Map", "Dict"],
    "tvm_ffi.cpp": ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"],
    "tvm_ffi.dataclasses": ["c_class", "py_class", "field", "Field", "fields", "KW_ONLY", "MISSING",
                            "init_property", "asdict", "astuple", "replace", "is_dataclass",
                            "gen_abi_cpp", "Object"],
    "tvm_ffi.libinfo": ["find_libtvm_ffi", "find_windows_implib", "find_source_path", "find_cmake_path",
                        "find_include_path", "find_dlpack_include_path", "find_cython_lib",
                        "find_python_helper_include_path", "include_paths", "load_lib_ctypes",
                        "load_lib_module"],
    "tvm_ffi.config": ["__main__"],
    "tvm_ffi.access_path": ["AccessKind", "AccessStep", "AccessPath"],
    "tvm_ffi.structural": ["StructuralKey", "get_first_structural_mismatch", "structural_equal",
                           "structural_hash"],
    "tvm_ffi.serialization": ["to_json_graph_str", "from_json_graph_str"],
    "tvm_ffi.testing": ["TestObjectBase", "TestIntPair", "add_one", "create_object",
                        "make_unregistered_object"],
    "tvm_ffi.error": ["register_error", "TracebackManager"],
    "tvm_ffi.utils": ["FileLock", "kwargs_wrapper", "embed_cubin", "lockfile", "unpack_dataclass"],
    "tvm_ffi.core": ["TypeInfo", "TypeField", "TypeMethod", "TypeSchema", "CAny", "CContainerBase",
                     "Object", "ObjectConvertible", "Function", "String", "Bytes", "MISSING", "KWARGS",
                     "object_repr", "_to_py_class_value", "_lookup_or_register_type_info_from_type_key"],
}
# ABI.md 9.1, less the names other work streams own (enums, structural visit/mutate, stub CLI).
TOP_LEVEL = ["LIB", "Object", "ObjectConvertible", "Function", "CAny", "CContainerBase", "Array", "List",
             "Map", "Dict", "Tensor", "Shape", "Device", "DLDeviceType", "device", "from_dlpack", "dtype",
             "convert", "convert_func", "register_object", "register_global_func", "get_global_func",
             "get_global_func_metadata", "remove_global_func", "init_ffi_api", "register_error", "Module",
             "system_lib", "load_module", "StreamContext", "use_raw_stream", "get_raw_stream",
             "use_torch_stream", "structural_equal", "structural_hash", "get_first_structural_mismatch",
             "StructuralKey", "method", "serialization", "access_path", "dataclasses", "structural", "cpp",
             "__version__", "__version_tuple__", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
             "uint32", "uint64", "float16", "float32", "float64", "bfloat16", "float8_e3m4", "float8_e4m3",
             "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
             "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "float4_e2m1fnx2"]
# Class members whose signatures are compared too (the API users call on them).
MEMBERS: dict[str, list[str]] = {
    "tvm_ffi.module.Module": ["get_function", "implements_function", "get_function_metadata",
                              "get_function_doc", "import_module", "inspect_source", "get_write_formats",
                              "get_property_mask", "is_binary_serializable", "is_runnable",
                              "is_compilation_exportable", "clear_imports", "write_to_file"],
    "tvm_ffi.core.TypeSchema": ["from_annotation", "from_json_str", "from_json_obj", "from_type_index",
                                "to_json", "repr", "convert", "check_value", "is_subtype_of"],
    "tvm_ffi.core.TypeField": ["as_property"],
    "tvm_ffi.core.TypeMethod": ["as_callable"],
    "tvm_ffi.core.TypeInfo": ["_register_fields", "_register_py_methods"],
    "tvm_ffi.access_path.AccessPath": ["root", "attr", "array_item", "map_item", "to_steps"],
}


def describe(value: Any) -> dict[str, Any]:
    """Kind and, where inspect finds a signature, its parameters as [name, kind, default]."""
    kind = ("module" if inspect.ismodule(value) else "class" if inspect.isclass(value)
            else "function" if callable(value) else "value")
    if kind in ("module", "value"):
        return {"kind": kind, "params": None}
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return {"kind": kind, "params": None}
    params = [[p.name, p.kind.name, None if p.default is p.empty else _default_text(p.default)]
              for p in sig.parameters.values()]
    return {"kind": kind, "params": params}


def _default_text(value: Any) -> str:
    """A default's repr without object addresses (``<function f at 0x..>`` -> ``<function>``)."""
    return "<function>" if inspect.isfunction(value) else re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def main() -> None:
    out: dict[str, Any] = {}
    for name in TOP_LEVEL:
        out[f"tvm_ffi.{name}"] = describe(getattr(tvm_ffi, name)) if hasattr(tvm_ffi, name) else "<missing>"
    for module_name, members in MODULES.items():
        module = importlib.import_module(module_name)
        for name in members:
            value = getattr(module, name, None)
            if value is None and name in ("kwargs_wrapper", "embed_cubin", "lockfile", "unpack_dataclass"):
                try:
                    value = importlib.import_module(f"{module_name}.{name}")
                except ImportError:
                    value = None
            out[f"{module_name}.{name}"] = "<missing>" if value is None else describe(value)
    for qualname, members in MEMBERS.items():
        module_name, _, cls_name = qualname.rpartition(".")
        cls = getattr(importlib.import_module(module_name), cls_name)
        for name in members:
            value = inspect.getattr_static(cls, name, None)
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            out[f"{qualname}.{name}"] = "<missing>" if value is None else describe(value)
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
