"""Build C/C++/CUDA sources into FFI modules: ``build``/``load`` (files), ``build_inline``/``load_inline`` (strings).

Builds are cached under ``$TVM_FFI_CACHE_DIR`` (default ``~/.cache/tvm-ffi``) by a key over the
sources, flags, compilers and our headers; a cache hit costs a few ``stat`` calls and the load.
Concurrent builders of the same module (threads or processes) wait for one build under a file
lock that dies with its holder. ninja is used when installed (``pip install ninja``), otherwise
the compilers are driven directly, object files in parallel (``MAX_JOBS`` caps both). A ninja
build runs the ``build.ninja`` that ``_generate_ninja_build`` returns, looked up on this module at
each build, so a project that wraps it (as it would the reference's) edits the real build.
"""

from __future__ import annotations

import functools
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..libinfo import find_dlpack_include_path, find_include_path, find_libtvm_ffi
from ..module import load_module
from . import _inline

if TYPE_CHECKING:
    from ..module import Module
    from ._request import BuildRequest

IS_WINDOWS = sys.platform == "win32"

# The build machinery (_builder and what it imports: subprocess, threads, the lock) loads on the
# first build, so `import tvm_ffi.cpp` stays cheap for everyone who never builds.

__all__ = ["build", "build_inline", "load", "load_inline"]

_BACKENDS = ("cuda", "hip")


def _str_list(value: Sequence[str] | str | None, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    items = list(value)
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"{what} must be a str or a sequence of str, got an element of type {type(item).__name__}")
    return [os.fspath(item) for item in items]


def _flag_list(value: Sequence[str] | str | None, what: str) -> list[str]:
    """Flags, each entry split the way a shell splits it: ``["-O3 -g"]`` is two flags, as with
    the reference (whose ninja file pastes them into a shell command unquoted)."""
    flags = []
    for entry in _str_list(value, what):
        try:
            flags += shlex.split(entry)
        except ValueError as err:
            raise ValueError(f"{what}: cannot split {entry!r} into flags: {err}") from None
    return flags


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name in (".", ".."):
        raise ValueError(f"module name must be a non-empty str usable as a file name, got {name!r}")
    return name


def _find_compiler(name: str, *home_vars: str) -> str | None:
    """``name`` on PATH, else ``$HOME_VAR/bin/name`` of the first toolkit home that has it."""
    import shutil  # noqa: PLC0415  (kept off `import tvm_ffi`)

    found = shutil.which(name)
    if found is not None:
        return found
    for var in home_vars:
        home = os.environ.get(var)
        if home and os.path.isfile(os.path.join(home, "bin", name)):
            return os.path.join(home, "bin", name)
    return None


def _forced_gpu_backend() -> str | None:
    """``TVM_FFI_GPU_BACKEND`` (``cuda`` or ``hip``, any case), else None."""
    forced = os.environ.get("TVM_FFI_GPU_BACKEND", "").lower()
    return forced if forced in _BACKENDS else None


def _detect_gpu_backend_from_torch() -> str | None:
    """``"hip"`` or ``"cuda"`` from the build of a PyTorch the program already imported, else
    None. PyTorch is never imported here (seconds of start-up, and it may not be installed)."""
    version = getattr(sys.modules.get("torch"), "version", None)
    if getattr(version, "hip", None):
        return "hip"
    if getattr(version, "cuda", None):
        return "cuda"
    return None


@functools.cache
def _detect_gpu_backend() -> str:
    """The GPU backend of this machine: ``TVM_FFI_GPU_BACKEND`` (``cuda``/``hip``, any case),
    else the build of an imported PyTorch, else ``hip`` when only ``hipcc`` is found (PATH, then
    ``ROCM_HOME``/``ROCM_PATH``; an ``nvcc`` on PATH or under ``CUDA_HOME``/``CUDA_PATH`` wins),
    else ``cuda``. Computed once; ``_resolve_gpu_backend`` reads the override on every call."""
    decided = _forced_gpu_backend() or _detect_gpu_backend_from_torch()
    if decided is not None:
        return decided
    if _find_compiler("nvcc", "CUDA_HOME", "CUDA_PATH") is None and (
        _find_compiler("hipcc", "ROCM_HOME", "ROCM_PATH") is not None
    ):
        return "hip"
    return "cuda"


