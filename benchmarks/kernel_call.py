"""Per-call cost of an exported typed function: kernels built with our headers vs the reference's.

    .venv/bin/python benchmarks/kernel_call.py [--rounds N] [--calls N]

Builds tests/compat/kernels/ref_cpp_kernel.cc (square(int), shout(str), add_one(x, y)) against both
header sets and times their `__tvm_ffi_*` symbols from a C++ host (kernels/call_host.cc) served
by our runtime: no Python in the loop, so the numbers are the unpacking, result packing and error
plumbing the headers generate. Rounds alternate the two libraries; medians are printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from median_table import print_median_table
from refpkg import REFPKG_DIR, REPO_ROOT, install_reference

HERE = Path(__file__).resolve().parent
KERNEL = REPO_ROOT / "tests" / "compat" / "kernels" / "ref_cpp_kernel.cc"
CASES = ("square", "shout", "add_one")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2_000_000)
    args = parser.parse_args()
    error = install_reference(REFPKG_DIR)
    if error is not None:
        print(f"cannot install the reference package: {error}", file=sys.stderr)
        return 1
    import tvm_ffi.libinfo

    libdir = Path(tvm_ffi.libinfo.find_libtvm_ffi()).parent
    cxx = os.environ.get("CXX", "c++")
    with tempfile.TemporaryDirectory() as tmp:
        libs = {}
        for side, include in (("ours", REPO_ROOT / "include"), ("reference", REFPKG_DIR / "tvm_ffi" / "include")):
            libs[side] = Path(tmp) / f"{side}.so"
            subprocess.run([cxx, "-std=c++17", "-O2", "-fPIC", "-shared", f"-I{include}", str(KERNEL),
                            "-o", str(libs[side]), f"-L{libdir}", "-ltvm_ffi"], check=True)
        host = Path(tmp) / "call_host"
        subprocess.run([cxx, "-std=c++17", "-O2", f"-I{REPO_ROOT / 'include'}", str(HERE / "kernels" / "call_host.cc"),
                        "-o", str(host), "-ldl"], check=True)
        env = dict(os.environ, LD_LIBRARY_PATH=str(libdir))
        samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        for round_index in range(args.rounds):
            order = ["ours", "reference"] if round_index % 2 == 0 else ["reference", "ours"]
            out = subprocess.run([str(host), str(args.calls), *(str(libs[s]) for s in order)], check=True,
                                 capture_output=True, text=True, env=env).stdout
            for line in out.splitlines():
                path, case, nanos = line.split()
                side = next(s for s in libs if str(libs[s]) == path)
                samples[(side, case)].append(float(nanos))
    print_median_table(f"{args.rounds} rounds of {args.calls} calls, median ns per call, our runtime", "function",
                       CASES, samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
