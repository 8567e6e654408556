"""Errors across the FFI boundary: kind <-> exception class mapping, and backtraces as tracebacks.

An FFI error carries a ``kind`` (e.g. ``"ValueError"``), a message and a backtrace: text lines
``  File "<file>", line <n>, in <func>``, most recent call first. When an error reaches Python,
``_core`` raises the exception class registered for its kind and calls the hook here that turns
the backtrace into real traceback entries, so C and C++ frames show up in Python tracebacks.
In the other direction a Python traceback becomes backtrace text for the C side.
"""

from __future__ import annotations

import linecache
import re
import sys
import types
from typing import Any, Callable, TypeVar, cast, overload

from . import _core

__all__ = ["TracebackManager", "register_error"]

_E = TypeVar("_E", bound=type)

_FRAME_LINE = re.compile(r'\s*File "(?P<file>.+?)", line (?P<line>-?\d+), in (?P<func>.+?)\s*$')


def parse_backtrace(backtrace: str) -> list[tuple[str, int, str]]:
    """The ``(file, line, function)`` frames of backtrace text, in the order written."""
    frames = []
    for line in backtrace.splitlines():
        match = _FRAME_LINE.match(line)
        if match is not None:
            frames.append((match["file"], int(match["line"]), match["func"]))
    return frames


_parse_backtrace = parse_backtrace  # the reference package's name for it

# Frames are made by evaluating `frame(\n)` with frame = sys._getframe: the evaluating frame
# returns itself. The call spans two lines, so traceback printers show the source line (when the
# file exists) without column markers, which would be meaningless for a foreign frame.
_FRAME_SOURCE = "frame(\n)"
# Paths of compiled libraries, which linecache must never try to read.
_BINARY_FILE = re.compile(r"\.(so(\.[0-9]+)*|dylib|dll|pyd)$")
# Bytecode offset of that call; the same for every copy of the code object.
_FRAME_LASTI = eval(compile(_FRAME_SOURCE, "<tvm_ffi>", "eval"), {"frame": sys._getframe}).f_lasti


class TracebackManager:
    """Build Python traceback entries for frames that never ran in Python (C, C++, CUDA...).

    A traceback entry needs a real frame object; one is made by evaluating a tiny code object
    whose file name, function name and first line are those of the foreign frame. The code objects
    are cached per frame, since the same C functions raise again and again.

    Parameters
    ----------
    max_cached : int, optional
        How many code objects to keep before the cache is emptied (default 4096).

    Examples
    --------
    >>> from tvm_ffi.error import TracebackManager
    >>> frame = TracebackManager().make_frame("kernel.cc", 12, "AddOne")
    >>> (frame.f_code.co_filename, frame.f_code.co_name)
    ('kernel.cc', 'AddOne')
    """

    def __init__(self, max_cached: int = 4096) -> None:
        self._codes: dict[tuple[str, int, str], types.CodeType] = {}
        self._max_cached = max_cached

    def _code_for(self, filename: str, lineno: int, func: str) -> types.CodeType:
        key = (filename, lineno, func)
        code = self._codes.get(key)
        if code is None:
            code = compile(_FRAME_SOURCE, filename, "eval").replace(co_name=func, co_firstlineno=max(lineno, 1))
            if _BINARY_FILE.search(filename):
                # Frames inside a shared library name the binary; printing the traceback must not
                # try to read it as source (Python 3.9's linecache raises on undecodable files).
                # An entry with mtime None is never revalidated.
                linecache.cache.setdefault(filename, (0, None, [], filename))
            if len(self._codes) >= self._max_cached:
                self._codes.clear()
            self._codes[key] = code
        return code

    def make_frame(self, filename: str, lineno: int, func: str) -> types.FrameType:
        """Make a finished frame object that reports ``func`` at ``filename:lineno``.

        Parameters
        ----------
        filename : str
            The source file the frame names.
        lineno : int
            The line number (values below 1 are shown as 1).
        func : str
            The function name.

        Returns
        -------
        types.FrameType
            A frame usable in a ``types.TracebackType``.
        """
        # No local holds the frame: it links back to this one, and a local would make a cycle.
        return cast(types.FrameType, eval(self._code_for(filename, lineno, func), {"frame": sys._getframe}))

    def append_traceback(
        self, tb: types.TracebackType | None, filename: str, lineno: int, func: str
    ) -> types.TracebackType:
        """One foreign frame put in front of ``tb`` (the reference's name for a single frame).

        Parameters
        ----------
        tb : types.TracebackType or None
            The traceback the new entry leads into (None starts a new one).
        filename, lineno, func : str, int, str
            Where the frame reports it ran.

        Returns
        -------
        types.TracebackType
            The new entry; its ``tb_next`` is ``tb``.

        Examples
        --------
        >>> from tvm_ffi.error import TracebackManager
        >>> tb = TracebackManager().append_traceback(None, "kernel.cc", 9, "AddOne")
        >>> (tb.tb_frame.f_code.co_name, tb.tb_lineno, tb.tb_next)
        ('AddOne', 9, None)
        """
        return cast(types.TracebackType, self.prepend_frames(tb, [(filename, lineno, func)]))

    def prepend_frames(
        self, tb: types.TracebackType | None, frames: list[tuple[str, int, str]]
    ) -> types.TracebackType | None:
        """Put foreign frames in front of a traceback.

        Parameters
        ----------
        tb : types.TracebackType or None
            The traceback to extend (None starts a new one).
        frames : list of (str, int, str)
            ``(filename, lineno, func)`` of each frame, most recent first.

        Returns
        -------
        types.TracebackType or None
            The traceback with the frames placed before ``tb``, outermost first.

        Examples
        --------
        >>> from tvm_ffi.error import TracebackManager
        >>> tb = TracebackManager().prepend_frames(None, [("a.cc", 3, "inner"), ("b.cc", 7, "outer")])
        >>> [tb.tb_frame.f_code.co_name, tb.tb_next.tb_frame.f_code.co_name]
        ['outer', 'inner']
        """
        for filename, lineno, func in frames:
            tb = types.TracebackType(tb, self.make_frame(filename, lineno, func), _FRAME_LASTI, lineno)
        try:
            return tb
        finally:
            # The new frames link back (f_back) to this frame: holding the chain here would make
            # a cycle that keeps every caller's locals alive until the next garbage collection.
            del tb


