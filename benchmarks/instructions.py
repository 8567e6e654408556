"""Instructions per execution of benchmark cases, counted by callgrind, ours next to the reference.

    python benchmarks/instructions.py [--filter PATTERN] [--loops N] [--keep DIR] [--ours-only]

Times on a shared machine move with its load; instruction counts do not. For every case (and
the floor) this runs the case's timing function (the code the timing workers of run.py run)
once under `valgrind --tool=callgrind` in each package's environment (the workers'
environments). The timing function reads `time.perf_counter_ns` right before and right after its
loop; callgrind is told to dump its counts on each entry of that function. The runner first
runs the statement once (a warm-up, as the timing workers' calibration is: costs paid once per
thread or process, such as a thread's first callback reading its stack bounds, stay out), then
the counted loop, so the fourth dump holds that loop and nothing else: start-up, imports and
setup stay out. Its total divided by the loop count is what one execution of the statement
costs, loop included. `--keep DIR` keeps the callgrind files (`<label>.<case>.out.4` is the
loop) for `callgrind_annotate`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from cases import FLOOR, Case, all_cases
from refpkg import install_reference, ours_env, reference_env

_BENCH_DIR = Path(__file__).resolve().parent

# Runs one case's timing function once (warm-up), then `argv[2]` times.
_RUNNER = """\
import sys
sys.path.insert(0, sys.argv[1])
from cases import find_case
from worker import compile_case
bench = compile_case(find_case(sys.argv[3]))
bench(1)
bench(int(sys.argv[2]))
"""
# Dumps are numbered from 1 at each entry of time.perf_counter_ns: the warm-up's start (.1) and
# end (.2), the counted loop's start (.3) and end (.4, the loop alone).
_LOOP_DUMP = ".4"

# CPython's C function behind time.perf_counter_ns, which brackets the timed loop.
_LOOP_MARK = "time_perf_counter_ns"
_TOTALS = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


def per_execution(python: str, env: dict[str, str], case: Case, loops: int, workdir: Path,
                  label: str) -> float:
    """Instructions of one execution of the case's statement (loop included)."""
    stem = re.sub(r"[^A-Za-z0-9]+", "_", case.name).strip("_")
    out = workdir / f"{label}.{stem}.out"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--dump-before={_LOOP_MARK}",
           python, "-c", _RUNNER, str(_BENCH_DIR), str(loops), case.name]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{case.name}: callgrind run failed:\n{proc.stderr[-2000:]}")
    loop_dump = out.with_name(out.name + _LOOP_DUMP)
    if not loop_dump.exists():
        raise RuntimeError(f"{case.name}: callgrind wrote no dump of the loop ({loop_dump})")
    match = _TOTALS.search(loop_dump.read_text())
    if match is None:
        raise RuntimeError(f"{case.name}: no totals in {loop_dump}")
    return int(match.group(1)) / loops


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="callgrind instruction counts per benchmark case")
    parser.add_argument("--filter", metavar="PATTERN", help="cases whose name matches this regular expression")
    parser.add_argument("--loops", type=int, default=2000, help="loop iterations counted (default 2000)")
    parser.add_argument("--python", default=sys.executable, help="interpreter (default: this one)")
    parser.add_argument("--keep", metavar="DIR", type=Path, help="keep the callgrind output files here")
    parser.add_argument("--ours-only", action="store_true", help="skip the reference")
    parser.add_argument("--ref-only", action="store_true", help="skip our package")
    args = parser.parse_args(argv)
    cases = [FLOOR, *(c for c in all_cases() if args.filter is None or re.search(args.filter, c.name))]
    envs = {} if args.ref_only else {"ours": ours_env(os.environ)}
    if not args.ours_only:
        error = install_reference(python=args.python)
        if error is not None:
            print(f"cannot install the reference package: {error}", file=sys.stderr)
            return 1
        envs["ref"] = reference_env(os.environ)
    for env in envs.values():
        env["PYTHONHASHSEED"] = "0"  # the same dict layouts on every run
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        both = len(envs) == 2
        print("| case | " + " | ".join(f"{label} instr" for label in envs) + (" | ours/ref |" if both else " |"))
        print("|---|" + "---:|" * (len(envs) + both))
        for case in cases:
            counts = {label: per_execution(args.python, env, case, args.loops, workdir, label)
                      for label, env in envs.items()}
            cells = [f"{counts[label]:,.0f}" for label in envs]
            if both:
                cells.append(f"{counts['ours'] / counts['ref']:.2f}" if counts["ref"] > 0 else "n/a")
            print(f"| {case.name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
