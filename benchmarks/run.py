"""Side-by-side benchmarks of our `tvm_ffi` and the reference package (PyPI apache-tvm-ffi).

    python benchmarks/run.py [--quick] [--filter PATTERN] [--json out.json] [--self-test]

Run it with the interpreter whose environment holds our package (e.g. .venv/bin/python). It
installs the reference into build/refpkg on first use, starts two workers with the same
interpreter (one sees only ours, the other the reference first on its path), measures every case
in interleaved rounds and prints a markdown table. Benchmarks report; they never fail on a number.
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any

from cases import REF_RATIO_TARGET, Case, all_cases
from refpkg import REFPKG_DIR, install_reference, is_reference_module, ours_env, reference_env
from report import geomean_summary, markdown_table, per_argument_summary, self_test_summary, target_summary, to_json
from session import CaseResult, Session
from workerproc import WorkerProcess


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Compare call overheads of our tvm_ffi and the reference package.")
    parser.add_argument("--quick", action="store_true", help="3 rounds of >= 0.05 s (a smoke run, ~30 s)")
    parser.add_argument("--filter", metavar="PATTERN", help="only cases whose name matches this regular expression")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write every measurement as JSON here")
    parser.add_argument("--self-test", action="store_true",
                        help="run the reference in both workers: validates the harness (ratios should be ~1.00)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per case and worker (default 7, quick 3)")
    parser.add_argument("--min-time", type=float, help="seconds per round (default 0.2, quick 0.05)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter of both workers (default: this one); its environment must hold our package")
    parser.add_argument("--cpu", type=int, help="pin both workers to this CPU")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (3 if args.quick else 7)
    args.min_time = args.min_time or (0.05 if args.quick else 0.2)
    if args.rounds < 1 or args.min_time <= 0:
        parser.error("--rounds must be >= 1 and --min-time > 0")
    return args


def select_cases(pattern: str | None) -> list[Case]:
    """All cases, or those whose name matches `pattern` (re.search)."""
    cases = all_cases()
    if pattern is None:
        return cases
    regex = re.compile(pattern)
    return [case for case in cases if regex.search(case.name)]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def check_isolation(info: dict[str, dict[str, Any]], labels: list[str], self_test: bool) -> str | None:
    """An error message when a worker imported the wrong package (the comparison would be void)."""
    ours, ref = labels
    if not is_reference_module(info[ref].get("tvm_ffi")):
        return f"the {ref} worker did not import the reference from {REFPKG_DIR}: {info[ref]}"
    if self_test and not is_reference_module(info[ours].get("tvm_ffi")):
        return f"the {ours} worker did not import the reference from {REFPKG_DIR}: {info[ours]}"
    if not self_test and is_reference_module(info[ours].get("tvm_ffi")):
        return f"the {ours} worker imported the reference instead of our package: {info[ours]}"
    return None


def _describe_worker(label: str, info: dict[str, Any]) -> str:
    if "tvm_ffi" not in info:
        return f"- {label}: {info.get('error', 'unknown error')}"
    return f"- {label}: tvm_ffi {info.get('version')} from {info.get('tvm_ffi')} (runtime {info.get('libtvm_ffi')})"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cases = select_cases(args.filter)
    if args.list:
        print("\n".join(case.name for case in cases))
        return 0
    if not cases:
        print(f"no case matches {args.filter!r}", file=sys.stderr)
        return 2
    error = install_reference(python=args.python)
    if error is not None:
        print(f"cannot install the reference package into {REFPKG_DIR}:\n{error}", file=sys.stderr)
        return 1

    labels = ["ref-A", "ref-B"] if args.self_test else ["ours", "ref"]
    first_env = reference_env(os.environ) if args.self_test else ours_env(os.environ)
    workers = [WorkerProcess(labels[0], args.python, first_env, args.cpu),
               WorkerProcess(labels[1], args.python, reference_env(os.environ), args.cpu)]
    session = Session(workers, args.rounds, args.min_time)
    started = time.monotonic()
    try:
        info = session.hello()
        isolation_error = check_isolation(info, labels, args.self_test)
        if isolation_error is not None:
            print(isolation_error, file=sys.stderr)
            return 1
        print(f"measuring {len(cases)} cases: {args.rounds} interleaved rounds of >= {args.min_time:g} s "
              f"per case and worker", file=sys.stderr)
        results: list[CaseResult] = [session.run_case(case) for case in cases]
    finally:
        session.close()
    elapsed = time.monotonic() - started

    meta = {"python": info[labels[0]].get("python"), "executable": args.python, "cpu": _cpu_model(),
            "cpu_count": os.cpu_count(), "pinned_cpu": args.cpu, "rounds": args.rounds, "min_time_s": args.min_time,
            "self_test": args.self_test, "workers": info, "elapsed_s": round(elapsed, 1),
            "worker_restarts": {w.label: w.restarts for w in workers}}
    print(f"Python {meta['python']} on {meta['cpu']} ({meta['cpu_count']} CPUs); median of {args.rounds} "
          f"interleaved rounds of >= {args.min_time:g} s; ns per call including the loop; run took {elapsed:.0f} s.")
    for label in labels:
        print(_describe_worker(label, info[label]))
    print()
    print(markdown_table(results, labels, with_targets=not args.self_test))
    print()
    if args.self_test:
        print(self_test_summary(results, labels))
    else:
        print(f"Targets (ours/ref <= {REF_RATIO_TARGET:g} unless the target column says otherwise; "
              "listed floor targets):")
        print(target_summary(results, labels))
        print(geomean_summary(results, labels))
        extra = per_argument_summary(results, labels)
        if extra:
            print(extra)
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results, labels, meta), indent=2) + "\n")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
