"""Loads object files through apache-tvm-ffi-orcjit (LLVM ORC JIT, built against the reference and
linking its libtvm_ffi.so) and calls their exported functions, through whichever `tvm_ffi` this
interpreter imports; prints one "ok <check>" line per check. The objects are compiled here, with
the headers of that same `tvm_ffi`.

Usage: python run_orcjit.py <build directory>
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tvm_ffi
import tvm_ffi_orcjit

# A kernel written in C against the ABI alone: it accepts Python text only as the ABI's string
# values (SmallStr/Str, SmallBytes/Bytes), as C code written for the reference binding does.
C_SOURCE = r"""
#include <string.h>
#include <tvm/ffi/c_api.h>

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_text_length(void* self, const TVMFFIAny* args, int32_t num_args,
                                             TVMFFIAny* result) {
  (void)self;
  if (num_args != 1) return fail("TypeError", "text_length takes one argument");
  int64_t length;
  switch (args[0].type_index) {
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      length = args[0].small_str_len;
      break;
    case kTVMFFIStr:
    case kTVMFFIBytes:
      /* the content follows the object header (the accessor is C++-only in the reference) */
      length = (int64_t)((const TVMFFIByteArray*)((const char*)args[0].v_obj + sizeof(TVMFFIObject)))->size;
      break;
    default:
      return fail("TypeError", "text_length takes a string or bytes value");
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = length;
  return 0;
}
"""

CXX_SOURCE = r"""
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

tvm::ffi::String greet(tvm::ffi::String name, int64_t times) {
  std::string out;
  for (int64_t i = 0; i < times; ++i) out += "hello " + std::string(name) + ";";
  return out;
}
int64_t total(tvm::ffi::Array<int64_t> values) {
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  return sum;
}
void refuse(int64_t x) { TVM_FFI_THROW(ValueError) << "refused " << std::hex << x; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, greet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(total, total);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(refuse, refuse);
"""


def compile_object(source: str, suffix: str, build_dir: Path) -> Path:
    src = build_dir / f"kernel{suffix}"
    src.write_text(source)
    obj = src.with_suffix(".o")
    compiler = ["cc", "-std=c11"] if suffix == ".c" else ["c++", "-std=c++17"]
    includes = [f"-I{path}" for path in tvm_ffi.libinfo.include_paths()]
    subprocess.run([*compiler, "-O2", "-fPIC", "-c", str(src), "-o", str(obj), *includes], check=True)
    return obj


def main(build_dir: Path) -> None:
    session = tvm_ffi_orcjit.default_session()
    c_module = session.load_module(compile_object(C_SOURCE, ".c", build_dir))
    assert [c_module.text_length(v) for v in ("abc", "Hello, World!", b"xy", b"0123456789")] == [3, 13, 2, 10]
    print("ok python text reaches a C kernel as ABI string values")

    cxx_module = session.load_module(compile_object(CXX_SOURCE, ".cc", build_dir))
    assert cxx_module.greet("orc", 2) == "hello orc;hello orc;"
    assert cxx_module.total([1, 2, 3, 4]) == 10
    print("ok typed C++ functions")
    try:
        cxx_module.refuse(255)
    except ValueError as err:
        assert str(err) == "refused ff", err
        print("ok C++ errors reach python")
    else:
        raise AssertionError("refuse() returned")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
