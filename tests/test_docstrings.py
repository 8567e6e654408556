"""Every public name of every public module has a numpy-style docstring.

The rule, for each public name (a module's ``__all__``, else the names not starting with ``_``
that the module defines itself; plus the names ABI.md section 9 lists), checked once, in the
module that defines it when that module is public:

- the docstring exists and opens with a one-line summary (not a section header);
- a function or method that takes parameters (other than ``self``/``cls``) has a ``Parameters``
  section naming each of them (``*args``/``**kwargs`` may be written with or without stars);
- a function or method whose annotated return type is not ``None`` has a ``Returns`` (or
  ``Yields``) section; C functions take their annotations from ``_core.pyi``;
- a class has a summary, and its public methods and properties (those its own body defines,
  not dunders) follow the rules above; a class whose own Python ``__init__`` takes parameters
  documents them in the class or ``__init__`` docstring.

Constants (ints, strings, dtype instances, ...) carry no docstring of their own and are skipped.
Names other sessions add later are covered as soon as they are public: the walk is over modules.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import inspect
import pkgutil
import re
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi

# Names ABI.md section 9 lists that are public though not in their module's __all__.
_ABI_EXTRA_NAMES = {
    "tvm_ffi": ["CAny", "CContainerBase"],
    "tvm_ffi.config": ["__main__"],
    "tvm_ffi.stub.cli": ["__main__"],
    # tvm_ffi.core is _core under the reference's name; these are the names code uses from it.
    "tvm_ffi.core": ["Object", "Function", "Tensor", "Device", "DataType", "String", "Bytes", "Error",
                     "from_dlpack", "TypeInfo", "TypeField", "TypeMethod", "TypeSchema",
                     "MapBase", "SeqBase", "OpaquePyObject", "ObjectRValueRef"],
}
_SECTION = re.compile(r"^\s*(\w+(?: \w+)?)\n\s*-{3,}\s*$", re.MULTILINE)
_PARAM_LINE = re.compile(r"^(\*{0,2}\w+(?:[ \t]*,[ \t]*\*{0,2}\w+)*)[ \t]*(?::|$)", re.MULTILINE)
_CORE_STUB = Path(tvm_ffi.__file__).parent / "_core.pyi"


def public_modules() -> list[str]:
    """``tvm_ffi`` and each submodule whose dotted path has no ``_``-prefixed part."""
    names = ["tvm_ffi"]
    for info in pkgutil.walk_packages(tvm_ffi.__path__, "tvm_ffi."):
        parts = info.name.split(".")[1:]
        if not any(p.startswith("_") for p in parts):
            names.append(info.name)
    return sorted(names)


def _public_names(module: types.ModuleType) -> list[str]:
    if module.__name__ == "tvm_ffi._core":
        return list(_ABI_EXTRA_NAMES["tvm_ffi.core"])
    if hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and getattr(v, "__module__", "") == module.__name__]
    return names + [n for n in _ABI_EXTRA_NAMES.get(module.__name__, []) if hasattr(module, n) and n not in names]


def _core_stub_signatures() -> dict[str, ast.FunctionDef]:
    """``name`` / ``Class.name`` -> its declaration in ``_core.pyi`` (C code has no annotations)."""
    tree = ast.parse(_CORE_STUB.read_text())
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found.setdefault(f"{node.name}.{item.name}", item)
    return found


_STUBS = _core_stub_signatures()
_PUBLIC_MODULES = set(public_modules())


def sections(doc: str) -> dict[str, str]:
    """Section title -> body of a numpy-style docstring."""
    found: dict[str, str] = {}
    matches = list(_SECTION.finditer(doc))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(doc)
        found[match.group(1)] = doc[match.end():end]
    return found


def documented_params(body: str) -> set[str]:
    """The parameter names a ``Parameters`` section documents (``a, b : int`` names two)."""
    names: set[str] = set()
    for match in _PARAM_LINE.finditer(inspect.cleandoc("\n" + body) if body.strip() else ""):
        names.update(n.strip().lstrip("*") for n in match.group(1).split(","))
    return names


def _stub_params_and_return(qualname: str) -> tuple[list[str], bool] | None:
    node = _STUBS.get(qualname)
    if node is None:
        return None
    args = node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    is_method = "." in qualname and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if is_method and params:
        params = params[1:]
    returns = node.returns is not None and not (isinstance(node.returns, ast.Constant)
                                                 and node.returns.value is None)
    if node.name == "__init__":
        returns = False
    return [p for p in params if not p.startswith("_")], returns


def _signature_params_and_return(func: Callable[..., Any], is_method: bool) -> tuple[list[str], bool] | None:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if is_method and params and params[0].name in ("self", "cls"):
        params = params[1:]
    annotation = sig.return_annotation
    returns = annotation not in (None, "None", inspect.Signature.empty, "NoReturn", "Never")
    if getattr(func, "__name__", "") == "__init__":
        returns = False
    return [p.name for p in params if not p.name.startswith("_")], returns


def check_callable(func: Callable[..., Any], qualname: str, is_method: bool) -> list[str]:
    """Problems with the docstring of one function or method (empty when it follows the rule)."""
    doc = inspect.getdoc(func)
    problems = _check_summary(doc)
    if problems or doc is None:
        return problems
    shape = _signature_params_and_return(func, is_method)
    if shape is None or (not shape[0] and not shape[1] and qualname in _STUBS):
        shape = _stub_params_and_return(qualname) or shape
    if shape is None:
        return ["no signature to check the docstring against"]
    params, returns = shape
    found = sections(doc)
    if params:
        if "Parameters" not in found and "Other Parameters" not in found:
            problems.append(f"no Parameters section (takes {', '.join(params)})")
        else:
            named = documented_params(found.get("Parameters", "") + "\n" + found.get("Other Parameters", ""))
            missing = [p for p in params if p not in named]
            if missing:
                problems.append(f"Parameters section does not name {', '.join(missing)}")
    if returns and "Returns" not in found and "Yields" not in found:
        problems.append("no Returns section")
    return problems


def _check_summary(doc: str | None) -> list[str]:
    if not doc or not doc.strip():
        return ["no docstring"]
    first = doc.strip().splitlines()[0]
    if _SECTION.match(doc.strip()) or first.strip("- ") == "":
        return ["the docstring does not open with a summary line"]
    return []


def _member_function(cls: type, name: str, raw: Any) -> Callable[..., Any] | None:
    if isinstance(raw, (staticmethod, classmethod)):
        return getattr(cls, name)  # type: ignore[no-any-return]
    if isinstance(raw, (types.FunctionType, types.MethodDescriptorType, types.BuiltinFunctionType,
                        types.ClassMethodDescriptorType)):
        return raw  # type: ignore[no-any-return]
    return None


def _is_reflected_member(raw: Any) -> bool:
    """Fields and methods that reflection installs document themselves from the library's metadata."""
    if type(raw).__module__ in ("tvm_ffi._core", "tvm_ffi.core") and type(raw).__name__ in (
            "FFIProperty", "InstanceMethod"):
        return True
    func = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
    return getattr(func, "_tvm_ffi_generated", False) is True


