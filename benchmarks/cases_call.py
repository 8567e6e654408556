"""Call-overhead cases: the cost of crossing the Python <-> FFI boundary once.

Every case calls a `testing.*` global registered by the native testing library, looked up
through the public API, so the numbers compare the two packages' call paths and nothing else.
"""

from __future__ import annotations

from cases import Case

_IMPORTS = "import tvm_ffi\nimport tvm_ffi.testing\n"
_NOP = _IMPORTS + "nop = tvm_ffi.get_global_func('testing.nop')\n"
_ECHO = _IMPORTS + "echo = tvm_ffi.get_global_func('testing.echo')\n"
# The callback is an identity on its argument, so both directions convert an int.
_CALLBACK = _IMPORTS + "cb = tvm_ffi.convert(lambda x: x)\n"
_APPLY = _CALLBACK + "apply = tvm_ffi.get_global_func('testing.apply')\n"
# A plain Python callable, wrapped as an FFI function by each statement.
_LAMBDA = _IMPORTS + "f = lambda x: x\nconvert = tvm_ffi.convert\napply = tvm_ffi.get_global_func('testing.apply')\n"

# An error raised in C reaching Python as an exception: the backtrace walk, the error object and
# the exception with its traceback frames. The helper's own call is the same on both sides.
_RAISE = _IMPORTS + (
    "raise_error = tvm_ffi.get_global_func('testing.test_raise_error')\n"
    "def raise_once():\n"
    "    try:\n"
    "        raise_error('ValueError', 'bad input')\n"
    "    except ValueError:\n"
    "        pass\n"
)

CASES = [
    Case("nop()", _NOP, "nop()", floor_target=2.0),
    Case("nop(1, 2, 3)", _NOP, "nop(1, 2, 3)"),
    Case("echo(1)", _ECHO, "echo(1)"),
    Case("echo(1.5)", _ECHO, "echo(1.5)"),
    Case('echo("hello")', _ECHO, 'echo("hello")'),
    # 26 characters: too long for a small string, so it travels as a string view or object.
    Case("echo(str, 26 chars)", _ECHO + "s = 'abcdefghijklmnopqrstuvwxyz'\n", "echo(s)"),
    Case("Python callback from Python", _CALLBACK, "cb(1)"),
    # Issue 18 target: a Python callback called from C costs at most 0.35x the reference.
    Case("Python callback from C", _APPLY, "apply(cb, 1)", ref_target=0.35),
    # Issue target: wrapping a callable is one allocation and a small record, <= 0.3x the reference.
    Case("convert(lambda x: x)", _LAMBDA, "convert(f)", ref_target=0.3),
    Case("apply(lambda, 1): callable argument", _LAMBDA, "apply(f, 1)"),
    Case("error from C caught in Python", _RAISE, "raise_once()"),
    Case('get_global_func("testing.nop")', _IMPORTS + "get_global_func = tvm_ffi.get_global_func\n",
         "get_global_func('testing.nop')"),
]
