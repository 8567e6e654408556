"""Builds examples/quickstart with its build script, runs run.py, checks what it prints.

The example is a C kernel add_one(x, y) compiled with tvm-ffi-config's flags and called from
Python with NumPy arrays, torch tensors (when installed) and tvm_ffi.Tensor.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tvm_ffi
from conftest import REPO_ROOT, c_compiler, run_checked, scripts_on_path
from leakcheck import no_ffi_leaks  # noqa: F401

EXAMPLE_DIR = REPO_ROOT / "examples" / "quickstart"
TORCH_SKIPPED_LINE = "torch:   skipped (torch is not installed)"
# Runs run.py as a script with `import torch` failing, as on a machine without torch.
WITHOUT_TORCH = ("import runpy, sys; sys.modules['torch'] = None; sys.argv = sys.argv[1:]; "
                 "runpy.run_path(sys.argv[0], run_name='__main__')")


def user_env() -> dict[str, str]:
    """What a user of the installed package has: its console scripts (tvm-ffi-config) on PATH."""
    env = scripts_on_path()
    env.pop("LD_LIBRARY_PATH", None)  # the kernel binds to the runtime that `import tvm_ffi` loaded
    return env


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the example, built with build.sh (nothing is written into the repository)."""
    if shutil.which(c_compiler()) is None:
        pytest.skip(f"no C compiler ({c_compiler()})")
    copy = Path(shutil.copytree(EXAMPLE_DIR, tmp_path_factory.mktemp("quickstart") / "quickstart",
                                ignore=shutil.ignore_patterns("build")))
    proc = run_checked(["bash", str(copy / "build.sh")], env=user_env())
    assert proc.stdout.strip() == "built build/add_one.so"
    assert "warning" not in proc.stderr.lower(), proc.stderr
    return copy


def run_example(example: Path, *, hide_torch: bool = False) -> list[str]:
    script = str(example / "run.py")
    cmd = [sys.executable, "-c", WITHOUT_TORCH, script] if hide_torch else [sys.executable, script]
    return run_checked(cmd, env=user_env(), cwd=str(example)).stdout.splitlines()


def readme_output() -> list[str]:
    """The output block of the example's README."""
    readme = (EXAMPLE_DIR / "README.md").read_text()
    block = re.search(r"Output:\n\n```\n(.*?)```", readme, flags=re.S)
    assert block, "the README has no Output: block"
    return block.group(1).splitlines()


def numbers(text: str) -> list[float]:
    return [float(v) for v in text.split(", ")]


def check_add_one_line(line: str, label: str) -> None:
    """A result line `<label>: x = [...] -> y = [...]` whose y really is x + 1."""
    match = re.match(rf"{label}:\s+x = \[(.*?)\] -> y = \[(.*?)\]", line)
    assert match, line
    x, y = numbers(match.group(1)), numbers(match.group(2))
    assert len(x) > 0 and y == [v + 1 for v in x], line


def test_run_prints_every_framework(example: Path) -> None:
    lines = run_example(example)
    assert [line.split(":")[0] for line in lines] == ["numpy", "torch", "tvm_ffi", "error"]
    check_add_one_line(lines[0], "numpy")
    check_add_one_line(lines[2], "tvm_ffi")
    assert lines[2].endswith("(Tensor float32 (4,), shares y_np's memory: True)")
    assert lines[3] == "error:   TypeError: add_one(x, y): x and y must be 1-D float32 CPU tensors"
    try:
        import torch  # noqa: F401
    except ImportError:
        assert lines[1] == TORCH_SKIPPED_LINE
    else:
        check_add_one_line(lines[1], "torch")
        assert lines == readme_output()  # the README shows the real output


def test_run_without_torch_says_so(example: Path) -> None:
    lines = run_example(example, hide_torch=True)
    assert lines[1] == TORCH_SKIPPED_LINE
    assert lines[0] == readme_output()[0] and lines[2:] == readme_output()[2:]


def test_default_library_path_and_explicit_path_agree(example: Path) -> None:
    explicit = run_checked([sys.executable, str(example / "run.py"), str(example / "build" / "add_one.so")],
                           env=user_env(), cwd="/")
    assert explicit.stdout.splitlines() == run_example(example)


@pytest.fixture(scope="module")
def add_one(example: Path) -> Any:
    func = tvm_ffi.load_module(str(example / "build" / "add_one.so")).add_one
    yield func
    del func


def test_kernel_handles_strides_and_offsets(add_one: Any) -> None:
    x = np.arange(12, dtype=np.float32)[2::3]  # byte offset into the buffer and stride 3
    y = np.zeros(8, dtype=np.float32)
    add_one(x, y[::2])
    np.testing.assert_array_equal(y[::2], x + 1)
    np.testing.assert_array_equal(y[1::2], 0)  # the gaps are untouched


def test_kernel_errors(add_one: Any) -> None:
    with pytest.raises(ValueError, match=r"lengths differ \(3 vs 2\)"):
        add_one(np.zeros(3, dtype=np.float32), np.zeros(2, dtype=np.float32))
    with pytest.raises(TypeError, match="must be tensors"):
        add_one(np.zeros(3, dtype=np.float32), 1.0)
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        add_one(np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="1-D float32"):
        add_one(np.zeros((1, 3), dtype=np.float32), np.zeros(3, dtype=np.float32))
