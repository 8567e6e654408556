"""tvm_ffi.cpp.load_inline end to end: C++ kernels written against our C++ headers, called from Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi import libinfo
from tvm_ffi.cpp import BuildError, _toolchain

_HEADERS = Path(libinfo.find_include_path())
needs_headers = pytest.mark.skipif(
    not (_HEADERS / "tvm" / "ffi" / "tvm_ffi.h").is_file(), reason="the C++ API headers (tvm/ffi/tvm_ffi.h) are missing"
)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty cache."""
    path = tmp_path / "cache"
    monkeypatch.setenv("TVM_FFI_CACHE_DIR", str(path))
    return path


ADD_ONE = r"""
void add_one_cpu(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be a 1D tensor";
  DLDataType f32_dtype{kDLFloat, 32, 1};
  TVM_FFI_ICHECK(x.dtype() == f32_dtype) << "x must be a float tensor";
  TVM_FFI_ICHECK(y.ndim() == 1 && y.dtype() == f32_dtype) << "y must be a 1D float tensor";
  TVM_FFI_ICHECK(x.size(0) == y.size(0)) << "x and y must have the same shape";
  for (int64_t i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] + 1;
  }
}
"""


@needs_headers
def test_tensor_view_kernel_and_icheck_failure() -> None:
    mod = tvm_ffi.cpp.load_inline("add_one", cpp_sources=ADD_ONE, functions=["add_one_cpu"])
    x = np.arange(5, dtype="float32")
    y = np.zeros(5, dtype="float32")
    mod.add_one_cpu(x, y)
    np.testing.assert_array_equal(y, x + 1)
    with pytest.raises(Exception, match="x must be a float tensor") as info:
        mod.add_one_cpu(np.zeros(5, dtype="int32"), y)
    assert "Check failed" in str(info.value)


CONTAINERS = r"""
#include <string>
int64_t sum_array(tvm::ffi::Array<int64_t> xs) {
  int64_t total = 0;
  for (int64_t x : xs) total += x;
  return total;
}
tvm::ffi::String greet(tvm::ffi::String name) { return tvm::ffi::String("hello " + std::string(name)); }
int64_t or_default(tvm::ffi::Optional<int64_t> x) { return x.has_value() ? *x : -1; }
tvm::ffi::Array<tvm::ffi::String> split_words(tvm::ffi::String text) {
  tvm::ffi::Array<tvm::ffi::String> words;
  std::string s(text), word;
  for (char c : s + " ") {
    if (c == ' ') { if (!word.empty()) words.push_back(tvm::ffi::String(word)); word.clear(); }
    else word += c;
  }
  return words;
}
void must_be_positive(int64_t x) {
  if (x <= 0) TVM_FFI_THROW(ValueError) << "x must be positive, got " << x;
}
"""


@needs_headers
def test_array_string_optional_arguments() -> None:
    functions = {"sum_array": "Sum of the elements.", "greet": "", "or_default": "", "split_words": "",
                 "must_be_positive": ""}
    mod = tvm_ffi.cpp.load_inline("containers", cpp_sources=CONTAINERS, functions=functions)
    assert mod.sum_array([1, 2, 3]) == 6
    assert mod.sum_array(tvm_ffi.Array([4, 5])) == 9
    assert mod.greet("kernel") == "hello kernel"
    assert mod.or_default(None) == -1 and mod.or_default(7) == 7
    assert list(mod.split_words(" a bc  d ")) == ["a", "bc", "d"]
    assert mod.get_function_doc("sum_array") is None  # as in the reference: docs only with metadata on
    with pytest.raises(TypeError):
        mod.sum_array("not an array")
    with pytest.raises(ValueError, match="x must be positive, got -3"):
        mod.must_be_positive(-3)


@needs_headers
def test_docstrings_with_metadata_enabled() -> None:
    mod = tvm_ffi.cpp.load_inline("documented", cpp_sources="int64_t f(int64_t x) { return x; }",
                                  functions={"f": 'Returns "x"\tunchanged.\nSecond line.'},
                                  extra_cflags=["-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=1"])
    assert mod.f(3) == 3
    assert mod.get_function_doc("f") == 'Returns "x"\tunchanged.\nSecond line.'
    assert mod.get_function_metadata("f") is not None


def test_a_function_mapped_to_none_has_no_docstring() -> None:
    from tvm_ffi.cpp._inline import function_map

    assert function_map({"f": None, "g": "Doc."}) == {"f": "", "g": "Doc."}
    with pytest.raises(TypeError, match="docstring of 'f' must be a str or None, got int"):
        function_map({"f": 3})  # type: ignore[dict-item]


