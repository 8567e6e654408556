"""``tvm_ffi.dtype``: a data type that is also a plain ``str``.

A ``dtype`` compares, hashes and prints like its text (``dtype("float32") == "float32"``) so it can
go wherever other array libraries expect a dtype string, and carries the parsed ``DLDataType`` in
``_tvm_ffi_dtype`` (a ``_core.DataType``) so calls pass it without parsing again.

NumPy and PyTorch dtypes are accepted as well; neither framework is imported here: a value is
only recognised as theirs when that framework is already in ``sys.modules``.
"""

from __future__ import annotations

import builtins
import operator
import sys
from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import Any, ClassVar

from . import _core

__all__ = ["DataTypeCode", "dtype"]


class DataTypeCode(IntEnum):
    """``DLDataTypeCode``: the ``code`` field of a ``DLDataType``."""

    INT = 0
    UINT = 1
    FLOAT = 2
    HANDLE = 3
    BFLOAT = 4
    COMPLEX = 5
    BOOL = 6
    Float8E3M4 = 7
    Float8E4M3 = 8
    Float8E4M3B11FNUZ = 9
    Float8E4M3FN = 10
    Float8E4M3FNUZ = 11
    Float8E5M2 = 12
    Float8E5M2FNUZ = 13
    Float8E8M0FNU = 14
    Float6E2M3FN = 15
    Float6E3M2FN = 16
    Float4E2M1FN = 17


# Type codes whose name carries the bit width ("int8"), and those whose name fixes it ("float8_e5m2").
_SIZED_NAMES = {0: "int", 1: "uint", 2: "float", 4: "bfloat"}
_FIXED_NAMES = {
    7: "float8_e3m4", 8: "float8_e4m3", 9: "float8_e4m3b11fnuz", 10: "float8_e4m3fn", 11: "float8_e4m3fnuz",
    12: "float8_e5m2", 13: "float8_e5m2fnuz", 14: "float8_e8m0fnu", 15: "float6_e2m3fn", 16: "float6_e3m2fn",
    17: "float4_e2m1fn",
}
_INTEGER_CODES = frozenset({0, 1})
_FLOAT_CODES = frozenset({2, 4, *_FIXED_NAMES})
# PyTorch spells a few names differently from the DLPack dtype grammar.
_TORCH_RENAMES = {"float4_e2m1fn_x2": "float4_e2m1fnx2"}


def _text_of_triple(code: int, bits: int, lanes: int) -> str:
    """Dtype text for a DLPack ``(code, bits, lanes)`` triple (checked by parsing it back)."""
    if code in _SIZED_NAMES:
        text = f"{_SIZED_NAMES[code]}{bits}"
    elif code in _FIXED_NAMES:
        text = _FIXED_NAMES[code]
    elif code == DataTypeCode.BOOL:
        text = "bool" if bits == 8 else f"bool{bits}"
    elif code == DataTypeCode.HANDLE:
        text = "handle" if (bits, lanes) != (0, 0) else ""
    else:
        raise ValueError(f"dtype: unsupported DLPack type code {code} in ({code}, {bits}, {lanes})")
    if not -(2**15) <= lanes < 2**15:  # lanes are an int16, as the reference reads them
        raise OverflowError(f"dtype: lanes {lanes} in ({code}, {bits}, {lanes}) do not fit int16")
    if lanes > 1:
        text += f"x{lanes}"
    elif lanes < -1:  # a scalable vector: -lanes times vscale
        text += f"xvscalex{-lanes}"
    return text


def _numpy_text(value: Any) -> str | None:
    """Dtype text of a NumPy dtype or scalar type, or None when ``value`` is not NumPy's."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if not isinstance(value, np.dtype):
        if not (isinstance(value, type) and issubclass(value, np.generic)):
            return None
        value = np.dtype(value)
    if not value.isnative:  # DLPack data types have no byte order: ">i4" is no int32
        raise DTypeArgumentError(f"unknown dtype `{value.str}`: not in the native byte order")
    # NumPy's names ("float32", "int8", "bool") and those of ml_dtypes' extension types
    # ("bfloat16", "float8_e5m2", ...) are already dtype strings of ours.
    return str(value.name)


def _torch_text(value: Any) -> str | None:
    """Dtype text of a ``torch.dtype``, or None when ``value`` is not PyTorch's."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.dtype):
        return None
    name = str(value).rpartition(".")[2]
    return _TORCH_RENAMES.get(name, name)


class DTypeArgumentError(ValueError, TypeError):
    """A value ``dtype()`` cannot read: a ValueError, as the reference raises ("unknown dtype"), and a TypeError."""


def _text_of(value: Any) -> str:
    """Dtype text for anything ``dtype()`` accepts."""
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, _core.DataType):
        return str(value)
    for convert in (_numpy_text, _torch_text):
        text = convert(value)
        if text is not None:
            return text
    dlpack_data_type = getattr(value, "__dlpack_data_type__", None)
    if dlpack_data_type is not None:
        return _text_of_triple(*dlpack_data_type())
    raise DTypeArgumentError(
        f"dtype() expects a dtype string, a NumPy or PyTorch dtype, or an object with __dlpack_data_type__, "
        f"got {type(value).__name__}: {value!r}"
    )


