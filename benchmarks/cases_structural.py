"""Structural services: structural_hash/structural_equal, structural_walk, structural_map and
JSON graph serialization."""

from __future__ import annotations

from cases import Case

_ARR = "import tvm_ffi\narr = tvm_ffi.Array([1, 2, 3])\nother = tvm_ffi.Array([1, 2, 3])\n"
_JSON = "import tvm_ffi\nfrom tvm_ffi.serialization import to_json_graph_str\narr = tvm_ffi.Array([1, 2, 3])\n"
# A document of 101 nodes: a 100-int Array.
_JSON_READ = """import tvm_ffi
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
text = to_json_graph_str(tvm_ffi.Array(list(range(100))))
"""
# A document of 51 nodes: an Array of 50 reflected objects (two int fields each).
_JSON_READ_OBJECTS = """import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
text = to_json_graph_str(tvm_ffi.Array([tvm_ffi.testing.TestIntPair(i, i + 1) for i in range(50)]))
"""
_REPR = "import tvm_ffi\nlong_arr = tvm_ffi.Array(list(range(100)))\n"
# Flat containers of 10^4 leaves (ints, short strings): the per-item cost of hash and equality.
_FLAT = """import tvm_ffi
ints = tvm_ffi.Array(list(range(10_000)))
ints2 = tvm_ffi.Array(list(range(10_000)))
strs = tvm_ffi.Array([str(i) for i in range(10_000)])
strs2 = tvm_ffi.Array([str(i) for i in range(10_000)])
"""
# 10^5 distinct Arrays, each referring to an earlier one (node i to node i // 2: a shared
# binary tree of depth 17), all listed by the root; built twice so that equality compares two
# separate graphs. (With two shared children per node the reference, which does not memoise
# tree nodes, takes exponential time and never finishes a round.)
_DAG = """import tvm_ffi
def build():
    nodes = [tvm_ffi.Array([0])]
    for i in range(1, 100_000):
        nodes.append(tvm_ffi.Array([nodes[i // 2], i]))
    return tvm_ffi.Array(nodes)
dag = build()
dag2 = build()
"""

# Two separately built trees of 13 reflected objects (a root, three children, nine leaves),
# each holding an int and a list of children: the everyday shape of an IR comparison. Setup
# runs once per round and a type key registers once per process, so the class is kept.
_TREE = """import sys, tvm_ffi
from tvm_ffi.dataclasses import field, py_class
Node = getattr(sys, "_bench_structural_node", None)
if Node is None:
    @py_class("bench.structural.Node")
    class Node(tvm_ffi.Object):
        v: int
        kids: list = field(default_factory=list)
    sys._bench_structural_node = Node
def build():
    return Node(0, [Node(i, [Node(j) for j in range(3)]) for i in range(3)])
tree = build()
tree2 = build()
"""

# An IR-shaped value with bindings: a function of two parameters (free vars defined by the
# params field) whose body holds 6 let-bindings (DAG nodes) of vars to attribute maps, each
# let used twice. Built twice with fresh vars: equal only through the bindings.
_IR = """import sys, tvm_ffi
from tvm_ffi.dataclasses import field, py_class
classes = getattr(sys, "_bench_structural_ir", None)
if classes is None:
    @py_class("bench.structural.Var", structural_eq="var")
    class Var(tvm_ffi.Object):
        name: str = field(structural_eq="ignore")
    @py_class("bench.structural.Let", structural_eq="dag")
    class Let(tvm_ffi.Object):
        var: Var = field(structural_eq="def")
        value: dict
    @py_class("bench.structural.Fn")
    class Fn(tvm_ffi.Object):
        params: list = field(structural_eq="def")
        body: list
    classes = sys._bench_structural_ir = (Var, Let, Fn)
Var, Let, Fn = classes
def build():
    a, b = Var("a"), Var("b")
    lets = [Let(Var(f"t{i}"), {"lhs": a, "rhs": b, "op": "add", "lanes": i}) for i in range(6)]
    return Fn([a, b], [item for let in lets for item in (let, let)])
fn = build()
fn2 = build()
"""

