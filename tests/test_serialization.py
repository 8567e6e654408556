"""tvm_ffi.serialization: JSON object graphs with the reference's exact text, round trips,
sharing, and clear errors for bad documents."""

from __future__ import annotations

import random
from typing import Any

import pytest
import tvm_ffi
from _structural_types import st_make_fixture  # noqa: F401 (the st_make fixture)
from tvm_ffi import structural_equal
from tvm_ffi.access_path import AccessPath
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

EXAMPLES: list[tuple[Any, str]] = [
    (None, '{"root_index":0,"nodes":[{"type":"None"}]}'),
    (1e300, '{"root_index":0,"nodes":[{"type":"float","data":1.0000000000000001e+300}]}'),
    (float("nan"), '{"root_index":0,"nodes":[{"type":"float","data":NaN}]}'),
    ("hello world this is long", '{"root_index":0,"nodes":[{"type":"ffi.String","data":"hello world this is long"}]}'),
    (b"\x00\x01\x02hello world bytes",
     '{"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"AAECaGVsbG8gd29ybGQgYnl0ZXM="}]}'),
    (tvm_ffi.dtype("float32"), '{"root_index":0,"nodes":[{"type":"DataType","data":"float32"}]}'),
    ([1, 2, 3], '{"root_index":3,"nodes":[{"type":"int","data":1},{"type":"int","data":2},'
                '{"type":"int","data":3},{"type":"ffi.Array","data":[0,1,2]}]}'),
    ({"a": 1, "b": 2}, '{"root_index":4,"nodes":[{"type":"ffi.String","data":"a"},{"type":"int","data":1},'
                       '{"type":"ffi.String","data":"b"},{"type":"int","data":2},{"type":"ffi.Map","data":[0,1,2,3]}]}'),
    ({"k": [1, {"z": None}]}, '{"root_index":6,"nodes":[{"type":"ffi.String","data":"k"},{"type":"int","data":1},'
                              '{"type":"ffi.String","data":"z"},{"type":"None"},{"type":"ffi.Map","data":[2,3]},'
                              '{"type":"ffi.Array","data":[1,4]},{"type":"ffi.Map","data":[0,5]}]}'),
    (2**70, '{"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"1180591620717411303424"}]}'),
    (-(2**70), '{"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"-1180591620717411303424"}]}'),
    (tvm_ffi.Device("cuda", 1), '{"root_index":0,"nodes":[{"type":"Device","data":[2,1]}]}'),
    (tvm_ffi.dtype("int8x4"), '{"root_index":0,"nodes":[{"type":"DataType","data":"int8x4"}]}'),
    (-(2**63), '{"root_index":0,"nodes":[{"type":"int","data":-9223372036854775808}]}'),
    (b"ab", '{"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"YWI="}]}'),
    (["1", 1, "1", 1.0, 1, True, 1],
     '{"root_index":4,"nodes":[{"type":"ffi.String","data":"1"},{"type":"int","data":1},'
     '{"type":"float","data":1.0},{"type":"bool","data":true},{"type":"ffi.Array","data":[0,1,0,2,1,3,1]}]}'),
]


@pytest.mark.parametrize(("value", "text"), EXAMPLES, ids=[repr(v)[:24] for v, _ in EXAMPLES])
def test_documents_match_the_reference_text(value: Any, text: str) -> None:
    assert to_json_graph_str(value) == text
    back = from_json_graph_str(text)
    assert structural_equal(back, value) or (value != value and back != back)


def test_shared_values_are_one_node_and_stay_shared() -> None:
    a = tvm_ffi.convert([1, 2])
    text = to_json_graph_str([a, a, tvm_ffi.convert([1, 2])])
    assert text == ('{"root_index":4,"nodes":[{"type":"int","data":1},{"type":"int","data":2},'
                    '{"type":"ffi.Array","data":[0,1]},{"type":"ffi.Array","data":[0,1]},'
                    '{"type":"ffi.Array","data":[2,2,3]}]}')
    back = from_json_graph_str(text)
    assert back[0].same_as(back[1]) and not back[0].same_as(back[2])


