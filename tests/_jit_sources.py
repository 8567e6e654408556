"""Kernel sources for the tvm_ffi.cpp tests that need only the C ABI header (no C++ API)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# add(a, b) = a + b + OFFSET; OFFSET comes from a -D flag or an included header, so a test sees
# which flags and headers a build used.
ADD_SOURCE = r"""
#include <tvm/ffi/c_api.h>
#ifdef OFFSET_HEADER
#include "offset.h"
#endif
#ifndef OFFSET
#define OFFSET 0
#endif
extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_add(void*, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add expects two ints");
    return -1;
  }
  ret->type_index = kTVMFFIInt;
  ret->v_int64 = args[0].v_int64 + args[1].v_int64 + OFFSET;
  return 0;
}
"""

# The same function in C, for the C compiler path.
ADD_SOURCE_C = ADD_SOURCE.replace('extern "C" ', "").replace("void*, const", "void* h, const").replace(
    "int32_t n, TVMFFIAny* ret) {", "int32_t n, TVMFFIAny* ret) {\n  (void)h;"
)


def write(path: Path, text: str) -> Path:
    """Writes ``text`` to ``path`` and makes its mtime distinct from a write a moment ago."""
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    return path


def call_in_subprocess(library: str | Path, func: str, *args: int) -> str:
    """``load_module(library).<func>(*args)`` in a fresh process (a process that loaded an
    older library under the same path would keep using it)."""
    code = f"import tvm_ffi; print(tvm_ffi.load_module({str(library)!r}).{func}(*{args!r}))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()