@needs_headers
def test_compile_error_points_at_the_users_line() -> None:
    source = "int64_t f(int64_t x) {\n  return x +\n    undeclared_thing;\n}\n"
    with pytest.raises(BuildError) as info:
        tvm_ffi.cpp.load_inline("broken", cpp_sources=source, functions="f")
    err = info.value
    assert err.errors[0].startswith("main.cpp:3:"), err.errors
    assert "undeclared_thing" in err.errors[0]
    assert Path(err.build_dir, "main.cpp").is_file() and "main.cpp" in err.command


@needs_headers
def test_flag_change_invalidates_the_cache(cache_dir: Path) -> None:
    source = "int64_t value() { return VALUE; }"
    one = tvm_ffi.cpp.load_inline("flagged", cpp_sources=source, functions="value", extra_cflags=["-DVALUE=1"])
    two = tvm_ffi.cpp.load_inline("flagged", cpp_sources=source, functions="value", extra_cflags=["-DVALUE=2"])
    assert (one.value(), two.value()) == (1, 2)
    assert len(list(cache_dir.glob("flagged_*"))) == 2


@needs_headers
def test_cache_hit_reuses_the_library() -> None:
    path = tvm_ffi.cpp.build_inline("hit", cpp_sources="int64_t one() { return 1; }", functions="one")
    mtime = os.stat(path).st_mtime_ns
    start = time.perf_counter()
    mod = tvm_ffi.cpp.load_inline("hit", cpp_sources="int64_t one() { return 1; }", functions="one")
    elapsed = time.perf_counter() - start
    assert mod.one() == 1 and os.stat(path).st_mtime_ns == mtime
    assert elapsed < 1.0, f"a cache hit took {elapsed:.3f} s"  # generous: ~1 ms expected, no compiler run


RACER = textwrap.dedent(
    """
    import os, sys, time
    import tvm_ffi.cpp
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.001)
    mod = tvm_ffi.cpp.load_inline("raced", cpp_sources="int64_t twice(int64_t x) { return 2 * x; }",
                                  functions="twice")
    print(mod.twice(21))
    """
)


@needs_headers
def test_three_processes_racing_on_load_inline(tmp_path: Path, cache_dir: Path) -> None:
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(3)]
    time.sleep(0.5)
    go.touch()
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outputs]
    assert [out.strip() for out, _ in outputs] == ["42"] * 3
    (build_dir,) = cache_dir.glob("raced_*")
    assert sorted(p.name for p in build_dir.glob("*.so")) == ["raced.so"]  # no leftover temporaries


REFLECTED = r"""
#include <tvm/ffi/reflection/registry.h>
namespace jit_test {
class CounterObj : public tvm::ffi::Object {
 public:
  int64_t value;
  explicit CounterObj(int64_t v) : value(v) {}
  static int64_t twice(int64_t x) { return 2 * x; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("jit_test.Counter", CounterObj, tvm::ffi::Object);
};
}  // namespace jit_test
TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::ObjectDef<jit_test::CounterObj>()
      .def(refl::init<int64_t>())
      .def_ro("value", &jit_test::CounterObj::value)
      .def_static("twice", &jit_test::CounterObj::twice, "Doubles x.");
}
int64_t counter_value(tvm::ffi::ObjectRef obj) {
  const auto* counter = obj.as<jit_test::CounterObj>();
  TVM_FFI_ICHECK(counter != nullptr) << "expected a jit_test.Counter, got " << obj->GetTypeKey();
  return counter->value;
}
"""

needs_reflection = pytest.mark.skipif(
    not (_HEADERS / "tvm" / "ffi" / "reflection" / "registry.h").is_file()
    or not hasattr(tvm_ffi.core, "TypeMethod"),
    reason="needs reflection/registry.h (C++ API) and reflected methods bound in Python (core.TypeMethod)",
)


@needs_headers
@needs_reflection
def test_static_method_on_a_reflected_type() -> None:
    mod = tvm_ffi.cpp.load_inline("reflected", cpp_sources=REFLECTED, functions="counter_value")

    @tvm_ffi.register_object("jit_test.Counter")
    class Counter(tvm_ffi.Object):
        """jit_test.Counter, defined by the module just built."""

    assert Counter.twice(21) == 42
    counter = Counter(5)
    assert counter.value == 5 and mod.counter_value(counter) == 5
    with pytest.raises(TypeError):
        Counter.twice("not an int")