def test_metadata_is_written_and_ignored_on_load() -> None:
    text = to_json_graph_str([1], metadata={"version": "1.0", "n": 3})
    assert text == ('{"root_index":1,"nodes":[{"type":"int","data":1},{"type":"ffi.Array","data":[0]}],'
                    '"metadata":{"version":"1.0","n":3}}')
    assert list(from_json_graph_str(text)) == [1]
    assert type(text) is tvm_ffi.core.String  # the runtime's string, not a copy: as the reference's
    with pytest.raises(ValueError, match="Expect key to be string, got `int`"):
        to_json_graph_str(1, metadata={1: 2})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="Unsupported type: `ffi.SmallBytes`"):
        to_json_graph_str(1, metadata={"b": b"x"})


def test_objects_round_trip_with_inline_and_node_fields(st_make: Any) -> None:
    p = st_make("st.Int", 5)
    text = to_json_graph_str([p, p, st_make("st.Int", 5)])
    assert text == ('{"root_index":2,"nodes":[{"type":"st.Int","data":{"value":5}},'
                    '{"type":"st.Int","data":{"value":5}},{"type":"ffi.Array","data":[0,0,1]}]}')
    back = from_json_graph_str(text)
    assert back[0].same_as(back[1]) and not back[0].same_as(back[2]) and repr(back[0]) == "st.Int(value=5)"
    node = st_make("st.Node", "hello", {"p": p})
    assert repr(from_json_graph_str(to_json_graph_str(node))) == repr(node)


def test_access_paths_round_trip() -> None:
    path = AccessPath.root().attr("a")
    text = to_json_graph_str(path)
    assert text == ('{"root_index":4,"nodes":[{"type":"None"},{"type":"ffi.reflection.AccessPath","data":'
                    '{"parent":0,"step":0,"depth":0}},{"type":"ffi.String","data":"a"},'
                    '{"type":"ffi.reflection.AccessStep","data":{"kind":0,"key":2}},'
                    '{"type":"ffi.reflection.AccessPath","data":{"parent":1,"step":3,"depth":1}}]}')
    assert from_json_graph_str(text) == path


def test_writer_errors(st_make: Any) -> None:
    with pytest.raises(TypeError, match="Type `ffi.Function` does not support ToJSONGraph"):
        to_json_graph_str(tvm_ffi.get_global_func("ffi.ReprPrint"))
    with pytest.raises(TypeError, match="Type `st.NoCopy` does not support ToJSONGraph"):
        to_json_graph_str([st_make("st.NoCopy", 1)])
    lst = tvm_ffi.List([1])
    lst.append(lst)
    with pytest.raises(ValueError, match="Cycle detected during serialization: a List contains itself"):
        to_json_graph_str(lst)
    lst.clear()
    holder = tvm_ffi.List()
    node = st_make("st.Node", tvm_ffi.Array([holder]), None)
    holder.append(node)
    with pytest.raises(ValueError, match="Cycle detected"):
        to_json_graph_str(node)
    holder.clear()


