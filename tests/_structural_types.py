"""The reflected test types of tests/c/plugins/structural_types_lib.c, loaded into this process.

``st_make(type_key, *fields)`` builds an instance; see the C file for the types, their
structural kinds and field flags.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import pytest
from conftest import C_TEST_DIR, compile_c

SOURCE = C_TEST_DIR / "plugins" / "structural_types_lib.c"
_LOADED: list[ctypes.CDLL] = []


def load_structural_types(runtime: Any, out_dir: Path) -> None:
    """Compiles and loads the library once per process (types register at load time)."""
    if _LOADED:
        return
    library = compile_c(runtime, [SOURCE], out_dir / "structural_types_lib.so", shared=True)
    _LOADED.append(ctypes.CDLL(str(library), mode=ctypes.RTLD_GLOBAL))


@pytest.fixture(scope="session", name="st_make")
def st_make_fixture(plain_runtime: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``st.make``: constructs any of the test types."""
    import tvm_ffi

    load_structural_types(plain_runtime, tmp_path_factory.mktemp("st_types"))
    return tvm_ffi.get_global_func("st.make")
