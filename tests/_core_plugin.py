"""A small C plugin compiled at test time, giving the _core tests FFI functions written in C.

Each function is a plain ``TVMFFISafeCallType`` exported from a shared library built with the
system compiler against the installed headers and runtime, then wrapped with
``Function.__from_extern_c__`` -- the way a kernel author's C code reaches Python.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest
import tvm_ffi
from tvm_ffi import _core

PLUGIN_SOURCE = r"""
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define EXPORT __attribute__((visibility("default")))

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static void set_int(TVMFFIAny* out, int64_t v) {
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFIInt;
  out->v_int64 = v;
}

/* Content of a string argument in any of its forms, NUL-terminated into buf. */
static int arg_str(const TVMFFIAny* a, char* buf, size_t cap) {
  const char* data = NULL;
  size_t size = 0;
  if (a->type_index == kTVMFFIRawStr) {
    data = a->v_c_str;
    size = strlen(data);
  } else if (a->type_index == kTVMFFISmallStr) {
    data = a->v_bytes;
    size = a->small_str_len;
  } else if (a->type_index == kTVMFFIStr) {
    TVMFFIByteArray* ba = TVMFFIBytesGetByteArrayPtr(a->v_obj);
    data = ba->data;
    size = ba->size;
  } else {
    return fail("TypeError", "expected a string argument");
  }
  if (size >= cap) size = cap - 1;
  memcpy(buf, data, size);
  buf[size] = '\0';
  return 0;
}

EXPORT int core_test_nop(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return 0;
}

EXPORT int core_test_echo(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1) return fail("ValueError", "echo needs one argument");
  return TVMFFIAnyViewToOwnedAny(&args[0], result);
}

/* Returns the last argument (any arity). */
EXPORT int core_test_last(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1) return 0;
  return TVMFFIAnyViewToOwnedAny(&args[n - 1], result);
}

EXPORT int core_test_num_args(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  set_int(result, n);
  return 0;
}

EXPORT int core_test_type_index(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1) return fail("ValueError", "type_index needs one argument");
  set_int(result, args[0].type_index);
  return 0;
}

/* 1 when every argument has the canonical bit pattern the ABI requires (zero padding etc.). */
EXPORT int core_test_canonical(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int ok = 1;
  for (int32_t i = 0; i < n; ++i) {
    const TVMFFIAny* a = &args[i];
    int32_t t = a->type_index;
    if (t == kTVMFFISmallStr || t == kTVMFFISmallBytes) {
      if (a->small_str_len > 7) ok = 0;
      for (uint32_t j = a->small_str_len; j < 8; ++j) {
        if (a->v_bytes[j] != 0) ok = 0;
      }
      continue;
    }
    if (a->zero_padding != 0) ok = 0;
    if (t == kTVMFFINone && a->v_uint64 != 0) ok = 0;
    if (t == kTVMFFIBool && a->v_int64 != 0 && a->v_int64 != 1) ok = 0;
    if (t == kTVMFFIDataType && (a->v_uint64 >> 32) != 0) ok = 0;
  }
  set_int(result, ok);
  return 0;
}

/* Strong reference count of an object argument. */
EXPORT int core_test_use_count(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1 || args[0].type_index < kTVMFFIStaticObjectBegin) {
    return fail("TypeError", "use_count needs an object");
  }
  set_int(result, (int64_t)(args[0].v_obj->combined_ref_count & 0xFFFFFFFFu));
  return 0;
}

/* call_n(f, count, *rest): calls f(*rest) count times, returns the last result. */
EXPORT int core_test_call_n(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 2 || args[0].type_index != kTVMFFIFunction || args[1].type_index != kTVMFFIInt) {
    return fail("TypeError", "call_n(f: Function, count: int, *args)");
  }
  for (int64_t i = 0; i < args[1].v_int64; ++i) {
    if (result->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result->v_obj);
    memset(result, 0, sizeof(*result));
    if (TVMFFIFunctionCall(args[0].v_obj, (TVMFFIAny*)(args + 2), n - 2, result) != 0) return -1;
  }
  return 0;
}

typedef struct {
  TVMFFIObjectHandle func;
  int64_t count;
  int64_t sum;
  TVMFFIObjectHandle error;
} ThreadJob;