BAD_DOCUMENTS = [
    ("abc", ValueError, r"Expecting value: line 1 column 1 \(char 0\)"),
    ("", ValueError, "Expecting value"),
    ("[1]", ValueError, "Invalid JSON Object Graph, expected an object"),
    ('{"nodes":[]}', ValueError, "expected `root_index` integer field"),
    ('{"root_index":"0","nodes":[]}', ValueError, "expected `root_index` integer field"),
    ('{"root_index":0.0,"nodes":[]}', ValueError, "expected `root_index` integer field"),
    ('{"root_index":true,"nodes":[]}', ValueError, "expected `root_index` integer field"),
    ('{"root_index":0}', ValueError, "expected `nodes` array field"),
    ('{"root_index":0,"nodes":{}}', ValueError, "expected `nodes` array field"),
    ('{"root_index":3,"nodes":[{"type":"None"}]}', ValueError, "invalid node index 3"),
    ('{"root_index":-1,"nodes":[{"type":"None"}]}', ValueError, "invalid node index -1"),
    ('{"root_index":0,"nodes":[]}', ValueError, "invalid node index 0"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[5]}]}', ValueError, "invalid node index 5"),
    ('{"root_index":0,"nodes":[1]}', TypeError, "Cannot convert from type `int` to `Map<Any, Any>`"),
    ('{"root_index":0,"nodes":[{}]}', KeyError, "key is not in Map"),
    ('{"root_index":0,"nodes":[{"type":"int"}]}', KeyError, "key is not in Map"),
    ('{"root_index":0,"nodes":[{"type":1}]}', TypeError, "Cannot convert from type `int` to `str`"),
    ('{"root_index":0,"nodes":[{"type":"no.Such"}]}', RuntimeError, "Cannot find type `no.Such`"),
    ('{"root_index":0,"nodes":[{"type":"int","data":"1"}]}', TypeError, "from type `ffi.SmallStr` to `int`"),
    ('{"root_index":0,"nodes":[{"type":"int","data":2.0}]}', TypeError, "from type `float` to `int`"),
    ('{"root_index":0,"nodes":[{"type":"int","data":9223372036854775808}]}', TypeError, "`float` to `int`"),
    ('{"root_index":0,"nodes":[{"type":"float","data":"1.5"}]}', TypeError, "`ffi.SmallStr` to `float`"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"YWI"}]}', RuntimeError, "invalid base64 encoding"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"@@@@"}]}', RuntimeError, "invalid base64 encoding"),
    ('{"root_index":0,"nodes":[{"type":"DataType","data":"floaty"}]}', ValueError, "floaty"),
    ('{"root_index":0,"nodes":[{"type":"DataType","data":5}]}', TypeError, "`int` to `str`"),
    ('{"root_index":0,"nodes":[{"type":"Device","data":[1]}]}', ValueError,
     r"Device data must be an array of \[device_type, device_id\], got 1 element\(s\)"),
    ('{"root_index":0,"nodes":[{"type":"Device","data":["cuda",0]}]}', TypeError,
     r"`Array\[index 0: ffi.SmallStr\]` to `Array<int>`"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Shape","data":[1.0]}]}', TypeError, r"index 0: float"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Map","data":[0]}]}', ValueError, "even number of"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":{}}]}', TypeError, "`ffi.Map` to `Array<Any>`"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":["0"]}]}', TypeError, "`ffi.SmallStr` to `int`"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Function","data":{}}]}', RuntimeError,
     "Type `ffi.Function` does not support reflection creation"),
    ('{"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"12x"}]}', ValueError, "Invalid decimal string"),
    ('{"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]}', ValueError, "cycle"),
    ('{"root_index":0,"nodes":[{"type":"None"}]} x', ValueError, "Extra data"),
    ("{'root_index':0}", ValueError, "Expecting property name enclosed in double quotes"),
    ('{"root_index":0,"nodes":[{"type":"ffi.String","data":"\t"}]}', ValueError, "Invalid control character"),
    ('{"root_index":0,"nodes":[{"type":"ffi.String","data":"\\ud83d"}]}', ValueError, "Invalid surrogate pair"),
]


