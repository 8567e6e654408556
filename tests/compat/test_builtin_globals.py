"""The runtime's built-in `ffi.*` functions carry the reference's type schemas (metadata) and
name the reference's signatures in argument errors (scripts/builtin_globals.py, both packages)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import COMPAT_DIR, Reference, our_package_env

SCRIPT = COMPAT_DIR / "scripts" / "builtin_globals.py"


def observe(env: dict[str, str], cwd: Path) -> dict[str, dict[str, object]]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_builtin_globals_match_the_reference(reference: Reference, tmp_path: Path) -> None:
    ours, ref = observe(our_package_env(), tmp_path), observe(reference.env(), tmp_path)
    assert set(ref) <= set(ours), sorted(set(ref) - set(ours))
    metadata = {name: (ours[name]["metadata"], ref[name]["metadata"]) for name in ref
                if ours[name]["metadata"] != ref[name]["metadata"]}
    assert not metadata, json.dumps(metadata, indent=1)
    # Ours takes a trailing optional argument in a few (query_imports, format): the count then
    # reads "Expected 2 to 3", but the signature named is the reference's.
    signatures = {name: (ours[name]["signature"], ref[name]["signature"]) for name in ref
                  if ref[name]["signature"] is not None and ours[name]["signature"] != ref[name]["signature"]}
    assert not signatures, json.dumps(signatures, indent=1)