static void* thread_main(void* p) {
  ThreadJob* job = (ThreadJob*)p;
  for (int64_t i = 0; i < job->count; ++i) {
    TVMFFIAny arg;
    set_int(&arg, i);
    TVMFFIAny out;
    memset(&out, 0, sizeof(out));
    if (TVMFFIFunctionCall(job->func, &arg, 1, &out) != 0) {
      TVMFFIErrorMoveFromRaised(&job->error);
      return NULL;
    }
    if (out.type_index == kTVMFFIInt) job->sum += out.v_int64;
    if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
  }
  return NULL;
}

/* call_in_thread(f, count): calls f(i) for i < count on a new pthread; returns the sum of the
 * int results, or re-raises the callback's error on this thread. */
EXPORT int core_test_call_in_thread(void* h, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  if (n < 2 || args[0].type_index != kTVMFFIFunction || args[1].type_index != kTVMFFIInt) {
    return fail("TypeError", "call_in_thread(f: Function, count: int)");
  }
  ThreadJob job = {args[0].v_obj, args[1].v_int64, 0, NULL};
  pthread_t thread;
  if (pthread_create(&thread, NULL, thread_main, &job) != 0) {
    return fail("RuntimeError", "pthread_create failed");
  }
  pthread_join(thread, NULL);
  if (job.error != NULL) {
    TVMFFIErrorSetRaised(job.error);
    TVMFFIObjectDecRef(job.error);
    return -1;
  }
  set_int(result, job.sum);
  return 0;
}

/* raise(kind, message) */
EXPORT int core_test_raise(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  char kind[128], message[512];
  if (n < 2) return fail("ValueError", "raise(kind, message)");
  if (arg_str(&args[0], kind, sizeof(kind)) != 0) return -1;
  if (arg_str(&args[1], message, sizeof(message)) != 0) return -1;
  return fail(kind, message);
}

/* An error whose cause chain holds another error. */
EXPORT int core_test_raise_with_cause(void* h, const TVMFFIAny* args, int32_t n,
                                      TVMFFIAny* result) {
  TVMFFIByteArray inner_kind = {"ValueError", 10}, inner_msg = {"inner problem", 13};
  TVMFFIByteArray outer_kind = {"RuntimeError", 12}, outer_msg = {"outer problem", 13};
  TVMFFIByteArray bt = {"", 0};
  TVMFFIObjectHandle inner, outer;
  if (TVMFFIErrorCreate(&inner_kind, &inner_msg, &bt, &inner) != 0) return -1;
  int rc = TVMFFIErrorCreateWithCauseAndExtraContext(&outer_kind, &outer_msg, &bt, inner, NULL,
                                                     &outer);
  TVMFFIObjectDecRef(inner);
  if (rc != 0) return -1;
  TVMFFIErrorSetRaised(outer);
  TVMFFIObjectDecRef(outer);
  return -1;
}

/* check_signals(raise_first, max_iterations, mode): polls TVMFFIEnvCheckSignals every ms.
 * On a signal: mode 0 returns -1 with no FFI error, mode 1 raises kind EnvErrorAlreadySet,
 * mode 2 returns -2. Returns the number of polls when no signal came. */
EXPORT int core_test_check_signals(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 3) return fail("ValueError", "check_signals(raise_first, max_iterations, mode)");
  if (args[0].v_int64) raise(SIGINT);
  struct timespec pause = {0, 1000000};
  for (int64_t i = 0; i < args[1].v_int64; ++i) {
    if (TVMFFIEnvCheckSignals() != 0) {
      if (args[2].v_int64 == 1) return fail("EnvErrorAlreadySet", "");
      return args[2].v_int64 == 2 ? -2 : -1;
    }
    nanosleep(&pause, NULL);
  }
  set_int(result, args[1].v_int64);
  return 0;
}

/* catch(f): calls f() and returns the error it raised (an Error object), or None. */
EXPORT int core_test_catch(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1 || args[0].type_index != kTVMFFIFunction) return fail("TypeError", "catch(f)");
  TVMFFIAny out;
  memset(&out, 0, sizeof(out));
  if (TVMFFIFunctionCall(args[0].v_obj, NULL, 0, &out) == 0) {
    if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
    return 0;
  }
  TVMFFIObjectHandle error = NULL;
  TVMFFIErrorMoveFromRaised(&error);
  if (error != NULL) {
    result->type_index = kTVMFFIError;
    result->v_obj = (TVMFFIObject*)error;
  }
  return 0;
}

