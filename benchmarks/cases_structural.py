"""Structural services: structural_hash/structural_equal and JSON graph serialization."""

from __future__ import annotations

from cases import Case

_ARR = "import tvm_ffi\narr = tvm_ffi.Array([1, 2, 3])\nother = tvm_ffi.Array([1, 2, 3])\n"
_JSON = "import tvm_ffi\nfrom tvm_ffi.serialization import to_json_graph_str\narr = tvm_ffi.Array([1, 2, 3])\n"
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

CASES = [
    Case("structural_hash(3-element Array)", _ARR, "tvm_ffi.structural_hash(arr)", ref_target=0.5),
    Case("structural_equal(3-element Arrays)", _ARR, "tvm_ffi.structural_equal(arr, other)", ref_target=0.5),
    Case("structural_hash(10^5-node DAG)", _DAG, "tvm_ffi.structural_hash(dag)", ref_target=0.5),
    Case("structural_equal(10^5-node DAGs)", _DAG, "tvm_ffi.structural_equal(dag, dag2)", ref_target=0.5),
    Case("to_json_graph_str(3-element Array)", _JSON, "to_json_graph_str(arr)", ref_target=0.3),
]