def check_class(cls: type, qualname: str) -> Iterator[tuple[str, str]]:
    """(name, problem) for the class and each public member its body defines."""
    for problem in _check_summary(inspect.getdoc(cls) if cls.__doc__ else None):
        yield qualname, problem
    own_init = vars(cls).get("__init__")
    if isinstance(own_init, types.FunctionType) and cls.__doc__:
        shape = _signature_params_and_return(own_init, True)
        params = shape[0] if shape else []
        docs = (cls.__doc__ or "") + "\n" + (own_init.__doc__ or "")
        found = sections(inspect.cleandoc(cls.__doc__ or "")) | sections(inspect.cleandoc(own_init.__doc__ or ""))
        # A dataclass documents its fields (the constructor's parameters) as Attributes.
        listing = "Attributes" if dataclasses.is_dataclass(cls) and "Parameters" not in found else "Parameters"
        named = documented_params(found.get(listing, "") + "\n" + found.get("Other Parameters", ""))
        # A pass-through ``*args, **kwargs`` constructor has nothing of its own to document.
        variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        params = [p for p in params if inspect.signature(own_init).parameters[p].kind not in variadic]
        if params and not docs.strip():
            yield qualname, "no docstring"
        elif params and listing not in found:
            yield qualname, f"no Parameters section for the constructor (takes {', '.join(params)})"
        elif [p for p in params if p not in named]:
            yield qualname, f"constructor Parameters do not name {', '.join(p for p in params if p not in named)}"
    if issubclass(cls, enum.Enum):
        return  # members are values, and the methods come from the enum module
    class_sections = sections(inspect.getdoc(cls) or "")
    attributes = documented_params(class_sections.get("Attributes", "") + "\n" + class_sections.get("Parameters", ""))
    for name, raw in sorted(vars(cls).items()):
        if name.startswith("_"):
            continue
        member = f"{qualname}.{name}"
        if isinstance(raw, types.MemberDescriptorType):  # a __slots__ entry: listed under Attributes
            if name not in attributes and not inspect.getdoc(raw):
                yield member, "neither its own docstring nor an entry in the class's Attributes/Parameters"
            continue
        if _is_reflected_member(raw):
            continue
        if isinstance(raw, (property, types.GetSetDescriptorType)):
            for problem in _check_summary(inspect.getdoc(raw)):
                yield member, problem
            continue
        func = _member_function(cls, name, raw)
        if func is not None:
            stub_name = f"{cls.__name__}.{name}"
            for problem in check_callable(func, stub_name if stub_name in _STUBS else member,
                                          not isinstance(raw, staticmethod)):
                yield member, problem


def _defined_in_package(obj: Any) -> bool:
    return str(getattr(obj, "__module__", "") or "").startswith("tvm_ffi")


def _public_module_name(name: str) -> str:
    return "tvm_ffi.core" if name == "tvm_ffi._core" else name  # C types say either