EMBED = r"""
extern "C" const unsigned char __tvm_ffi__cubin_payload[];
extern "C" const unsigned char __tvm_ffi__cubin_payload_end[];
int64_t payload_size() { return __tvm_ffi__cubin_payload_end - __tvm_ffi__cubin_payload; }
int64_t payload_byte(int64_t i) { return __tvm_ffi__cubin_payload[i]; }
"""


@needs_headers
@pytest.mark.skipif(shutil.which("objcopy") is None, reason="needs GNU binutils")
def test_embed_cubin_bytes_reach_the_library() -> None:
    blob = bytes([7, 0, 255, 42]) * 100
    mod = tvm_ffi.cpp.load_inline("embedded", cpp_sources=EMBED, functions=["payload_size", "payload_byte"],
                                  embed_cubin={"payload": blob})
    assert mod.payload_size() == len(blob)
    assert [mod.payload_byte(i) for i in (0, 2, 3, 399)] == [7, 255, 42, 42]


def test_source_and_function_errors() -> None:
    with pytest.raises(ValueError, match="no sources"):
        tvm_ffi.cpp.build_inline("nothing")
    with pytest.raises(ValueError, match="is not a C\\+\\+ function name"):
        tvm_ffi.cpp.build_inline("bad", cpp_sources="", functions=["not a name"])
    with pytest.raises(TypeError, match="functions must be a name, a list of names or .* mapping, got int"):
        tvm_ffi.cpp.build_inline("bad", cpp_sources="", functions=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="extra_cflags: cannot split '-DX=\"a' into flags: No closing quotation"):
        tvm_ffi.cpp.build_inline("bad", cpp_sources="", extra_cflags=['-DX="a'])
    with pytest.raises(TypeError, match="cpp_sources must be a str or a list of str"):
        tvm_ffi.cpp.build_inline("bad", cpp_sources=["int x;", 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="embed_cubin: 'a-b' is not a C identifier"):
        tvm_ffi.cpp.build_inline("bad", cpp_sources="", embed_cubin={"a-b": b""})


CUDA = r"""
__global__ void add_one_kernel(const float* x, float* y, int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i] + 1;
}
void add_one_cuda(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  int64_t n = x.size(0);
  add_one_kernel<<<(n + 255) / 256, 256>>>(static_cast<float*>(x.data_ptr()), static_cast<float*>(y.data_ptr()), n);
}
"""


def _has_nvcc() -> bool:
    try:
        _toolchain.cuda_home()
    except RuntimeError:
        return False
    return True


def test_cuda_sources_without_nvcc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="CUDA sources need nvcc"):
        tvm_ffi.cpp.build_inline("cu", cuda_sources=CUDA, functions="add_one_cuda")


@needs_headers
@pytest.mark.skipif(not _has_nvcc(), reason="no CUDA toolkit (nvcc)")
def test_cuda_sources_compile_with_nvcc(monkeypatch: pytest.MonkeyPatch) -> None:
    if not os.environ.get("TVM_FFI_CUDA_ARCH_LIST") and shutil.which("nvidia-smi") is None:
        monkeypatch.setenv("TVM_FFI_CUDA_ARCH_LIST", "8.0")
    path = tvm_ffi.cpp.build_inline("cu", cuda_sources=CUDA, functions="add_one_cuda")
    symbols = subprocess.run(["nm", "-D", path], capture_output=True, text=True, check=True).stdout
    assert "__tvm_ffi_add_one_cuda" in symbols
    # The usual split: C++ declares and exports, CUDA defines; one library from both.
    declaration = "void add_one_cuda(tvm::ffi::TensorView x, tvm::ffi::TensorView y);"
    mixed = tvm_ffi.cpp.build_inline("cu_mixed", cpp_sources=declaration, cuda_sources=CUDA, functions="add_one_cuda")
    build_dir = Path(mixed).parent
    assert (build_dir / "main.cpp").is_file() and (build_dir / "cuda.cu").is_file()
    symbols = subprocess.run(["nm", "-D", mixed], capture_output=True, text=True, check=True).stdout
    assert "__tvm_ffi_add_one_cuda" in symbols


def _cuda_torch() -> bool:
    torch = pytest.importorskip("torch")
    return bool(torch.cuda.is_available())


@needs_headers
def test_cuda_kernel_runs_on_the_gpu() -> None:
    if not _has_nvcc() or not _cuda_torch():
        pytest.skip("needs nvcc and a CUDA GPU visible to torch")
    import torch

    mod = tvm_ffi.cpp.load_inline("cu_run", cuda_sources=CUDA, functions="add_one_cuda")
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    y = torch.empty_like(x)
    mod.add_one_cuda(x, y)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, x + 1)
