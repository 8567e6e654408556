"""Refleak mode: ``pytest --refleak N`` runs every test function 2 + N times in a row and fails
it when the live FFI objects or CPython's allocated memory blocks grow on every one of the last
N runs (a leak per run; a one-time cache fills once and then stays flat).

The hooks are imported into tests/conftest.py. Tests that only work once (registering a global
name without removing it, for example) show up as failures in this mode too; it is a tool for
hunting leaks, not part of the normal run.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

import pytest

WARMUP_RUNS = 2


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--refleak", type=int, default=0, metavar="N",
                     help="run each test 2+N times and fail on steady growth of live FFI objects or memory blocks")


def _snapshot() -> tuple[int, int]:
    from leakcheck import live_objects  # noqa: PLC0415  (imports tvm_ffi lazily)

    gc.collect()
    return live_objects(), sys.getallocatedblocks()


def _grows_every_time(values: list[int]) -> bool:
    return all(later > earlier for earlier, later in zip(values, values[1:]))


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Any:
    runs = pyfuncitem.config.getoption("--refleak")
    if not runs:
        return None
    func = pyfuncitem.obj
    kwargs = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    samples = []
    for i in range(WARMUP_RUNS + runs):
        func(**kwargs)
        if i >= WARMUP_RUNS - 1:
            samples.append(_snapshot())
    objects = [s[0] for s in samples]
    blocks = [s[1] for s in samples]
    if _grows_every_time(objects):
        pytest.fail(f"refleak: live FFI objects grew on every run: {objects}")
    if _grows_every_time(blocks) and blocks[-1] - blocks[0] > 10 * runs:
        pytest.fail(f"refleak: allocated memory blocks grew on every run: {blocks}")
    return True
