"""Fixed tables of the Rust backend: type names, scalar widths, keywords, sizes.

The values are facts about the ``tvm_ffi`` Rust crate and the C++ object layout that
the generated bindings must agree with; they are the same as the reference tool's so
that either tool keeps the other's output up to date.
"""

from __future__ import annotations

#: The one-line directives the Rust backend reads (every other name is the pipeline's or an error).
RUST_DIRECTIVE_KINDS = frozenset(
    {"import-object", "field", "nullable", "enum", "opaque", "upcast", "custom-new"}
)

#: FFI origin or type key -> Rust type. A ``::`` path is brought in with ``use``; a bare
#: name (a primitive) is always in scope. Containers map to the crate's own generic types.
RUST_TY_MAP_DEFAULTS = {
    "int": "i64",
    "float": "f64",
    "bool": "bool",
    "None": "()",
    "str": "tvm_ffi::String",
    "bytes": "tvm_ffi::Bytes",
    "Any": "tvm_ffi::Any",
    "Callable": "tvm_ffi::Function",
    "Array": "tvm_ffi::Array",
    "List": "tvm_ffi::List",
    "Map": "tvm_ffi::Map",
    # A field holding some object is an `ObjectRef` handle; the `Object` header is only a `base`.
    "Object": "tvm_ffi::object::ObjectRef",
    "Tensor": "tvm_ffi::Tensor",
    "Shape": "tvm_ffi::Shape",
    "Device": "tvm_ffi::DLDevice",
    "dtype": "tvm_ffi::DLDataType",
    "DataType": "tvm_ffi::DLDataType",
    "ffi.String": "tvm_ffi::String",
    "ffi.Bytes": "tvm_ffi::Bytes",
    "ffi.BigInt": "tvm_ffi::BigInt",
    "ffi.Module": "tvm_ffi::Module",
    "ffi.Error": "tvm_ffi::Error",
    "ffi.Object": "tvm_ffi::object::ObjectRef",
    "ffi.Tensor": "tvm_ffi::Tensor",
    "ffi.Shape": "tvm_ffi::Shape",
    "ffi.Function": "tvm_ffi::Function",
    "ffi.reflection.AccessPath": "tvm_ffi::reflection::AccessPath",
    "ffi.reflection.AccessStep": "tvm_ffi::reflection::AccessStep",
}

#: Schema origins the crate has no type for: such a field is read back as ``tvm_ffi::Any``.
RUST_UNSUPPORTED_ORIGINS = frozenset({"Dict", "Union", "tuple"})

#: The schema says ``int`` / ``float`` whatever the C++ width; the reflected size picks the scalar.
RUST_SCALAR_BY_SIZE = {
    ("int", 1): "i8",
    ("int", 2): "i16",
    ("int", 4): "i32",
    ("int", 8): "i64",
    ("float", 4): "f32",
    ("float", 8): "f64",
}

#: Bytes of each scalar a ``field`` or ``enum`` directive may name, checked against the field.
RUST_SCALAR_WIDTHS = {
    "i8": 1,
    "u8": 1,
    "bool": 1,
    "i16": 2,
    "u16": 2,
    "i32": 4,
    "u32": 4,
    "f32": 4,
    "i64": 8,
    "u64": 8,
    "f64": 8,
}

#: Types the wrapper's ``new`` takes as themselves rather than ``impl Into<T>``: a numeric
#: literal only infers its exact type, so ``impl Into`` would make ``Foo::new(1)`` ambiguous.
RUST_EXACT_PARAMS = frozenset(
    {"bool", "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize", "f32", "f64"}
)

#: Bytes of an object-reference field, the only kind a ``nullable`` directive may wrap.
RUST_POINTER_SIZE = 8

#: A C++ ``Optional<T>`` member: a 16-byte ``TVMFFIAny`` cell (crate type ``Optional<T>``), or,
#: for an object payload, a nullable 8-byte pointer (``Option<T>``).
RUST_OPTIONAL_PATH = "tvm_ffi::Optional"
RUST_OPTIONAL_FIELD_SIZE = 16
RUST_OBJECT_OPTIONAL_FIELD_SIZE = 8

#: ``Optional`` payloads stored in the 16-byte cell (a nested ``Optional`` is one too).
RUST_ANY_BACKED_OPTIONAL_PAYLOADS = frozenset(
    {"int", "float", "bool", "Device", "dtype", "DataType", "str", "bytes"}
)

#: First segment of a dotted FFI name -> crate path: builtin ``ffi.*`` types live in ``tvm_ffi``.
RUST_MOD_MAP = {
    "ffi": "tvm_ffi",
}

#: The type every object derives from; its header is the crate's ``Object``.
RUST_ROOT_TYPE_KEY = "ffi.Object"

#: Rust keywords (strict, reserved and edition ones): a field so named is spelled ``r#name``.
RUST_KEYWORDS = frozenset(
    [
        # strict keywords
        "Self", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
        "true", "type", "unsafe", "use", "where", "while",
        # reserved for future use, and the 2024 edition's `gen`
        "abstract", "become", "box", "do", "final", "gen", "macro", "override", "priv", "try",
        "typeof", "unsized", "virtual", "yield",
    ]
)

#: Keywords that cannot be raw identifiers: a field so named is spelled ``name_``.
RUST_NOT_RAW_IDENTIFIERS = frozenset({"self", "Self", "super", "crate"})

#: Member names the generated structs use themselves (the parent / ``ObjectArc`` slot):
#: a reflected field of that name is spelled ``name_`` so it neither collides nor shadows.
RUST_RESERVED_MEMBERS = frozenset({"base"})

#: rustfmt's default ``max_width``: a longer signature or call is wrapped the way rustfmt would.
RUST_MAX_WIDTH = 100