# 1101 values: a root Array of 100 Arrays of 10 ints. The first walk calls back on the 1000
# ints (callback cost dominates), the second only on the 101 Arrays (the traversal dominates).
_WALK = """import tvm_ffi
graph = tvm_ffi.convert([[i * 10 + j for j in range(10)] for i in range(100)])
seen = []
on_int = (int, seen.append)
on_array = (tvm_ffi.Array, seen.append)
"""

# The same graph mapped: identity callbacks on the 1000 ints (no copy: callback cost plus the
# unchanged-check), a change of every int (every Array rebuilt), and a callback on the Arrays only.
_MAP = """import tvm_ffi
graph = tvm_ffi.convert([[i * 10 + j for j in range(10)] for i in range(100)])
same_int = (int, lambda v: v)
bump_int = (int, lambda v: v + 1)
same_array = (tvm_ffi.Array, lambda v: v)
"""

CASES = [
    Case("structural_hash(3-element Array)", _ARR, "tvm_ffi.structural_hash(arr)", ref_target=0.5),
    Case("structural_equal(3-element Arrays)", _ARR, "tvm_ffi.structural_equal(arr, other)", ref_target=0.5),
    Case("structural_hash(10^4-int Array)", _FLAT, "tvm_ffi.structural_hash(ints)"),
    # the reference hashes a short string in a few instructions too: the loop is most of it
    Case("structural_hash(10^4-str Array)", _FLAT, "tvm_ffi.structural_hash(strs)", ref_target=1.0),
    Case("structural_equal(10^4-str Arrays)", _FLAT, "tvm_ffi.structural_equal(strs, strs2)"),
    Case("structural_hash(10^5-node DAG)", _DAG, "tvm_ffi.structural_hash(dag)", ref_target=0.5),
    Case("structural_equal(10^5-node DAGs)", _DAG, "tvm_ffi.structural_equal(dag, dag2)", ref_target=0.5),
    Case("structural_hash(13-object tree)", _TREE, "tvm_ffi.structural_hash(tree)", ref_target=0.5),
    Case("structural_equal(13-object trees)", _TREE, "tvm_ffi.structural_equal(tree, tree2)", ref_target=0.6),
    Case("structural_hash(function with vars and lets)", _IR,
         "tvm_ffi.structural_hash(fn, map_free_vars=True)", ref_target=0.5),
    Case("structural_equal(functions with vars and lets)", _IR,
         "tvm_ffi.structural_equal(fn, fn2)", ref_target=0.6),
    Case("structural_walk(1101 values, callback on 1000 ints)", _WALK,
         "tvm_ffi.structural_walk(graph, on_int); seen.clear()", ref_target=1.0),
    Case("structural_walk(1101 values, callback on 101 Arrays)", _WALK,
         "tvm_ffi.structural_walk(graph, on_array); seen.clear()", ref_target=1.0),
    Case("structural_map(1101 values, identity on 1000 ints)", _MAP,
         "tvm_ffi.structural_map(graph, same_int)", ref_target=1.0),
    Case("structural_map(1101 values, change 1000 ints)", _MAP,
         "tvm_ffi.structural_map(graph, bump_int)", ref_target=1.0),
    Case("structural_map(1101 values, identity on 101 Arrays)", _MAP,
         "tvm_ffi.structural_map(graph, same_array)", ref_target=1.0),
    Case("to_json_graph_str(3-element Array)", _JSON, "to_json_graph_str(arr)", ref_target=0.3),
    Case("from_json_graph_str(100-int Array)", _JSON_READ, "from_json_graph_str(text)", ref_target=1.0),
    Case("from_json_graph_str(50 objects)", _JSON_READ_OBJECTS, "from_json_graph_str(text)", ref_target=1.0),
    Case("repr(100-int Array)", _REPR, "repr(long_arr)", ref_target=0.6),
]