def _resolve_gpu_backend(backend: str | None) -> str:
    """``backend`` when given (``cuda`` or ``hip``, else ValueError), else the override or the
    detected backend."""
    if backend is not None:
        if backend not in _BACKENDS:
            raise ValueError(f"Invalid backend: {backend}. Supported backends are 'cuda' and 'hip'.")
        return backend
    return _forced_gpu_backend() or _detect_gpu_backend()


def _resolve_backend(backend: str | None, has_gpu_sources: bool) -> str | None:
    """The backend a build uses: None without GPU sources (a given one is still checked)."""
    if not has_gpu_sources:
        return _resolve_gpu_backend(backend) if backend is not None else None
    return _resolve_gpu_backend(backend)


def __getattr__(name: str) -> Any:
    """``shutil``, imported on first use (the compiler search patches it in tests)."""
    if name == "shutil":
        import shutil  # noqa: PLC0415

        return shutil
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _find_cuda_home() -> str:
    """The CUDA toolkit root (the reference's private name; build scripts of other projects
    import it). ``$CUDA_HOME`` / ``$CUDA_PATH`` as set, unchecked, as the reference returns them
    (a build that needs no CUDA may still ask); else the toolkit behind ``nvcc`` or at
    ``/usr/local/cuda``, and ``RuntimeError`` when there is none."""
    from ._toolchain import cuda_home, cuda_home_variable  # noqa: PLC0415

    variable = cuda_home_variable()
    return variable[1] if variable is not None else str(cuda_home())


def _decorate_with_tvm_ffi(source: str, functions: Mapping[str, str]) -> str:
    """``source`` with the FFI headers in front and, behind it, an export of each function in
    ``functions`` (name -> docstring, "" for none), as ``load_inline`` compiles it (the
    reference's private name; JIT front ends of other projects call it)."""
    return _inline.decorate(source, _inline.function_map(functions), None)


def _cubins(embed_cubin: Mapping[str, bytes] | None) -> dict[str, bytes]:
    if embed_cubin is None:
        return {}
    if sys.platform == "win32":
        raise NotImplementedError("CUBIN embedding is not yet supported on Windows")
    result = {}
    for key, blob in dict(embed_cubin).items():
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"embed_cubin: {key!r} is not a C identifier (it names TVM_FFI_EMBED_CUBIN(name))")
        if not isinstance(blob, (bytes, bytearray, memoryview)):
            raise TypeError(f"embed_cubin[{key!r}] must be bytes, got {type(blob).__name__}")
        result[key] = bytes(blob)
    return result


def _get_cuda_target() -> str:
    """The ``-gencode`` flags of this build (``TVM_FFI_CUDA_ARCH_LIST``, else the local GPU) as
    one space-separated string (the reference's private name)."""
    from ._toolchain import cuda_arch_flags  # noqa: PLC0415

    return " ".join(cuda_arch_flags())


def _find_rocm_home() -> str:
    """The ROCm root (the reference's private name); ``RuntimeError`` when there is none."""
    from ._toolchain import rocm_home  # noqa: PLC0415

    return str(rocm_home())


def _get_rocm_target() -> list[str]:
    """The ``--offload-arch`` flags from ``TVM_FFI_ROCM_ARCH_LIST`` (the reference's private name)."""
    from ._toolchain import rocm_arch_flags  # noqa: PLC0415

    return rocm_arch_flags()