_TRACEBACK_MANAGER = TracebackManager()


# Backtrace text -> its frames: an error raised again and again (a loop, a retry) carries the same
# text each time, and parsing it costs more than the rest of the hook. Emptied when full.
_PARSED_BACKTRACES: dict[str, list[tuple[str, int, str]]] = {}
_MAX_PARSED_BACKTRACES = 1024


def _frames_of(backtrace: str) -> list[tuple[str, int, str]]:
    frames = _PARSED_BACKTRACES.get(backtrace)
    if frames is None:
        frames = parse_backtrace(backtrace)
        if len(_PARSED_BACKTRACES) >= _MAX_PARSED_BACKTRACES:
            _PARSED_BACKTRACES.clear()
        _PARSED_BACKTRACES[backtrace] = frames
    return frames


def _with_append_backtrace(error: BaseException, backtrace: str) -> BaseException:
    """Hook for _core (C -> Python): adds the frames of ``backtrace`` to ``error``'s traceback."""
    frames = _frames_of(backtrace)
    if not frames:
        return error
    tb = _TRACEBACK_MANAGER.prepend_frames(error.__traceback__, frames)
    try:
        return error.with_traceback(tb)
    finally:
        # Same reason as in prepend_frames: no cycle error -> traceback -> frame -> this frame.
        del error, tb


# Python -> C backtrace text is written by _core itself (the one writer of the format that
# parse_backtrace reads), so only the C -> Python direction needs a hook.
_core._set_error_hooks(_with_append_backtrace, None)


@overload
def register_error(name_or_cls: _E, cls: None = None) -> _E: ...


@overload
def register_error(name_or_cls: str | None = None, cls: None = None) -> Callable[[_E], _E]: ...


@overload
def register_error(name_or_cls: str | None, cls: _E) -> _E: ...


def register_error(name_or_cls: str | type | None = None, cls: type | None = None) -> Any:
    """Map an FFI error kind to a Python exception class, in both directions.

    An FFI error of that kind is raised in Python as the class; the class raised in a Python
    callback reaches C as an error of that kind. Forms: ``register_error("Kind", Cls)``,
    ``@register_error`` (the kind is the class name) and ``@register_error("Kind")``.

    Parameters
    ----------
    name_or_cls : str or type, optional
        The error kind, or the class itself when used bare as a decorator.
    cls : type, optional
        The exception class, when the kind is given as a string.

    Returns
    -------
    type or Callable[[type], type]
        The registered class, or a decorator that registers the class it decorates.

    Raises
    ------
    TypeError
        When the arguments are not a kind string and/or an exception class.

    Examples
    --------
    >>> @tvm_ffi.register_error
    ... class MyDocError(RuntimeError):
    ...     pass
    >>> tvm_ffi.core.ERROR_NAME_TO_TYPE["MyDocError"] is MyDocError
    True
    """
    if isinstance(name_or_cls, type):
        if cls is not None:
            raise TypeError("register_error(cls, cls2): give the kind as a string: register_error('Kind', cls)")
        return _register(name_or_cls.__name__, name_or_cls)
    if name_or_cls is not None and not isinstance(name_or_cls, str):
        raise TypeError(f"register_error: expected an error kind (str) or a class, got {type(name_or_cls).__name__}")
    kind = name_or_cls
    if cls is not None:
        return _register(kind if kind is not None else cls.__name__, cls)

    def decorator(error_cls: _E) -> _E:
        return _register(kind if kind is not None else error_cls.__name__, error_cls)

    return decorator


def _register(kind: str, cls: _E) -> _E:
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise TypeError(f"register_error({kind!r}, ...): expected an exception class, got {cls!r}")
    if not kind:
        raise ValueError("register_error: the error kind must be a non-empty string")
    _core.ERROR_NAME_TO_TYPE[kind] = cls
    _core.ERROR_TYPE_TO_NAME[cls] = kind
    return cls

