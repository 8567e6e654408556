"""Map lookups and loops written with the C++ headers: ours vs the reference's, no Python involved.

    .venv/bin/python benchmarks/cpp_containers.py [--rounds N] [--ops N]

Builds kernels/container_ops.cc against both header sets, each program linked with our runtime
(the headers read and probe the map in place, so the runtime only builds it), and runs them in
alternating rounds; prints median nanoseconds per operation.
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
PROGRAM = HERE / "kernels" / "container_ops.cc"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ops", type=int, default=1_000_000)
    args = parser.parse_args()
    error = install_reference(REFPKG_DIR)
    if error is not None:
        print(f"cannot install the reference package: {error}", file=sys.stderr)
        return 1
    import tvm_ffi.libinfo

    libdir = Path(tvm_ffi.libinfo.find_libtvm_ffi()).parent
    dlpack = Path(tvm_ffi.libinfo.find_dlpack_include_path())
    cxx = os.environ.get("CXX", "c++")
    with tempfile.TemporaryDirectory() as tmp:
        programs = {}
        for side, include in (("ours", REPO_ROOT / "include"), ("reference", REFPKG_DIR / "tvm_ffi" / "include")):
            programs[side] = Path(tmp) / side
            subprocess.run([cxx, "-std=c++17", "-O2", f"-I{include}", f"-I{dlpack}", str(PROGRAM), "-o",
                            str(programs[side]), f"-L{libdir}", "-ltvm_ffi", f"-Wl,-rpath,{libdir}"], check=True)
        samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        cases: list[str] = []
        for round_index in range(args.rounds):
            order = ["ours", "reference"] if round_index % 2 == 0 else ["reference", "ours"]
            for side in order:
                out = subprocess.run([str(programs[side]), str(args.ops)], capture_output=True, text=True).stdout
                for line in out.splitlines():
                    case, nanos = line.rsplit(" ", 1)
                    if case not in cases:
                        cases.append(case)
                    samples[(side, case)].append(float(nanos))
    print_median_table(f"{args.rounds} rounds of {args.ops} operations, median ns per operation, our runtime",
                       "operation", cases, samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