# NumPy (and ml_dtypes) type names that are dtype texts of ours, for _NumpyDtypeNames' keys.
_NUMPY_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn",
)


class _NumpyDtypeNames(Mapping[Any, str]):
    """Read-only map from a ``numpy.dtype`` to its dtype text (``np.dtype("int8")`` -> ``"int8"``).

    The reference package keeps such a dict on the dtype class, filled by importing NumPy, and
    projects built on it (TVM's tensor copy) read it. This one answers for every NumPy dtype whose
    name parses as a dtype, and never imports NumPy: with NumPy not loaded it is empty.
    """

    def __getitem__(self, key: Any) -> str:
        np = sys.modules.get("numpy")
        if np is None or not isinstance(key, np.dtype) or not key.isnative:
            raise KeyError(key)
        text = str(key.name)
        if not dtype.is_dtype(text):
            raise KeyError(key)
        return text

    def __iter__(self) -> Iterator[Any]:
        np = sys.modules.get("numpy")
        if np is None:
            return
        for name in _NUMPY_NAMES:
            try:
                yield np.dtype(name)
            except TypeError:  # bfloat16 and the float8/4 types exist once ml_dtypes is loaded
                continue

    def __len__(self) -> int:
        return sum(1 for _ in self)


# dtype(text) for the texts parsed so far: a dtype is an immutable str, so one instance serves
# every request (bounded: only valid texts get here, but a program could make many).
_MAX_PARSED = 1024
_PARSED: dict[str, dtype] = {}
# The same for NumPy and PyTorch dtype objects (both immutable and hashable), which calls convert
# whenever one is passed as an argument: NumPy computes `dtype.name` in Python (~2 us a time).
# Looked up only for the classes of dtypes met before, so other values never reach the dict.
_FRAMEWORK_PARSED: dict[Any, dtype] = {}
_FRAMEWORK_CLASSES: set[type] = set()


