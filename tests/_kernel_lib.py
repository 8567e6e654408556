"""A small C kernel library, compiled at test time, used by the Python-layer tests.

It is what a kernel author writes against the stable C ABI: exported ``__tvm_ffi_<name>`` safe
calls, optional ``__tvm_ffi__metadata_<name>`` / ``__tvm_ffi__doc_<name>`` symbols, errors raised
through the thread-local error slot, and plain C objects of types it registers at run time.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import c_compiler, run_checked

KERNEL_SOURCE = r"""
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* A string argument as bytes: inline small string, borrowed C string, or String object. */
static int str_arg(const TVMFFIAny* a, TVMFFIByteArray* out) {
  switch (a->type_index) {
    case kTVMFFISmallStr: out->data = a->v_bytes; out->size = a->small_str_len; return 0;
    case kTVMFFIRawStr: out->data = a->v_c_str; out->size = strlen(a->v_c_str); return 0;
    case kTVMFFIStr: *out = *TVMFFIBytesGetByteArrayPtr(a->v_obj); return 0;
    default: return fail("TypeError", "expected a str argument");
  }
}

static char* dup_cstr(TVMFFIByteArray s) {
  char* out = (char*)malloc(s.size + 1);
  if (out != NULL) { memcpy(out, s.data, s.size); out[s.size] = '\0'; }
  return out;
}

/* add_one(x: int) -> int, with metadata and a docstring. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 1 || args[0].type_index != kTVMFFIInt) return fail("TypeError", "add_one expects one int");
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = args[0].v_int64 + 1;
  return 0;
}

static int ret_string(const char* text, TVMFFIAny* ret) {
  TVMFFIByteArray s = {text, strlen(text)};
  return TVMFFIStringFromByteArray(&s, ret);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_add_one(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)a; (void)n;
  return ret_string("{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\"}\",\"arity\":1}", ret);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_add_one(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)a; (void)n;
  return ret_string("Add one to an integer.", ret);
}

/* main(a: int, b: int) -> int: the module's entry point. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_main(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    return fail("TypeError", "main expects two ints");
  }
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

/* raise_error(kind, message): an error whose backtrace is captured here, in C. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_raise_error(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)ret;
  TVMFFIByteArray kind, message;
  if (n != 2) return fail("TypeError", "raise_error expects (kind, message)");
  if (str_arg(&args[0], &kind) != 0 || str_arg(&args[1], &message) != 0) return -1;
  char* k = dup_cstr(kind);
  char* m = dup_cstr(message);
  if (k == NULL || m == NULL) { free(k); free(m); return fail("MemoryError", "raise_error"); }
  TVMFFIErrorSetRaisedFromCStr(k, m);
  free(k);
  free(m);
  return -1;
}

/* raise_with_backtrace(kind, message, backtrace): an error with the given backtrace text. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_raise_with_backtrace(void* h, const TVMFFIAny* args, int32_t n,
                                                      TVMFFIAny* ret) {
  (void)h; (void)ret;
  TVMFFIByteArray kind, message, backtrace;
  if (n != 3) return fail("TypeError", "raise_with_backtrace expects (kind, message, backtrace)");
  if (str_arg(&args[0], &kind) != 0 || str_arg(&args[1], &message) != 0 ||
      str_arg(&args[2], &backtrace) != 0) {
    return -1;
  }
  TVMFFIObjectHandle err = NULL;
  if (TVMFFIErrorCreate(&kind, &message, &backtrace, &err) != 0) return fail("MemoryError", "error");
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  return -1;
}

/* call(f, *args): calls an FFI function from C, passing the error (if any) through. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_call(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n < 1 || args[0].type_index != kTVMFFIFunction) return fail("TypeError", "call expects a function");
  return TVMFFIFunctionCall(args[0].v_obj, (TVMFFIAny*)(args + 1), n - 1, ret);
}

/* ---- plain C objects of run-time registered types: {header, int64 value} ---- */

typedef struct {
  TVMFFIObject header;
  int64_t value;
} ValueObject;

static int64_t g_live_objects = 0;

