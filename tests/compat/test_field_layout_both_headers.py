"""kernels/field_layout_lib.cc registers one type with a field of every common C++ value type.
Built against OUR headers it must register exactly the layout the REFERENCE headers register:
each field's static type index, size, alignment and offset, and the object's total size. Both
runtimes copy and free fields by these numbers (a String registered as an object pointer, or an
Optional<Variant> one word too long, corrupts objects built by the other side's headers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import INCLUDE_DIR, Runtime

from .conftest import KERNELS_DIR, Reference, build_kernel, our_package_env

DUMP = """
import json, sys, tvm_ffi
tvm_ffi.load_module(sys.argv[1])
info = tvm_ffi.core._lookup_or_register_type_info_from_type_key("layout.Probe")
print(json.dumps([[f.name, f.field_static_type_index, f.size, f.alignment, f.offset] for f in info.fields]))
"""


def registered_layout(lib: Path) -> list[list[object]]:
    env = our_package_env()
    proc = subprocess.run([sys.executable, "-c", DUMP, str(lib)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_our_headers_register_the_reference_field_layout(reference: Reference, plain_runtime: Runtime,
                                                         tmp_path: Path) -> None:
    for side in ("ours", "ref"):
        (tmp_path / side).mkdir()
    ours = build_kernel(KERNELS_DIR / "field_layout_lib.cc", tmp_path / "ours" / "liblayout.so",
                        include_dir=INCLUDE_DIR, link_dir=plain_runtime.libdir)
    ref = build_kernel(KERNELS_DIR / "field_layout_lib.cc", tmp_path / "ref" / "liblayout.so",
                       include_dir=reference.include_dir, link_dir=reference.lib_dir)
    ours_layout, ref_layout = registered_layout(ours), registered_layout(ref)
    assert len(ref_layout) == 37
    differences = [(a, b) for a, b in zip(ours_layout, ref_layout) if a != b]
    assert not differences, differences
    by_name = {row[0]: row for row in ref_layout}
    assert by_name["str"][1:3] == [-1, 16] and by_name["opt_variant"][2] == 16  # the cases that differed
