"""kernels/extra_headers_kernel.cc -- functions written with the reference's extra headers
(extra/stl.h, expected.h, big_int.h, extra/base64.h, extra/dtype.h, endian.h) -- built against OUR
headers and against the REFERENCE headers; both builds, driven by
scripts/extra_headers_observations.py on our runtime and on the reference runtime, must answer
alike (except KNOWN_DIFFERENCES), and the BigInt results must be Python's own arithmetic.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel

SCRIPT = COMPAT_DIR / "scripts" / "extra_headers_observations.py"
SOURCE = KERNELS_DIR / "extra_headers_kernel.cc"
BIG = 2**100 + 7
NEG = -(2**70) + 3

# Observation -> why our headers deliberately differ from the reference's there.
KNOWN_DIFFERENCES = {
    "base64_decode bad length": "our Base64Decode raises ValueError for malformed text (any bad "
                                "character, misplaced '=', or a length that is not a multiple of 4); "
                                "the reference raises InternalError for the length only and decodes "
                                "other malformed text into arbitrary bytes",
}


def python_bigint_ops(a: int, b: int) -> list[int]:
    """What kernels/extra_headers_kernel.cc's BigIntOps computes, in Python."""
    out = [a + b, a - b, a * b, a & b, a | b, a ^ b, ~a, -a, a << 5, a >> 3, min(a, b), max(a, b),
           int(a < b), int(a == b)]
    if b != 0:
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C++ truncating division
        out += [q, a - q * b, a // b, a % b]
    return out


@pytest.fixture(scope="module")
def observations(reference: Reference, plain_runtime: Runtime,
                 tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, object]]:
    """(headers, runtime) -> the observations of that build on that runtime."""
    out = tmp_path_factory.mktemp("extra_headers")
    builds = {
        "ours": build_kernel(SOURCE, out / "extra_ours.so", include_dir=INCLUDE_DIR,
                             link_dir=plain_runtime.libdir),
        "reference": build_kernel(SOURCE, out / "extra_reference.so", include_dir=reference.include_dir,
                                  link_dir=reference.lib_dir),
    }
    result = {}
    for runtime, env in (("ours", None), ("reference", reference.env())):
        for headers, library in builds.items():
            proc = subprocess.run([sys.executable, str(SCRIPT), str(library)], capture_output=True,
                                  text=True, env=env, timeout=120)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            result[(headers, runtime)] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_our_headers_answer_like_the_reference_headers(
        runtime: str, observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours, ref = observations[("ours", runtime)], observations[("reference", runtime)]
    assert ours.keys() == ref.keys()
    differing = {key for key in ours if ours[key] != ref[key]}
    assert differing == set(KNOWN_DIFFERENCES), {k: (ours[k], ref[k]) for k in differing}


def test_known_differences_are_what_we_intend(observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours = observations[("ours", "ours")]
    assert ours["base64_decode bad length"] == [
        "raises", "ValueError", "invalid base64 encoding: length 3 is not a multiple of 4"]


def test_bigint_results_are_python_arithmetic(observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours = observations[("ours", "ours")]
    assert ours["bigint_ops wide"] == python_bigint_ops(BIG, NEG)
    assert ours["bigint_ops small"] == python_bigint_ops(-7, 2)
    assert ours["bigint_ops zero divisor"] == python_bigint_ops(7, 0)
    assert ours["bigint_text"] == str(-(3**90))
    assert ours["bigint_to_double"] == float(2**100)
    # Kind OverflowError has no registered class: RuntimeError, as the reference raises it.
    assert ours["bigint_to_double overflow"] == ["raises", "RuntimeError", "BigInt does not fit finite double"]
    assert ours["bigint_from_double"] == int(1e30)
    assert ours["bigint_parse"] == -123456789012345678901234567890


def test_stl_expected_and_base64_results(observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours = observations[("ours", "ours")]
    assert ours["stl_reverse"] == ["c", "b", "a"]
    assert ours["stl_split"] == [4, "2", True]
    assert ours["stl_invert"] == {"map": [[1, "a"], [2, "b"]]}
    assert ours["stl_optional value"] == "got 4" and ours["stl_optional none"] is None
    assert [ours[f"stl_variant {k}"] for k in ("int", "float", "str")] == [0, 1, 2]
    assert ours["stl_apply"] == 12 and ours["stl_array"] == 6.5
    assert ours["stl_nested"] == [[], [1], [2, 2]]
    assert ours["stl_array length"][:2] == ["raises", "TypeError"]
    assert ours["expected_divide ok"] == 3
    assert ours["expected_divide error"][0] == "Error"  # the ffi.Error is returned as a value
    # A Python ZeroDivisionError reaches C++ as kind RuntimeError (no listed class above it).
    assert ours["call_expected raises"] == "err:RuntimeError:integer division or modulo by zero"
    assert ours["base64_encode"] == "Zm9vYmFy" and ours["base64_decode"] == ["bytes", list(b"foob")]
    assert ours["dtype_traits"] == ["int8", "uint16", "int32", "uint64", "float32", "float64", "bool",
                                    "float16", "bfloat16", "float8_e4m3fn", "float4_e2m1fnx2",
                                    "float8_e5m2fnuz"]
    assert ours["byteswap32"] == 0x44332211