static void value_object_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) __atomic_fetch_sub(&g_live_objects, 1, __ATOMIC_RELAXED);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

/* alloc_type(type_key, parent_type_index) -> int: registers (or finds) a type. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_alloc_type(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  TVMFFIByteArray key;
  if (n != 2 || args[1].type_index != kTVMFFIInt) return fail("TypeError", "alloc_type expects (str, int)");
  if (str_arg(&args[0], &key) != 0) return -1;
  int32_t parent = (int32_t)args[1].v_int64;
  int32_t depth = TVMFFIGetTypeInfo(parent)->type_depth + 1;
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = TVMFFITypeGetOrAllocIndex(&key, -1, depth, 0, 1, parent);
  return 0;
}

/* make_object(type_index, value) -> object of that type holding value. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_make_object(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    return fail("TypeError", "make_object expects (int, int)");
  }
  ValueObject* obj = (ValueObject*)calloc(1, sizeof(ValueObject));
  if (obj == NULL) return fail("MemoryError", "make_object");
  obj->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  obj->header.type_index = (int32_t)args[0].v_int64;
  obj->header.deleter = value_object_deleter;
  obj->value = args[1].v_int64;
  __atomic_fetch_add(&g_live_objects, 1, __ATOMIC_RELAXED);
  ret->type_index = obj->header.type_index;
  ret->v_obj = &obj->header;
  return 0;
}

/* object_value(obj) -> int: the value of an object made by make_object. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_object_value(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 1 || args[0].type_index < kTVMFFIDynObjectBegin) return fail("TypeError", "object_value expects an object");
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = ((ValueObject*)args[0].v_obj)->value;
  return 0;
}

/* A TVMFFIFieldGetter for the `value` field (offset 24) of these objects. */
TVM_FFI_DLL_EXPORT int pylayer_value_getter(void* field, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = *(const int64_t*)field;
  return 0;
}

/* live_objects() -> int: objects made by make_object and not yet destroyed. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_live_objects(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)a; (void)n;
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = __atomic_load_n(&g_live_objects, __ATOMIC_RELAXED);
  return 0;
}
"""

FUNCTIONS = ("add_one", "main", "raise_error", "raise_with_backtrace", "call", "alloc_type", "make_object",
             "object_value", "live_objects")
"""Functions the kernel exports (as __tvm_ffi_<name>)."""

_BUILT: dict[str, Path] = {}


def compile_kernel(source: Path, library: Path) -> Path:
    """Compiles a C kernel into ``library`` the way a user would: the installed package's
    headers (``tvm_ffi.libinfo``) and ``-ltvm_ffi``."""
    from tvm_ffi import libinfo

    libdir = Path(libinfo.find_libtvm_ffi()).parent
    includes = [f"-I{path}" for path in libinfo.include_paths()]
    run_checked([c_compiler(), "-std=gnu11", "-O1", "-g", "-Wall", "-Werror", "-fPIC", "-shared", *includes,
                 str(source), "-o", str(library), f"-L{libdir}", "-ltvm_ffi"])
    return library


def build_kernel(out_dir: Path) -> Path:
    """Compiles the kernel once per session into ``out_dir``; returns the ``.so`` path."""
    if "kernel" in _BUILT:
        return _BUILT["kernel"]
    source = out_dir / "pylayer_kernel.c"
    source.write_text(KERNEL_SOURCE)
    _BUILT["kernel"] = compile_kernel(source, out_dir / "pylayer_kernel.so")
    return _BUILT["kernel"]


def load_kernel(library: Path) -> Any:
    """The kernel as a module kept for the process, its functions already looked up once.

    ``Module`` caches functions on first attribute access; doing that here, before any test
    counts live FFI objects, keeps those cached functions out of the tests' leak checks.
    """
    import tvm_ffi

    mod = tvm_ffi.load_module(library)
    for name in FUNCTIONS:
        getattr(mod, name)
    return mod


def private_copy(library: Path, out_dir: Path, name: str) -> Path:
    """A copy of ``library`` under its own file name, so it is loaded (and unloaded) on its own."""
    copy = out_dir / f"{name}.so"
    shutil.copyfile(library, copy)
    return copy
