"""Fixed texts of the stub generator: marker syntax per language, block kinds, terminal colours.

A marker is a comment line that starts with ``<comment> tvm-ffi-stubgen(``. A block runs from
``<comment> tvm-ffi-stubgen(begin): <kind>[/<argument>]`` to ``<comment> tvm-ffi-stubgen(end)``;
a one-line directive reads ``<comment> tvm-ffi-stubgen(<name>): <payload>``. The texts are the
reference tool's, so files either tool wrote are kept up to date by the other.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

__all__ = [
    "BUILTIN_TYPE_KEYS",
    "DOC_URL",
    "FN_NAME_MAP",
    "PIPELINE_DIRECTIVE_KINDS",
    "PYTHON_SYNTAX",
    "RUST_SYNTAX",
    "STUB_BLOCK_KINDS",
    "SYNTAX_BY_EXT",
    "TERM_BLACK",
    "TERM_BLUE",
    "TERM_BOLD",
    "TERM_CYAN",
    "TERM_GREEN",
    "TERM_MAGENTA",
    "TERM_RED",
    "TERM_RESET",
    "TERM_WHITE",
    "TERM_YELLOW",
    "TY_MAP_DEFAULTS",
    "TY_MAP_INPUT_DEFAULTS",
    "MarkerSyntax",
]

_TOOL = "tvm-ffi-stubgen("


@dataclasses.dataclass(frozen=True)
class MarkerSyntax:
    """The marker texts of one language, built from its line-comment token.

    Parameters
    ----------
    comment : str
        The token that starts a line comment (``#`` in Python, ``//`` in Rust).

    Examples
    --------
    >>> from tvm_ffi.stub.consts import PYTHON_SYNTAX
    >>> PYTHON_SYNTAX.begin
    '# tvm-ffi-stubgen(begin):'
    >>> PYTHON_SYNTAX.directive("skip")
    '# tvm-ffi-stubgen(skip):'
    """

    comment: str

    @property
    def prefix(self) -> str:
        """What every marker line starts with: ``<comment> tvm-ffi-stubgen(``."""
        return f"{self.comment} {_TOOL}"

    @property
    def begin(self) -> str:
        """The start of a block's first line; ``<kind>[/<argument>]`` follows it."""
        return self.directive("begin")

    @property
    def end(self) -> str:
        """A block's last line."""
        return f"{self.prefix}end)"

    @property
    def ty_map(self) -> str:
        """The start of a ``ty-map`` directive: ``<type key> -> <target name>`` follows it."""
        return self.directive("ty-map")

    @property
    def import_object(self) -> str:
        """The start of an ``import-object`` directive: ``<full name>;<bool>;<alias>`` follows."""
        return self.directive("import-object")

    @property
    def skip_file(self) -> str:
        """The line that makes the generator leave a whole file alone."""
        return f"{self.prefix}skip-file)"

    def directive(self, name: str) -> str:
        """The start of the one-line directive ``name``, colon included.

        Parameters
        ----------
        name : str
            The directive's name (``ty-map``, ``skip``, ...).

        Returns
        -------
        str
            ``<comment> tvm-ffi-stubgen(<name>):``.
        """
        return f"{self.prefix}{name}):"


PYTHON_SYNTAX = MarkerSyntax(comment="#")
RUST_SYNTAX = MarkerSyntax(comment="//")

# Which marker syntax a source file uses, by its (lower-cased) extension.
SYNTAX_BY_EXT: dict[str, MarkerSyntax] = {".py": PYTHON_SYNTAX, ".pyi": PYTHON_SYNTAX, ".rs": RUST_SYNTAX}

# Directives the command's own stages read; every other directive goes to the target's generator.
PIPELINE_DIRECTIVE_KINDS: frozenset[str] = frozenset({"ty-map", "prefix", "skip"})

# A parsed block's kind: one of the block kinds, "directive" for a one-line directive, None for
# plain source lines.
STUB_BLOCK_KINDS = Literal["global", "object", "import-section", "directive", "export", "__all__", None]

TERM_RESET = "\033[0m"
TERM_BOLD = "\033[1m"
TERM_BLACK = "\033[30m"
TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_BLUE = "\033[34m"
TERM_MAGENTA = "\033[35m"
TERM_CYAN = "\033[36m"
TERM_WHITE = "\033[37m"

DOC_URL = "https://tvm.apache.org/ffi/packaging/stubgen.html"

# Global function name -> the name its declaration gets (none renamed today).
FN_NAME_MAP: dict[str, str] = {}

# Types the tvm_ffi package binds itself: the generator never writes a class for them.
BUILTIN_TYPE_KEYS = {
    "ffi.BigInt", "ffi.Bytes", "ffi.Error", "ffi.Function", "ffi.Object", "ffi.OpaquePyObject",
    "ffi.SmallBytes", "ffi.SmallStr", "ffi.String", "ffi.Tensor",
}

# The Python target's names for schema origins in results and fields (read-only or mutable
# collection protocols), and for parameters (any sequence or mapping converts). Kept here for
# callers of this module; the Python backend (python_generator.consts) hands them on.
TY_MAP_DEFAULTS: dict[str, str] = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
}
TY_MAP_INPUT_DEFAULTS: dict[str, str] = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}
