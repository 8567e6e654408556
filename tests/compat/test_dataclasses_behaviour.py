"""tvm_ffi.dataclasses behaves as the reference's, table by table (DATACLASSES.md): the type
converter's outcome for every measured (declared type, value) row on assignment and through
TypeSchema.convert (scripts/dataclass_conversions.py), the bad-usage errors with their
exact messages (scripts/dataclass_errors.py), and generated signatures, repr, comparison,
hash, copy and pickle (scripts/dataclass_dunders.py). Each script prints one outcome per row; the rows
must agree, except the few listed below with the reason they differ."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import COMPAT_DIR, Reference, our_package_env

# Rows where we deliberately differ from the reference.
DIFFERENT_ON_PURPOSE = {
    # The reference segfaults reading a field of an object without a handle (DATACLASSES.md 8);
    # the script runs the row only under our package.
    "NULL handle field read",
    # The reference lists no names here for a quoted annotation; ours names the unresolved one.
    "10 unresolved forward ref",
    # Ours prints the duplicate-field warning through Python's stderr (captured), the
    # reference's C++ through the process's stderr: the same text either way.
    "24 re-declared parent field",
}


def observe(script: str, env: dict[str, str], cwd: Path) -> dict[str, str]:
    proc = subprocess.run([sys.executable, str(COMPAT_DIR / "scripts" / script)], capture_output=True,
                          text=True, env=env, cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


# The dunders script annotates fields `X | None`, which the reference's py_class evaluates with
# typing.get_type_hints: a TypeError before Python 3.10 (ours reads them on 3.9 too).
_NEEDS_310 = pytest.mark.skipif(sys.version_info < (3, 10), reason="the reference cannot read `X | None` before 3.10")


@pytest.mark.parametrize("script", ["dataclass_conversions.py", "dataclass_errors.py",
                                    pytest.param("dataclass_dunders.py", marks=_NEEDS_310)])
def test_rows_match_the_reference(script: str, reference: Reference, tmp_path: Path) -> None:
    ours_env = our_package_env()
    ours, ref = observe(script, ours_env, tmp_path), observe(script, reference.env(), tmp_path)
    rows = (set(ours) | set(ref)) - DIFFERENT_ON_PURPOSE
    differences = {row: {"ours": ours.get(row), "reference": ref.get(row)} for row in sorted(rows)
                   if ours.get(row) != ref.get(row)}
    assert not differences, json.dumps(differences, indent=1)
    if script == "dataclass_errors.py":  # a clear error where the reference crashes
        assert ours["NULL handle field read"].startswith("ValueError: field `x` of a `Point` that holds no object")