/* Returns -1 without setting any error (a misbehaving callee). */
EXPORT int core_test_fail_silently(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return -1;
}

EXPORT int core_test_sleep_ms(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int64_t ms = n > 0 ? args[0].v_int64 : 0;
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&pause, NULL);
  return 0;
}

/* take(rvalue_ref): steals the object behind an ObjectRValueRef and returns it. */
EXPORT int core_test_take(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1 || args[0].type_index != kTVMFFIObjectRValueRef) {
    return fail("TypeError", "take() needs an ObjectRValueRef");
  }
  TVMFFIObjectHandle* slot = (TVMFFIObjectHandle*)args[0].v_ptr;
  TVMFFIObjectHandle obj = *slot;
  *slot = NULL;
  memset(result, 0, sizeof(*result));
  result->type_index = ((TVMFFIObject*)obj)->type_index;
  result->v_obj = (TVMFFIObject*)obj;
  return 0;
}

static TVMFFIObjectHandle g_kept = NULL;

/* keep(obj): holds a reference to obj until drop_kept_in_thread. */
EXPORT int core_test_keep(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n < 1 || args[0].type_index < kTVMFFIStaticObjectBegin || g_kept != NULL) {
    return fail("TypeError", "keep(obj: Object), one at a time");
  }
  TVMFFIObjectIncRef(args[0].v_obj);
  g_kept = args[0].v_obj;
  return 0;
}

static void* release_main(void* p) {
  TVMFFIObjectDecRef((TVMFFIObjectHandle)p);
  return NULL;
}

/* drop_kept_in_thread(): drops what keep() holds on a new pthread, which has no Python thread
 * state, and waits for it. */
EXPORT int core_test_drop_kept_in_thread(void* h, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  if (g_kept == NULL) return fail("ValueError", "nothing kept");
  pthread_t thread;
  if (pthread_create(&thread, NULL, release_main, g_kept) != 0) {
    return fail("RuntimeError", "pthread_create failed");
  }
  g_kept = NULL;
  pthread_join(thread, NULL);
  return 0;
}

/* MLIR packed convention: packed = {&handle, &args, &num_args, &result, &ret_code}. */
EXPORT void core_test_mlir_last(void** packed) {
  const TVMFFIAny* args = *(const TVMFFIAny**)packed[1];
  int32_t n = *(int32_t*)packed[2];
  TVMFFIAny* result = *(TVMFFIAny**)packed[3];
  *(int*)packed[4] = core_test_last(NULL, args, n, result);
}
"""


class Plugin:
    """The compiled plugin: ``plugin.fn("echo")`` is the Function for ``core_test_echo``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lib = ctypes.CDLL(str(path))
        # Made up front, so that tests checking live-object counts never see them appear.
        names = re.findall(r"EXPORT int core_test_(\w+)\(", PLUGIN_SOURCE)
        self._functions = {
            name: _core.Function.__from_extern_c__(self.address(f"core_test_{name}")) for name in names
        }

    def address(self, symbol: str) -> int:
        value = ctypes.cast(getattr(self.lib, symbol), ctypes.c_void_p).value
        assert value is not None
        return value

    def fn(self, name: str) -> _core.Function:
        """The plugin function ``core_test_<name>`` as an FFI Function."""
        return self._functions[name]


def _compile(out_dir: Path) -> Path:
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) to build the test plugin")
    source = out_dir / "core_plugin.c"
    source.write_text(PLUGIN_SOURCE)
    library = out_dir / "libcore_plugin.so"
    libdir = Path(tvm_ffi.libinfo.find_libtvm_ffi()).parent
    includes = [f"-I{p}" for p in tvm_ffi.libinfo.include_paths()]
    cmd = [compiler, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-O1", "-fPIC", "-shared", "-Wall",
           "-Werror", "-Wno-unused-parameter", *includes, str(source), "-o", str(library),
           f"-L{libdir}", "-ltvm_ffi", f"-Wl,-rpath,{libdir}", "-lpthread"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"building the test plugin failed:\n{' '.join(cmd)}\n{proc.stderr}")
    return library


@cache
def plugin() -> Plugin:
    """Builds the plugin once per test session."""
    out_dir = Path(tempfile.mkdtemp(prefix="tvm_ffi_core_plugin_"))
    atexit.register(shutil.rmtree, out_dir, True)
    return Plugin(_compile(out_dir))