def _is_framework_dtype(value: Any) -> builtins.bool:
    """Whether ``value`` is a ``numpy.dtype`` or a ``torch.dtype`` (without importing either)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.dtype):
        return True
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.dtype)


class dtype(str):
    """A data type such as ``"float32"`` or ``"int8x4"``; a ``str`` holding a parsed ``DLDataType``.

    >>> f32 = tvm_ffi.dtype("float32")
    >>> f32 == "float32", f32.bits, f32.lanes, f32.itemsize
    (True, 32, 1, 4)
    >>> tvm_ffi.dtype(numpy.dtype("int8")), tvm_ffi.dtype.from_dlpack_data_type((2, 16, 1))
    (dtype('int8'), dtype('float16'))
    """

    __slots__ = ("_tvm_ffi_dtype",)
    _tvm_ffi_dtype: _core.DataType
    # The reference's class attributes, which code written for it reads.
    _NUMPY_DTYPE_TO_STR: ClassVar[Mapping[Any, str]] = _NumpyDtypeNames()
    _INTEGER_CODES: ClassVar[frozenset[int]] = _INTEGER_CODES
    _FLOAT_CODES: ClassVar[frozenset[int]] = _FLOAT_CODES

    def __new__(cls, content: Any) -> dtype:
        """Parses ``content`` (ValueError for an unknown dtype string)."""
        if type(content) is str:  # the common case first: results of calls come back this way
            if cls is dtype:
                known = _PARSED.get(content)
                if known is not None:
                    return known
            text, parsed = content, _core.DataType(content)
        elif type(content) is cls:
            return content
        else:
            if cls is dtype and type(content) in _FRAMEWORK_CLASSES:
                known = _FRAMEWORK_PARSED.get(content)
                if known is not None:
                    return known
            text = _text_of(content)
            parsed = content if isinstance(content, _core.DataType) else _core.DataType(text)
        self = str.__new__(cls, text)
        self._tvm_ffi_dtype = parsed
        if cls is dtype:
            if type(content) is str:
                if len(_PARSED) < _MAX_PARSED:
                    _PARSED[text] = self
            elif len(_FRAMEWORK_PARSED) < _MAX_PARSED and _is_framework_dtype(content):
                _FRAMEWORK_PARSED[content] = self
                _FRAMEWORK_CLASSES.add(type(content))
        return self

    def __setstate__(self, state: Any) -> None:
        """Accepts the state of the reference's pickles (its parsed copy of the name): unused,
        the name given to the constructor says it all."""

    @classmethod
    def from_dlpack_data_type(cls, dltype_data_type: tuple[int, int, int]) -> dtype:
        """Make the dtype of a DLPack ``(type_code, bits, lanes)`` triple.

        Parameters
        ----------
        dltype_data_type : tuple of (int, int, int)
            The DLPack type code (``DLDataTypeCode``), bit width and lane count (an int16;
            below -1 a scalable vector, ``(2, 32, -4)`` is ``float32xvscalex4``). The name is
            the reference's.

        Returns
        -------
        dtype
            The data type.

        Raises
        ------
        ValueError
            When the triple is not a valid DLPack data type.
        TypeError
            When an item is not an integer.
        OverflowError
            When the lanes do not fit int16.

        Examples
        --------
        >>> tvm_ffi.dtype.from_dlpack_data_type((2, 32, 1))
        dtype('float32')
        """
        code, bits, lanes = (operator.index(x) for x in dltype_data_type)  # TypeError for non-ints
        result = cls(_text_of_triple(code, bits, lanes))
        if (result.type_code, result.bits, result.lanes) != (code, bits, lanes):
            raise ValueError(f"dtype: ({code}, {bits}, {lanes}) is not a valid DLPack data type")
        return result

    def with_lanes(self, lanes: int) -> dtype:
        """Make the same scalar type with another lane count.

        Parameters
        ----------
        lanes : int
            The number of lanes of the vector type.

        Returns
        -------
        dtype
            The vector data type (``float32`` with 4 lanes is ``float32x4``).

        Examples
        --------
        >>> tvm_ffi.dtype("float32").with_lanes(4)
        dtype('float32x4')
        """
        return type(self).from_dlpack_data_type((self.type_code, self.bits, lanes))

    def __repr__(self) -> str:
        return f"dtype('{str.__str__(self)}')"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str.__str__(self),))

    @property
    def type_code(self) -> int:
        """``DLDataTypeCode`` of the scalar type (see :class:`DataTypeCode`)."""
        return self._tvm_ffi_dtype.type_code

    @property
    def bits(self) -> int:
        """Bits of one lane."""
        return self._tvm_ffi_dtype.bits

    @property
    def lanes(self) -> int:
        """Number of lanes (1 for scalars; negative for a scalable vector: -4 for ``xvscalex4``)."""
        return self._tvm_ffi_dtype.lanes

    @property
    def itemsize(self) -> int:
        """Bytes of one element, all lanes together."""
        return self._tvm_ffi_dtype.itemsize

    @property
    def is_bool(self) -> builtins.bool:
        """True for ``bool``."""
        return self.type_code == DataTypeCode.BOOL

    @property
    def is_integer(self) -> builtins.bool:
        """True for signed and unsigned integers."""
        return self.type_code in _INTEGER_CODES

    @property
    def is_float(self) -> builtins.bool:
        """True for every floating-point code (float, bfloat, float8/6/4 variants)."""
        return self.type_code in _FLOAT_CODES

    @property
    def is_handle(self) -> builtins.bool:
        """True for opaque handles (``handle``, ``void``)."""
        return self.type_code == DataTypeCode.HANDLE

    @staticmethod
    def is_dtype(arg: Any) -> builtins.bool:
        """Tell whether ``dtype(arg)`` would succeed.

        Parameters
        ----------
        arg : Any
            A candidate: a string, a framework dtype, a dtype.

        Returns
        -------
        bool
            True when ``arg`` names a data type.

        Examples
        --------
        >>> tvm_ffi.dtype.is_dtype("int8"), tvm_ffi.dtype.is_dtype("no-such-type")
        (True, False)
        """
        try:
            dtype(arg)
        except (TypeError, ValueError):
            return False
        return True


_core._set_class_dtype(dtype)


def _create_cdtype_from_tuple(cls: type[Any], code: int, bits: int, lanes: int) -> Any:
    """A ``cls`` data type (``DataType`` or ``dtype``) from its DLPack triple: how pickles made
    by the reference rebuild the parsed ``DataType`` they carry."""
    parsed = dtype.from_dlpack_data_type((code, bits, lanes))
    return parsed._tvm_ffi_dtype if issubclass(cls, _core.DataType) else cls(str.__str__(parsed))


# The reference's pickles name it `tvm_ffi.core._create_cdtype_from_tuple`.
_create_cdtype_from_tuple.__module__ = "tvm_ffi.core"
_core._create_cdtype_from_tuple = _create_cdtype_from_tuple

# Predefined dtypes, exported as tvm_ffi.float32 etc. (`bool` shadows the builtin only here).
bool = dtype("bool")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float16 = dtype("float16")
float32 = dtype("float32")
float64 = dtype("float64")
bfloat16 = dtype("bfloat16")
float8_e3m4 = dtype("float8_e3m4")
float8_e4m3 = dtype("float8_e4m3")
float8_e4m3b11fnuz = dtype("float8_e4m3b11fnuz")
float8_e4m3fn = dtype("float8_e4m3fn")
float8_e4m3fnuz = dtype("float8_e4m3fnuz")
float8_e5m2 = dtype("float8_e5m2")
float8_e5m2fnuz = dtype("float8_e5m2fnuz")
float8_e8m0fnu = dtype("float8_e8m0fnu")
float6_e2m3fn = dtype("float6_e2m3fn")
float6_e3m2fn = dtype("float6_e3m2fn")
float4_e2m1fn = dtype("float4_e2m1fn")
float4_e2m1fnx2 = dtype("float4_e2m1fnx2")
float4_e2m1fn_x2 = float4_e2m1fnx2  # PyTorch spells the packed pair this way

DTYPE_LITERALS = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "float4_e2m1fnx2",
)
"""Names of the predefined dtypes above."""
