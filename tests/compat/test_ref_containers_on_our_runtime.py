"""Containers made by OUR runtime, read and mutated inline by a kernel built against the
REFERENCE C++ headers (kernels/ref_container_kernel.cc), and containers that kernel makes read
and mutated by our runtime (hosts/run_containers_on_ours.c).

Covered: our Map<String, int64> with 1 and 1,000 entries (small and dense layouts probed by the
kernel's inline AnyHash and Fibonacci probing), copy-on-write Map.Set in the kernel, kernel-made
small and dense maps read through ffi.MapGetItem and the iterator functor, a List grown past its
capacity by the kernel (our data_deleter frees the old buffer) and a kernel List grown by us,
and a Dict the kernel fills in place until it switches to the dense layout inside our object,
which we then mutate and the kernel reads again. Runs against the installed runtime and the
ASan/UBSan/LSan build, with the kernel instrumented alike.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Runtime, compile_c

from .conftest import HOSTS_DIR, KERNELS_DIR, Reference, build_kernel, run_program

TESTS = [
    "test_our_map_with_one_entry",
    "test_our_map_with_1000_entries",
    "test_kernel_maps_read_by_us",
    "test_kernel_grows_our_list",
    "test_kernel_list_grown_by_us",
    "test_kernel_fills_our_dict",
    "test_our_dense_dict_in_kernel",
]


def test_reference_container_kernel_on_our_runtime(reference: Reference, runtime: Runtime,
                                                   tmp_path: Path) -> None:
    kernel = build_kernel(KERNELS_DIR / "ref_container_kernel.cc", tmp_path / "ref_container_kernel.so",
                          include_dir=reference.include_dir, link_dir=reference.lib_dir,
                          sanitized=runtime.sanitized)
    host = compile_c(runtime, [HOSTS_DIR / "run_containers_on_ours.c"], tmp_path / "run_containers_on_ours",
                     extra=["-ldl"])
    env = runtime.env()
    # By design (spec/ABI.md 4.3) a List buffer the kernel allocates with ::operator new is later
    # freed by our C data_deleter, free(); glibc allows it, ASan reports the pairing, so only that
    # one check is switched off here. Every other ASan/LSan check stays on.
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "alloc_dealloc_mismatch=0"]))
    output = run_program([host, runtime.library, kernel], env)
    for name in TESTS:
        assert f"ok {name}" in output, output
