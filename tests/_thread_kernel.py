"""A kernel library whose functions work on C threads, compiled at test time like _kernel_lib.

What a kernel author writes when a kernel hands work to its own threads and waits for them:
``call_in_c_thread(f, *args)`` calls the FFI function ``f`` on a new pthread and joins it (with
the caller's GIL held, that C thread could never enter Python); ``sleep_ms(ms)`` blocks like a
long kernel; ``register_sleep(name)`` registers ``sleep_ms`` as a global function the way a
library registers its own functions; ``fill(tensor, value)`` writes a float32 tensor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _kernel_lib import compile_kernel

THREAD_KERNEL_SOURCE = r"""
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <tvm/ffi/c_api.h>

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

typedef struct {
  TVMFFIObjectHandle func;
  const TVMFFIAny* args;
  int32_t num_args;
  TVMFFIAny* result;
  int rc;
  TVMFFIObjectHandle error; /* the thread's error, moved to the caller's thread */
} Job;

static void* run_job(void* arg) {
  Job* job = (Job*)arg;
  job->rc = TVMFFIFunctionCall(job->func, (TVMFFIAny*)job->args, job->num_args, job->result);
  if (job->rc != 0) TVMFFIErrorMoveFromRaised(&job->error);
  return NULL;
}

/* call_in_c_thread(f, *args): f(*args) on a new pthread; waits for it. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_call_in_c_thread(void* h, const TVMFFIAny* args, int32_t n,
                                                  TVMFFIAny* ret) {
  (void)h;
  if (n < 1 || args[0].type_index != kTVMFFIFunction) return fail("TypeError", "expects a function");
  Job job = {args[0].v_obj, args + 1, n - 1, ret, 0, NULL};
  pthread_t thread;
  if (pthread_create(&thread, NULL, run_job, &job) != 0) return fail("RuntimeError", "pthread_create");
  pthread_join(thread, NULL);
  if (job.rc != 0) {
    TVMFFIErrorSetRaised(job.error);
    TVMFFIObjectDecRef(job.error);
  }
  return job.rc;
}

static int sleep_ms(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 1 || args[0].type_index != kTVMFFIInt) return fail("TypeError", "sleep_ms expects an int");
  struct timespec ts = {args[0].v_int64 / 1000, (args[0].v_int64 % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  ret->type_index = kTVMFFINone;
  return 0;
}

/* sleep_ms(ms): blocks the calling thread for ms milliseconds. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_sleep_ms(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  return sleep_ms(h, args, n, ret);
}

/* register_sleep(name): registers sleep_ms as the global function `name`. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_register_sleep(void* h, const TVMFFIAny* args, int32_t n,
                                                TVMFFIAny* ret) {
  (void)h; (void)ret;
  TVMFFIByteArray name;
  if (n != 1) return fail("TypeError", "register_sleep expects a name");
  if (args[0].type_index == kTVMFFISmallStr) {
    name = TVMFFISmallBytesGetContentByteArray(&args[0]);
  } else if (args[0].type_index == kTVMFFIStr) {
    name = *TVMFFIBytesGetByteArrayPtr(args[0].v_obj);
  } else if (args[0].type_index == kTVMFFIRawStr) {
    name.data = args[0].v_c_str;
    name.size = strlen(args[0].v_c_str);
  } else {
    return fail("TypeError", "register_sleep expects a str");
  }
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(NULL, sleep_ms, NULL, &f) != 0) return -1;
  int rc = TVMFFIFunctionSetGlobal(&name, f, 1);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* fill(tensor, value): writes value into every element of a contiguous float32 tensor. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_fill(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h; (void)ret;
  if (n != 2 || (args[1].type_index != kTVMFFIFloat && args[1].type_index != kTVMFFIInt)) {
    return fail("TypeError", "fill expects (tensor, number)");
  }
  const DLTensor* t;
  if (args[0].type_index == kTVMFFITensor) {
    t = TVMFFITensorGetDLTensorPtr(args[0].v_obj);
  } else if (args[0].type_index == kTVMFFIDLTensorPtr) {
    t = (const DLTensor*)args[0].v_ptr;
  } else {
    return fail("TypeError", "fill expects a tensor");
  }
  float value = args[1].type_index == kTVMFFIFloat ? (float)args[1].v_float64 : (float)args[1].v_int64;
  int64_t count = 1;
  for (int32_t i = 0; i < t->ndim; ++i) count *= t->shape[i];
  float* data = (float*)((char*)t->data + t->byte_offset);
  for (int64_t i = 0; i < count; ++i) data[i] = value;
  return 0;
}
"""

FUNCTIONS = ("call_in_c_thread", "sleep_ms", "register_sleep", "fill")


def build_thread_kernel(out_dir: Path) -> Path:
    """Compiles the library into ``out_dir``; returns the ``.so`` path."""
    source = out_dir / "thread_kernel.c"
    source.write_text(THREAD_KERNEL_SOURCE)
    return compile_kernel(source, out_dir / "thread_kernel.so")


def load_thread_kernel(library: Path) -> Any:
    """The library as a module, its functions looked up once (outside the tests' leak checks)."""
    import tvm_ffi

    mod = tvm_ffi.load_module(library)
    for name in FUNCTIONS:
        getattr(mod, name)
    return mod