def _generate_ninja_build(
    name: str,
    extra_cflags: Sequence[str],
    extra_cuda_cflags: Sequence[str],
    extra_ldflags: Sequence[str],
    extra_include_paths: Sequence[str],
    sources: Sequence[str],
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """The text of ``build.ninja`` for building ``sources`` into ``name`` (the reference's private
    hook: every build with ninja writes what this returns, so a project may wrap it to rewrite
    the file). The extra flags are shell text, an entry possibly holding several flags; the
    file's layout is described in ``tvm_ffi.cpp._ninja``. ``IS_WINDOWS`` selects MSVC's flags.
    """
    from . import _flags, _ninja, _plan  # noqa: PLC0415

    gpu = any(Path(s).suffix.lower() in _plan.CUDA_EXTS for s in sources)
    gpu_backend = _resolve_backend(backend, gpu) if gpu else None
    home: str | None = None
    target: list[str] = []
    if gpu_backend == "cuda":
        home, target = _find_cuda_home(), shlex.split(_get_cuda_target())
    elif gpu_backend == "hip":
        home, target = _find_rocm_home(), _get_rocm_target()
    ours = list(dict.fromkeys([find_include_path(), find_dlpack_include_path()]))
    site = _flags.Site(IS_WINDOWS, find_libtvm_ffi(), ours, home, target)
    return _ninja.generate(name, site, gpu_backend, extra_cflags, extra_cuda_cflags, extra_ldflags,
                           extra_include_paths, sources, sorted(embed_cubin or {}), output)


def _ninja_text(req: BuildRequest, sources: Sequence[str]) -> str:
    """``build.ninja`` of a build request, through the hook above (looked up at each build)."""
    def words(flags: Sequence[str]) -> list[str]:
        return [shlex.quote(flag) for flag in flags]  # each already one flag

    return _generate_ninja_build(name=req.name, extra_cflags=words(req.extra_cflags),
                                 extra_cuda_cflags=words(req.extra_cuda_cflags),
                                 extra_ldflags=words(req.extra_ldflags),
                                 extra_include_paths=req.extra_include_paths, sources=list(sources),
                                 embed_cubin=req.cubins or None, backend=req.backend, output=req.output)


def build_ninja(build_dir: str | os.PathLike[str]) -> None:
    """Runs ninja on the ``build.ninja`` in ``build_dir`` (``MAX_JOBS`` caps its jobs).

    ``RuntimeError`` with ninja's output when it fails; ``TVM_FFI_CPP_EXTENSION_LOG_BUILD=1`` logs
    the output of a success.
    """
    from ._ninja import run_in  # noqa: PLC0415

    run_in(build_dir)


def build_inline(
    name: str,
    *,
    cpp_sources: Sequence[str] | str | None = None,
    cuda_sources: Sequence[str] | str | None = None,
    functions: Mapping[str, str] | Sequence[str] | str | None = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | os.PathLike[str] | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Compile C++ (and CUDA) source strings into a shared library.

    The sources get ``#include <tvm/ffi/tvm_ffi.h>`` in front. Results are cached, so a second call
    with the same inputs only checks the cache; compiler errors are reported against the lines of
    the strings passed (files ``main.cpp`` / ``cuda.cu``).

    Parameters
    ----------
    name : str
        Name of the module: the library is ``<name>.so``, and it names the build.
    cpp_sources : str or Sequence[str], optional
        C++ source text (several strings are joined).
    cuda_sources : str or Sequence[str], optional
        CUDA (or HIP) source text.
    functions : str, Sequence[str] or Mapping[str, str], optional
        Functions to export: a name, a list of names, or a name -> docstring mapping. Each is
        exported with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` after the C++ source (after the CUDA
        source when there is no C++ source).
    extra_cflags, extra_cuda_cflags, extra_ldflags : Sequence[str], optional
        Flags added after the defaults (``-std=c++17 -fPIC -O2`` for C++; ``-Xcompiler -fPIC
        -std=c++17 -O2`` and ``-gencode`` for ``TVM_FFI_CUDA_ARCH_LIST`` or the local GPU for
        CUDA; ``-shared -ltvm_ffi`` for the link).
    extra_include_paths : Sequence[str], optional
        More ``-I`` directories; the package headers are always on the path.
    build_directory : str or os.PathLike, optional
        Where to build; default: a directory in the cache (``$TVM_FFI_CACHE_DIR``, by default
        ``~/.cache/tvm-ffi``) keyed by the sources, flags, compilers and headers.
    embed_cubin : Mapping[str, bytes], optional
        CUBIN images by the name used in ``TVM_FFI_EMBED_CUBIN(name)``.
    backend : str, optional
        GPU backend, ``"cuda"`` or ``"hip"`` (default: ``TVM_FFI_GPU_BACKEND``, else detected).
    output : str, optional
        Output file name; a name ending in ``.o`` produces a relocatable object instead of a
        library.

    Returns
    -------
    str
        The path of the built library (or object).

    Raises
    ------
    ValueError
        When there are no sources, or the name or a flag is invalid.
    BuildError
        When a compile or link step fails (a ``RuntimeError`` carrying the compiler's first
        errors, the command and the full output).

    Examples
    --------
    >>> path = tvm_ffi.cpp.build_inline(
    ...     "doc_sub", cpp_sources="int64_t sub(int64_t a, int64_t b) { return a - b; }", functions="sub")
    >>> tvm_ffi.load_module(path).sub(5, 3)
    2
    """
    name = _check_name(name)
    cpp_source = _inline.join_sources(cpp_sources, "cpp_sources")
    cuda_source = _inline.join_sources(cuda_sources, "cuda_sources")
    if cpp_source is None and cuda_source is None:
        raise ValueError(f"build_inline('{name}'): no sources; pass cpp_sources and/or cuda_sources")
    exports = _inline.function_map(functions)
    files: dict[str, str] = {}
    if cpp_source is not None:
        files["main.cpp"] = _inline.decorate(cpp_source, exports, "main.cpp")
    if cuda_source is not None:
        files["cuda.cu"] = _inline.decorate(cuda_source, {} if cpp_source is not None else exports, "cuda.cu")
    from ._builder import run_build  # noqa: PLC0415
    from ._request import BuildRequest  # noqa: PLC0415

    request = BuildRequest(
        name=name,
        sources=[],
        extra_cflags=_flag_list(extra_cflags, "extra_cflags"),
        extra_cuda_cflags=_flag_list(extra_cuda_cflags, "extra_cuda_cflags"),
        extra_ldflags=_flag_list(extra_ldflags, "extra_ldflags"),
        extra_include_paths=[str(Path(p).resolve()) for p in _str_list(extra_include_paths, "extra_include_paths")],
        backend=_resolve_backend(backend, cuda_source is not None),
        output=output,
        cubins=_cubins(embed_cubin),
        inline_sources=files,
    )
    return str(run_build(request, build_directory, _ninja_text))


def load_inline(
    name: str,
    *,
    cpp_sources: Sequence[str] | str | None = None,
    cuda_sources: Sequence[str] | str | None = None,
    functions: Mapping[str, str] | Sequence[str] | str | None = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | os.PathLike[str] | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module:
    """Compile C++ (and CUDA) source strings and load the library as a module.

    This is :func:`build_inline` followed by :func:`tvm_ffi.load_module`.

    Parameters
    ----------
    name : str
        Name of the module: the library is ``<name>.so``, and it names the build.
    cpp_sources : str or Sequence[str], optional
        C++ source text (several strings are joined).
    cuda_sources : str or Sequence[str], optional
        CUDA (or HIP) source text.
    functions : str, Sequence[str] or Mapping[str, str], optional
        Functions to export: a name, a list of names, or a name -> docstring mapping. Each is
        exported with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` after the C++ source (after the CUDA
        source when there is no C++ source).
    extra_cflags, extra_cuda_cflags, extra_ldflags : Sequence[str], optional
        Flags added after the defaults (``-std=c++17 -fPIC -O2`` for C++; ``-Xcompiler -fPIC
        -std=c++17 -O2`` and ``-gencode`` for ``TVM_FFI_CUDA_ARCH_LIST`` or the local GPU for
        CUDA; ``-shared -ltvm_ffi`` for the link).
    extra_include_paths : Sequence[str], optional
        More ``-I`` directories; the package headers are always on the path.
    build_directory : str or os.PathLike, optional
        Where to build; default: a directory in the cache (``$TVM_FFI_CACHE_DIR``, by default
        ``~/.cache/tvm-ffi``) keyed by the sources, flags, compilers and headers.
    embed_cubin : Mapping[str, bytes], optional
        CUBIN images by the name used in ``TVM_FFI_EMBED_CUBIN(name)``.
    keep_module_alive : bool, optional
        Keep the library loaded for the rest of the process (default True).
    backend : str, optional
        GPU backend, ``"cuda"`` or ``"hip"`` (default: ``TVM_FFI_GPU_BACKEND``, else detected).

    Returns
    -------
    Module
        The loaded module; the exported functions are its attributes.

    Raises
    ------
    ValueError
        When there are no sources, or the name or a flag is invalid.
    BuildError
        When a compile or link step fails (a ``RuntimeError`` carrying the compiler's first
        errors, the command and the full output).

    Examples
    --------
    >>> mod = tvm_ffi.cpp.load_inline(
    ...     "add", cpp_sources="int64_t add(int64_t a, int64_t b) { return a + b; }", functions="add")
    >>> mod.add(1, 2)
    3
    """
    path = build_inline(
        name,
        cpp_sources=cpp_sources,
        cuda_sources=cuda_sources,
        functions=functions,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        embed_cubin=embed_cubin,
        backend=backend,
    )
    return load_module(path, keep_module_alive=keep_module_alive)


def build(
    name: str,
    *,
    sources: Sequence[str] | str | None = None,
    cpp_files: Sequence[str] | str | None = None,
    cuda_files: Sequence[str] | str | None = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | os.PathLike[str] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Compile source files into a shared library (or an object, for ``output="x.o"``).

    Nothing is exported for you: use ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` (or the C ABI) in the
    files. A rebuild happens when a source, a header it includes, a flag or the compiler changes.

    Parameters
    ----------
    name : str
        Name of the module: the library is ``<name>.so``, and it names the build.
    sources : str or Sequence[str], optional
        Source files. The compiler follows the extension: ``.c`` -> ``$CC``, ``.cu`` -> nvcc
        (or hipcc), ``.o``/``.obj`` -> the linker, anything else -> ``$CXX``.
    cpp_files, cuda_files : str or Sequence[str], optional
        Aliases of ``sources``, kept for the reference's callers.
    extra_cflags, extra_cuda_cflags, extra_ldflags : Sequence[str], optional
        Flags added after the defaults (``-std=c++17 -fPIC -O2`` for C++; ``-Xcompiler -fPIC
        -std=c++17 -O2`` and ``-gencode`` for ``TVM_FFI_CUDA_ARCH_LIST`` or the local GPU for
        CUDA; ``-shared -ltvm_ffi`` for the link).
    extra_include_paths : Sequence[str], optional
        More ``-I`` directories; the package headers are always on the path.
    build_directory : str or os.PathLike, optional
        Where to build; default: a directory in the cache (``$TVM_FFI_CACHE_DIR``, by default
        ``~/.cache/tvm-ffi``) keyed by the sources, flags, compilers and headers.
    backend : str, optional
        GPU backend, ``"cuda"`` or ``"hip"`` (default: ``TVM_FFI_GPU_BACKEND``, else detected).
    output : str, optional
        Output file name; a name ending in ``.o`` produces a relocatable object instead of a
        library.

    Returns
    -------
    str
        The path of the built library (or object).

    Raises
    ------
    ValueError
        When there are no sources, or the name or a flag is invalid.
    BuildError
        When a compile or link step fails (a ``RuntimeError`` carrying the compiler's first
        errors, the command and the full output).
    FileNotFoundError
        When a source file does not exist.

    Examples
    --------
    >>> path = tvm_ffi.cpp.build("add_one", sources=["add_one.cc"])  # doctest: +SKIP
    """
    name = _check_name(name)
    files = _str_list(sources, "sources") + _str_list(cpp_files, "cpp_files") + _str_list(cuda_files, "cuda_files")
    if not files:
        raise ValueError(f"build('{name}'): no sources; pass sources (or cpp_files / cuda_files)")
    resolved = []
    for file in files:
        path = Path(file).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"build('{name}'): source file not found: {file}")
        resolved.append(str(path))
    from ._builder import run_build  # noqa: PLC0415
    from ._request import BuildRequest  # noqa: PLC0415

    request = BuildRequest(
        name=name,
        sources=resolved,
        extra_cflags=_flag_list(extra_cflags, "extra_cflags"),
        extra_cuda_cflags=_flag_list(extra_cuda_cflags, "extra_cuda_cflags"),
        extra_ldflags=_flag_list(extra_ldflags, "extra_ldflags"),
        extra_include_paths=[str(Path(p).resolve()) for p in _str_list(extra_include_paths, "extra_include_paths")],
        backend=_resolve_backend(backend, any(Path(f).suffix.lower() == ".cu" for f in resolved)),
        output=output,
        cubins={},
    )
    return str(run_build(request, build_directory, _ninja_text))


def load(
    name: str,
    *,
    sources: Sequence[str] | str | None = None,
    cpp_files: Sequence[str] | str | None = None,
    cuda_files: Sequence[str] | str | None = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | os.PathLike[str] | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module:
    """Compile source files and load the library as a module.

    This is :func:`build` followed by :func:`tvm_ffi.load_module`.

    Parameters
    ----------
    name : str
        Name of the module: the library is ``<name>.so``, and it names the build.
    sources : str or Sequence[str], optional
        Source files. The compiler follows the extension: ``.c`` -> ``$CC``, ``.cu`` -> nvcc
        (or hipcc), ``.o``/``.obj`` -> the linker, anything else -> ``$CXX``.
    cpp_files, cuda_files : str or Sequence[str], optional
        Aliases of ``sources``, kept for the reference's callers.
    extra_cflags, extra_cuda_cflags, extra_ldflags : Sequence[str], optional
        Flags added after the defaults (``-std=c++17 -fPIC -O2`` for C++; ``-Xcompiler -fPIC
        -std=c++17 -O2`` and ``-gencode`` for ``TVM_FFI_CUDA_ARCH_LIST`` or the local GPU for
        CUDA; ``-shared -ltvm_ffi`` for the link).
    extra_include_paths : Sequence[str], optional
        More ``-I`` directories; the package headers are always on the path.
    build_directory : str or os.PathLike, optional
        Where to build; default: a directory in the cache (``$TVM_FFI_CACHE_DIR``, by default
        ``~/.cache/tvm-ffi``) keyed by the sources, flags, compilers and headers.
    keep_module_alive : bool, optional
        Keep the library loaded for the rest of the process (default True).
    backend : str, optional
        GPU backend, ``"cuda"`` or ``"hip"`` (default: ``TVM_FFI_GPU_BACKEND``, else detected).

    Returns
    -------
    Module
        The loaded module.

    Raises
    ------
    ValueError
        When there are no sources, or the name or a flag is invalid.
    BuildError
        When a compile or link step fails (a ``RuntimeError`` carrying the compiler's first
        errors, the command and the full output).
    FileNotFoundError
        When a source file does not exist.

    Examples
    --------
    >>> mod = tvm_ffi.cpp.load("add_one", sources=["add_one.cc"])  # doctest: +SKIP
    >>> mod.add_one(x, y)  # doctest: +SKIP
    """
    path = build(
        name,
        sources=sources,
        cpp_files=cpp_files,
        cuda_files=cuda_files,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        backend=backend,
    )
    return load_module(path, keep_module_alive=keep_module_alive)
