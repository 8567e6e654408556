"""tvm-ffi-stubgen on an extension built with the REFERENCE's C++ headers (kernels/ref_reflect_lib.cc):
the library is loaded with ``--dlls`` and its refl::ObjectDef types become typed class bodies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import KERNELS_DIR, Reference, build_kernel

PACKAGE_SOURCE = '''\
"""Classes of the demo extension."""

# tvm-ffi-stubgen(begin): import-section
# tvm-ffi-stubgen(end)
import tvm_ffi


@tvm_ffi.register_object("demo.Grammar")
class Grammar(tvm_ffi.Object):
    """A grammar."""

    # tvm-ffi-stubgen(begin): object/demo.Grammar
    # tvm-ffi-stubgen(end)


@tvm_ffi.register_object("demo.TokenizerInfo")
class TokenizerInfo(tvm_ffi.Object):
    """Tokenizer facts."""

    # tvm-ffi-stubgen(begin): object/demo.TokenizerInfo
    # tvm-ffi-stubgen(end)


@tvm_ffi.register_object("demo.Config")
class Config(tvm_ffi.Object):
    """Settings with defaults."""

    # tvm-ffi-stubgen(begin): object/demo.Config
    # tvm-ffi-stubgen(end)


# tvm-ffi-stubgen(begin): __all__
# tvm-ffi-stubgen(end)
'''


@pytest.fixture(scope="module")
def library(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stubgen_ref_lib")
    path = out / "libdemo_reflect.so"
    build_kernel(KERNELS_DIR / "ref_reflect_lib.cc", path,
                 include_dir=reference.include_dir, link_dir=reference.lib_dir)
    return path


def _stubgen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tvm_ffi.stub", *args], capture_output=True, text=True,
                          timeout=300)


def test_stubgen_types_a_reference_built_extension(library: Path, tmp_path: Path) -> None:
    package = tmp_path / "demo_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    classes = package / "classes.py"
    classes.write_text(PACKAGE_SOURCE)

    proc = _stubgen("--dlls", str(library), str(package))
    assert proc.returncode == 0, proc.stderr
    text = classes.read_text()
    assert "    root: str\n    num_rules: int\n    if TYPE_CHECKING:\n" in text
    assert "        @staticmethod\n        def from_ebnf(_0: str, _1: int, /) -> Grammar: ...\n" in text
    assert "        def to_string(self, /) -> str: ...\n" in text
    assert "    vocab: Array[str]\n" in text
    assert "        def __init__(self, _0: Sequence[str], _1: bool, /) -> None: ...\n" in text
    assert "        def token_id(self, _1: str, /) -> int: ...\n" in text
    assert ("        def __init__(self, name: str, depth: int = ..., temperature: float = ..., "
            "grammar: Grammar | None = ...) -> None: ...\n") in text
    assert "    from tvm_ffi import Array\n" in text and "import Grammar" not in text  # defined here
    assert '__all__ = [\n    "Config",\n    "Grammar",\n    "TokenizerInfo",\n]' in text

    # Without the library the types are unknown; with it the generated file is up to date.
    assert _stubgen("--check", "--dlls", str(library), str(package)).returncode == 0
    missing = _stubgen("--check", str(package))
    assert missing.returncode == 2 and "object type 'demo.Grammar' is not registered" in missing.stderr