@pytest.mark.parametrize(("text", "error", "message"), BAD_DOCUMENTS, ids=[t[:40] for t, _, _ in BAD_DOCUMENTS])
def test_bad_documents_raise_clear_errors(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        from_json_graph_str(text)


def test_reader_leniency_and_order() -> None:
    forward = '{"root_index":0,"nodes":[{"type":"ffi.Array","data":[1]},{"type":"int","data":7}]}'
    assert from_json_graph_str(forward) == (7,)
    assert from_json_graph_str('{"root_index":0,"nodes":[{"type":"int","data":true}]}') == 1
    assert from_json_graph_str('{"root_index":0,"nodes":[{"type":"float","data":9007199254740993}]}') == 2.0**53
    dup = from_json_graph_str('{"root_index":2,"nodes":[{"type":"ffi.String","data":"a"},{"type":"int","data":2},'
                              '{"type":"ffi.Map","data":[0,1,0,0]}]}')
    assert dict(dup) == {"a": "a"}
    assert from_json_graph_str('{"root_index":0,"nodes":[{"type":"None"},{"type":"no.Such"}],"extra":1}') is None
    with pytest.raises(TypeError, match="Expected `str` but got `int`"):
        from_json_graph_str(0)  # type: ignore[arg-type]


# Documents the text reader takes apart directly (whitespace, key order, repeated and extra keys)
# or hands to the generic parser (escaped keys or types): either way the value of the parsed
# document, where a repeated key means its last value.
UNUSUAL_DOCUMENTS = [
    (' { "nodes" : [ { "data" : 7 , "type" : "int" } ] , "root_index" : 0 } ', 7),
    ('{"root_index":0,"nodes":[{"type":"int","data":1,"data":2}]}', 2),
    ('{"root_index":5,"nodes":[{"type":"int","data":1}],"root_index":0}', 1),
    ('{"root_index":0,"nodes":[{"type":"int","data":1}],"nodes":[{"type":"float","data":2}]}', 2.0),
    ('{"root_index":0,"nodes":[{"type":"float","type":"int","data":3}]}', 3),
    ('{"root\\u005findex":0,"nodes":[{"type":"int","data":3}]}', 3),
    ('{"root_index":0,"nodes":[{"type":"\\u0069nt","data":3}]}', 3),
    ('{"root_index":0,"nodes":[{"type":"int","data":3,"note":{"a":[1,{}]}}],"metadata":{"x":null}}', 3),
    ('{"root_index":1,"nodes":[{"type":"ffi.String","data":"\\n\\u00e9"},{"type":"ffi.Array","data":[0,0]}]}',
     ("\né", "\né")),
]


@pytest.mark.parametrize(("text", "value"), UNUSUAL_DOCUMENTS, ids=[t[:40] for t, _ in UNUSUAL_DOCUMENTS])
def test_text_reader_agrees_with_the_document_reader(text: str, value: Any) -> None:
    parse = tvm_ffi.get_global_func("ffi.json.Parse")
    from_graph = tvm_ffi.get_global_func("ffi.FromJSONGraph")
    read = from_json_graph_str(text)
    assert read == value
    if not isinstance(value, tuple):  # an int node stays int, a float node float
        assert type(read) is type(value)
    assert structural_equal(read, from_graph(parse(text)))


JSON_NUMBERS = [
    ("0", 0), ("-0", 0), ("-12", -12), ("+5", 5), ("007", 7),
    ("123456789012345678", 123456789012345678), ("-123456789012345678", -123456789012345678),
    ("9223372036854775807", 2**63 - 1), ("-9223372036854775808", -(2**63)),
    ("9223372036854775808", 2.0**63), ("1.5", 1.5), ("-1e3", -1000.0), (".5", 0.5), ("1.", 1.0),
    ("1234567890123456789", 1234567890123456789), ("12e1", 120.0), ("3E0", 3.0), ("-7.25", -7.25),
    ("[ 1 , 22 ,333]", (1, 22, 333)),
    ("-Infinity", float("-inf")), ("[1,-2,+3]", (1, -2, 3)), ("true", True), ("null", None),
]


@pytest.mark.parametrize(("text", "value"), JSON_NUMBERS, ids=[t for t, _ in JSON_NUMBERS])
def test_json_reader_numbers_and_keywords(text: str, value: Any) -> None:
    parsed = tvm_ffi.get_global_func("ffi.json.Parse")(text)
    assert parsed == value
    if not isinstance(value, tuple):  # int stays int, float float, bool bool
        assert type(parsed) is type(value)


@pytest.mark.parametrize("text", ["-", "+", "-x", "- 1", "nul", "tru", "fals", "n", "[-]"])
def test_json_reader_rejects_broken_tokens(text: str) -> None:
    with pytest.raises(ValueError, match="Expecting value"):
        tvm_ffi.get_global_func("ffi.json.Parse")(text)


# The whole run of number characters must be one number, and a float must be in double's normal
# range (the reference's reader): otherwise "Expecting value" where the run starts.
@pytest.mark.parametrize(("text", "at"), [
    ("1e", 0), ("1e+", 0), ("1-2", 0), ("1.5.5", 0), ("1e5e5", 0), ("[1e,2]", 1), ("[1.2.3]", 1),
    ("1e400", 0), ("-1e400", 0), ("1e-400", 0), ("4e-320", 0),
])
def test_json_reader_refuses_malformed_number_runs(text: str, at: int) -> None:
    with pytest.raises(ValueError, match=rf"^Expecting value: line 1 column {at + 1} \(char {at}\)$"):
        tvm_ffi.get_global_func("ffi.json.Parse")(text)


# Escape errors point at the letter after the backslash, or at the hex digits of a surrogate
# pair's second half (the reference's positions).
@pytest.mark.parametrize(("text", "message"), [
    ('"ab\\q"', r"Invalid \\escape: line 1 column 5 \(char 4\)"),
    ('"\\', r"Invalid \\escape: line 1 column 3 \(char 2\)"),
    ('"\\u12"', r"Invalid \\uXXXX escape: line 1 column 3 \(char 2\)"),
    ('"a\\uD800"', r"Invalid surrogate pair of \\uXXXX escapes: line 1 column 4 \(char 3\)"),
    ('"\\uDC00"', r"Invalid surrogate pair of \\uXXXX escapes: line 1 column 3 \(char 2\)"),
    ('"\\uD800\\u0041"', r"Invalid surrogate pair of \\uXXXX escapes: line 1 column 10 \(char 9\)"),
    ('"\\uD800\\u12"', r"Invalid \\uXXXX escape: line 1 column 10 \(char 9\)"),
])
def test_json_reader_escape_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tvm_ffi.get_global_func("ffi.json.Parse")(text)


def test_object_field_errors(st_make: Any) -> None:
    with pytest.raises(TypeError, match="Required field `value` not set in type `st.Int`"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"st.Int","data":{}}]}')
    with pytest.raises(TypeError, match="`ffi.SmallStr` to `int`"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"st.Int","data":{"value":"x"}}]}')
    with pytest.raises(TypeError, match="`ffi.Array` to `Map<Any, Any>`"):
        from_json_graph_str('{"root_index":0,"nodes":[{"type":"st.Int","data":[]}]}')


