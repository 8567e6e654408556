"""A kernel library that returns what a buggy or hostile kernel might: borrowed C strings and byte
arrays as results (their memory is gone once the call returns), and objects whose type index is
unregistered or disagrees with the one their Any carries. Compiled at test time like _kernel_lib.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _kernel_lib import compile_kernel

HOSTILE_KERNEL_SOURCE = r"""
#include <stdlib.h>
#include <tvm/ffi/c_api.h>

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static const char kText[] = "borrowed";
static const TVMFFIByteArray kBytes = {kText, 8};

/* return_view(kind, null): a RawStr (kind 0) or ByteArrayPtr (kind 1) result, NULL if null. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_return_view(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIBool) {
    return fail("TypeError", "return_view expects (int, bool)");
  }
  int null = args[1].v_int64 != 0;
  if (args[0].v_int64 == 0) {
    ret->type_index = kTVMFFIRawStr;
    ret->v_c_str = null ? NULL : kText;
  } else {
    ret->type_index = kTVMFFIByteArrayPtr;
    ret->v_ptr = null ? NULL : (void*)&kBytes;
  }
  return 0;
}

typedef struct {
  TVMFFIObject header;
  int64_t payload[4];
} Blob;

static int64_t g_live = 0;

static void blob_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) g_live--;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

/* lying_object(any_index, header_index): an object whose header says header_index, returned in
 * an Any tagged any_index. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_lying_object(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    return fail("TypeError", "lying_object expects (int, int)");
  }
  Blob* obj = (Blob*)calloc(1, sizeof(Blob));
  if (obj == NULL) return fail("MemoryError", "lying_object");
  obj->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  obj->header.type_index = (int32_t)args[1].v_int64;
  obj->header.deleter = blob_deleter;
  g_live++;
  ret->type_index = (int32_t)args[0].v_int64;
  ret->v_obj = &obj->header;
  return 0;
}

/* live_blobs() -> int: objects made by lying_object and not yet destroyed. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_live_blobs(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)a; (void)n;
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = g_live;
  return 0;
}
"""

FUNCTIONS = ("return_view", "lying_object", "live_blobs")


def load_hostile_kernel(out_dir: Path) -> Any:
    """Compiles the library into ``out_dir`` and loads it, its functions looked up once."""
    import tvm_ffi

    source = out_dir / "hostile_kernel.c"
    source.write_text(HOSTILE_KERNEL_SOURCE)
    mod = tvm_ffi.load_module(compile_kernel(source, out_dir / "hostile_kernel.so"))
    for name in FUNCTIONS:
        getattr(mod, name)
    return mod
