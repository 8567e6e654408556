"""The ``>>>`` examples in the package's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from typing import Any

import pytest
import tvm_ffi

# A module that runs a command line when imported, and tvm_ffi.core (the same module as _core).
_SKIPPED_MODULES = {"tvm_ffi.stub.__main__", "tvm_ffi.core"}


def _module_names() -> list[str]:
    names = ["tvm_ffi"]
    for info in pkgutil.walk_packages(tvm_ffi.__path__, "tvm_ffi."):
        if info.name not in _SKIPPED_MODULES:
            names.append(info.name)
    return sorted(names)


def _globs() -> dict[str, Any]:
    globs: dict[str, Any] = {"tvm_ffi": tvm_ffi}
    try:
        import numpy

        globs["numpy"] = globs["np"] = numpy
    except ImportError:  # the examples that use NumPy fail visibly below
        pass
    return globs


def _doctests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = []
    for name in _module_names():
        module = importlib.import_module(name)
        found += [t for t in finder.find(module, name, globs=_globs()) if t.examples]
    return found


_DOCTESTS = _doctests()


def test_the_package_has_examples() -> None:
    names = {t.name for t in _DOCTESTS}
    for expected in ("tvm_ffi.container.Array", "tvm_ffi.registry.get_global_func", "tvm_ffi._device.device",
                     "tvm_ffi._core.from_dlpack", "tvm_ffi._core.Tensor"):
        assert expected in names


@pytest.mark.parametrize("test", _DOCTESTS, ids=[t.name for t in _DOCTESTS])
def test_docstring_examples(test: doctest.DocTest) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    result = runner.run(test, out=report.append, clear_globs=True)
    assert result.failed == 0, "".join(report)