def _random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(12 if depth < 4 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.randint(-(2**63), 2**63 - 1)
    if kind == 3:
        return rng.choice([0.0, -0.0, 1.5, 1e300, -2.5e-8, float("inf"), 2.0**53, rng.random()])
    if kind == 4:
        return "".join(rng.choice('ab"\\/\n\t\x01é€😀 ') for _ in range(rng.randrange(12)))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(10)))
    if kind == 6:
        return rng.choice([tvm_ffi.dtype("float32"), tvm_ffi.Device("cuda", 2), 2**70, tvm_ffi.Shape((1, 2))])
    items = [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind in (7, 8):
        return items if kind == 7 else tvm_ffi.List(items)
    keys = [_random_value(rng, 9) for _ in items]
    mapping = {k: v for k, v in zip(keys, items) if not isinstance(k, (float, bytes, tvm_ffi.Shape))}
    return mapping if kind in (9, 10) else tvm_ffi.Dict(mapping)


def test_generated_values_round_trip() -> None:
    rng = random.Random(20261125)
    for _ in range(300):
        value = tvm_ffi.convert(_random_value(rng, 0))
        text = to_json_graph_str(value)
        back = from_json_graph_str(text)
        assert structural_equal(back, value), text
        assert to_json_graph_str(back) == text


def test_graph_as_ffi_values() -> None:
    to_graph = tvm_ffi.get_global_func("ffi.ToJSONGraph")
    from_graph = tvm_ffi.get_global_func("ffi.FromJSONGraph")
    doc = to_graph([1, "a"], None)
    assert doc["root_index"] == 2 and len(doc["nodes"]) == 3 and "metadata" not in doc
    # A Map never equals a plain dict (the reference's ==), so compare its entries.
    assert type(doc["nodes"][0]) is tvm_ffi.Map and dict(doc["nodes"][0]) == {"type": "int", "data": 1}
    assert list(from_graph(doc)) == [1, "a"]
    assert from_graph({"root_index": 0, "nodes": [{"type": "int", "data": 7}]}) == 7
    assert to_graph(1, {"m": 1})["metadata"]["m"] == 1