def _checked_at_home(obj: Any, module: types.ModuleType) -> bool:
    """Whether ``obj`` is a re-export of a name another public module exports (checked there)."""
    home, here = (_public_module_name(name) for name in (getattr(obj, "__module__", ""), module.__name__))
    if home == here or home not in _PUBLIC_MODULES:
        return False
    return getattr(obj, "__name__", None) in _public_names(importlib.import_module(home))


def problems_of_module(module_name: str) -> Iterator[tuple[str, str]]:
    """(qualified name, problem) for each public name of ``module_name`` that breaks the rule."""
    module = importlib.import_module(module_name)
    for problem in _check_summary(module.__doc__):
        yield module_name, problem
    for name in _public_names(module):
        obj = getattr(module, name, None)
        qualname = f"{module_name}.{name}"
        if isinstance(obj, types.ModuleType) or not _defined_in_package(obj) or _checked_at_home(obj, module):
            continue  # submodules are walked on their own; re-exports of other packages
        if isinstance(obj, type):
            yield from check_class(obj, qualname)
        elif callable(obj) and isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
            for problem in check_callable(obj, name if name in _STUBS else qualname, False):
                yield qualname, problem


def all_problems() -> list[str]:
    """Every rule break across the public modules, one line each (deduplicated re-exports)."""
    seen: set[str] = set()
    lines: list[str] = []
    for module_name in public_modules():
        for name, problem in problems_of_module(module_name):
            line = f"{name}: {problem}"
            if line not in seen:
                seen.add(line)
                lines.append(line)
    return lines


@pytest.mark.parametrize("module_name", public_modules())
def test_public_names_have_numpy_docstrings(module_name: str) -> None:
    problems = [f"{name}: {problem}" for name, problem in problems_of_module(module_name)]
    assert not problems, "\n".join(problems)


# ---- the rule itself: what it accepts and rejects ----

def _undocumented(value: int, scale: int = 2) -> int:
    return value * scale


def _summary_only(value: int) -> int:
    """Scale a value."""
    return value


def _one_parameter_missing(value: int, scale: int = 2) -> int:
    """Scale a value.

    Parameters
    ----------
    value : int
        The value.

    Returns
    -------
    int
        The product.
    """
    return value * scale


def _complete(value: int, *factors: int, **options: bool) -> int:
    """Scale a value.

    Parameters
    ----------
    value, *factors : int
        The value and what it is multiplied by.
    **options : bool
        Ignored.

    Returns
    -------
    int
        The product.
    """
    return value


def _procedure(path: str) -> None:
    """Touch a file.

    Parameters
    ----------
    path : str
        The file.
    """


class _Documented:
    """A thing.

    Parameters
    ----------
    size : int
        Its size.

    Attributes
    ----------
    label : str
        Its label.
    """

    __slots__ = ("label", "size")

    def __init__(self, size: int) -> None:
        self.size, self.label = size, ""

    def grow(self, by: int) -> int:
        return self.size + by


def test_rule_rejects_missing_and_partial_docstrings() -> None:
    assert check_callable(_undocumented, "_undocumented", False) == ["no docstring"]
    assert check_callable(_summary_only, "_summary_only", False) == [
        "no Parameters section (takes value)", "no Returns section"]
    assert check_callable(_one_parameter_missing, "_one_parameter_missing", False) == [
        "Parameters section does not name scale"]


def test_rule_accepts_complete_docstrings_and_procedures() -> None:
    assert check_callable(_complete, "_complete", False) == []
    assert check_callable(_procedure, "_procedure", False) == []  # returns None: no Returns section


def test_rule_walks_the_public_members_of_a_class() -> None:
    problems = list(check_class(_Documented, "_Documented"))
    assert problems == [("_Documented.grow", "no docstring")]  # slots are listed, __init__ documented


def test_rule_takes_c_signatures_from_the_core_stub() -> None:
    import tvm_ffi.core

    assert check_callable(tvm_ffi.core.Tensor.size, "Tensor.size", True) == []
    assert "Tensor.size" in _STUBS and sections(inspect.getdoc(tvm_ffi.core.Tensor.size) or "").keys() >= {
        "Parameters", "Returns"}


def test_every_module_and_entry_point_abi_md_lists_is_walked() -> None:
    modules = set(public_modules())
    assert {"tvm_ffi", "tvm_ffi.registry", "tvm_ffi.module", "tvm_ffi.stream", "tvm_ffi.container", "tvm_ffi.cpp",
            "tvm_ffi.dataclasses", "tvm_ffi.libinfo", "tvm_ffi.config", "tvm_ffi.access_path",
            "tvm_ffi.structural", "tvm_ffi.serialization", "tvm_ffi.testing", "tvm_ffi.error", "tvm_ffi.utils",
            "tvm_ffi.stub", "tvm_ffi.stub.cli", "tvm_ffi.core"} <= modules
    import tvm_ffi.config
    import tvm_ffi.stub.cli

    assert "__main__" in _public_names(tvm_ffi.stub.cli) and "__main__" in _public_names(tvm_ffi.config)
    assert "CAny" in _ABI_EXTRA_NAMES["tvm_ffi"]
