"""Compile time of a one-function typed kernel: our C++ headers against the reference's.

    .venv/bin/python benchmarks/compile_time.py [--rounds N] [--json PATH]

Runs `c++ -std=c++17 -O2 -fsyntax-only` (front end only) and a full `-O2 -fPIC -shared` build of
benchmarks/kernels/one_function_kernel.cc, alternating the two header sets round by round, and
prints the median wall time of each, the ratio ours/reference and the preprocessed line counts.
The reference headers come from build/refpkg (installed on first use, as for the other benchmarks).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from refpkg import REFPKG_DIR, REPO_ROOT, install_reference

KERNEL = Path(__file__).resolve().parent / "kernels" / "one_function_kernel.cc"
OUR_INCLUDE = REPO_ROOT / "include"
MODES = {
    "syntax-only": ["-O2", "-fsyntax-only"],
    "full build": ["-O2", "-fPIC", "-shared"],
}


def compiler() -> str:
    return os.environ.get("CXX", "c++")


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def preprocessed_lines(include: Path) -> int:
    out = subprocess.run([compiler(), "-std=c++17", "-E", f"-I{include}", str(KERNEL)], check=True,
                         capture_output=True, text=True).stdout
    return out.count("\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="builds per mode and header set")
    parser.add_argument("--json", type=Path, help="also write every measurement here")
    args = parser.parse_args()
    error = install_reference(REFPKG_DIR)
    if error is not None:
        print(f"cannot install the reference package: {error}", file=sys.stderr)
        return 1
    includes = {"ours": OUR_INCLUDE, "reference": REFPKG_DIR / "tvm_ffi" / "include"}
    results: dict[str, dict[str, list[float]]] = {mode: {"ours": [], "reference": []} for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for mode, flags in MODES.items():
            for round_index in range(args.rounds):
                # Alternate the order so slow drifts of a shared machine hit both sides alike.
                order = ["ours", "reference"] if round_index % 2 == 0 else ["reference", "ours"]
                for side in order:
                    out = Path(tmp) / f"{side}.so"
                    cmd = [compiler(), "-std=c++17", *flags, f"-I{includes[side]}", str(KERNEL)]
                    if "-fsyntax-only" not in flags:
                        cmd += ["-o", str(out)]
                    results[mode][side].append(timed(cmd))
    lines = {side: preprocessed_lines(include) for side, include in includes.items()}
    version = subprocess.run([compiler(), "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"compiler: {version}")
    print(f"kernel: {KERNEL.relative_to(REPO_ROOT)}, {args.rounds} rounds, median seconds\n")
    print("| mode | ours | reference | ours / reference |")
    print("|---|---|---|---|")
    for mode in MODES:
        ours = statistics.median(results[mode]["ours"])
        ref = statistics.median(results[mode]["reference"])
        print(f"| {mode} | {ours:.2f} s | {ref:.2f} s | {ours / ref:.2f}x |")
    print(f"| preprocessed lines | {lines['ours']} | {lines['reference']} | "
          f"{lines['ours'] / lines['reference']:.2f}x |")
    if args.json:
        args.json.write_text(json.dumps({"seconds": results, "preprocessed_lines": lines}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
