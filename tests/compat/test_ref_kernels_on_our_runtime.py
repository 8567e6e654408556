"""Direction 1: kernels built against the REFERENCE headers run unchanged on OUR runtime.

Two kernels are built the way users of the reference package build them -- against its headers,
linked with `-ltvm_ffi` and no rpath:

* kernels/ref_c_kernel.c: plain C over the stable C ABI (`__tvm_ffi_add_one`, errors through
  `TVMFFIErrorSetRaisedFromCStr`);
* kernels/ref_cpp_kernel.cc: the header-only C++ API (`TensorView`, `String`,
  `TVM_FFI_DLL_EXPORT_TYPED_FUNC`, `TVM_FFI_THROW`), whose static initializers already call
  `TVMFFITypeGetOrAllocIndex` when the library is opened.

hosts/run_on_ours.c is compiled against our headers and linked with our runtime. It dlopens a
kernel (whose `NEEDED libtvm_ffi.so` then resolves to the runtime already in the process: ours),
checks that ours is the only libtvm_ffi mapped, wraps the exported symbols with
`TVMFFIFunctionCreate`, calls them with DLTensor views and with Tensor objects from
`TVMFFITensorFromDLPackVersioned`, and checks results, error kinds, messages (type keys from our
`TVMFFIGetTypeInfo`), backtraces and reference counts.

Every case runs against the installed runtime and the ASan/UBSan/LSan build (`runtime`
fixture); with the sanitized runtime the kernels are instrumented too, which works for the
reference C++ headers as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Runtime, compile_c

from .conftest import (
    HOSTS_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    expect_binds_to_loading_runtime,
    loaded_runtime,
    run_program,
)

KERNELS = {"c": KERNELS_DIR / "ref_c_kernel.c", "cpp": KERNELS_DIR / "ref_cpp_kernel.cc"}


@pytest.mark.parametrize("language", sorted(KERNELS))
def test_reference_kernel_runs_on_our_runtime(language: str, reference: Reference, runtime: Runtime,
                                              tmp_path: Path) -> None:
    kernel = build_kernel(KERNELS[language], tmp_path / f"ref_{language}_kernel.so",
                          include_dir=reference.include_dir, link_dir=reference.lib_dir,
                          sanitized=runtime.sanitized)
    expect_binds_to_loading_runtime(kernel)
    host = compile_c(runtime, [HOSTS_DIR / "run_on_ours.c"], tmp_path / "run_on_ours", extra=["-ldl"])
    assert loaded_runtime(host, runtime.env()) == runtime.library.resolve()

    output = run_program([host, runtime.library, language, kernel], runtime.env())
    assert "ok test_add_one_with_tensor_objects" in output, output
