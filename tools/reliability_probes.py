"""Reliability probes, each run on our package and on the reference in a fresh subprocess.

    .venv/bin/python tools/reliability_probes.py        # prints a markdown table

Each probe is a short script doing something a user can do by accident (or a hostile kernel on
purpose); it prints one line starting with "OK" when the package answered with a clean Python
exception or the right result. Anything else is reported as it was: a crash (signal), a hang
(timeout), or the wrong answer the script printed. Kernels are the test kernels of tests/
(built once here against our headers; in the reference's process they bind to its runtime).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tools"), str(REPO / "benchmarks")]

from _hostile_kernel import HOSTILE_KERNEL_SOURCE  # noqa: E402
from _kernel_lib import KERNEL_SOURCE, compile_kernel  # noqa: E402
from _thread_kernel import THREAD_KERNEL_SOURCE  # noqa: E402
from reference_package import REFPKG_DIR, install_reference  # noqa: E402
from refpkg import ours_env, reference_env  # noqa: E402

PRELUDE = """
import ctypes, os, sys, numpy as np, tvm_ffi
K = {k: tvm_ffi.load_module(os.environ["PROBE_" + k.upper()]) for k in ("kernel", "threads", "hostile")}

class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]

class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]

class Managed(ctypes.Structure):
    pass

DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(Managed))
Managed._fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                    ("deleter", DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

class Producer:
    \"\"\"A versioned DLPack producer in ctypes whose deleter is Python code.\"\"\"
    def __init__(self, lanes=1):
        self.buffer = (ctypes.c_double * 1)(1.0)
        self.shape = (ctypes.c_int64 * 1)(1)
        self.deleted = 0
        self.lanes = lanes
    def _on_delete(self, _):
        self.deleted += 1
    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        self.managed = m = Managed(major=1, minor=0)
        m.deleter = self._deleter = DELETER(self._on_delete)
        t = m.dl_tensor
        t.data, t.device_type, t.device_id, t.ndim = ctypes.addressof(self.buffer), 1, 0, 1
        t.dtype = DLDataType(2, 64, self.lanes)
        t.shape = self.shape
        return capsule_new(ctypes.addressof(m), b"dltensor_versioned", None)
"""

PROBES: dict[str, str] = {
    "kernel waits for its C thread calling Python (default GIL setting)": """
print("OK" if K["threads"].call_in_c_thread(lambda x: x + 1, 1) == 2 else "wrong result")
""",
    "read-only NumPy array to a kernel that writes": """
a = np.zeros(4, dtype="float32"); a.setflags(write=False)
try:
    K["threads"].fill(a, 1.0)
    print("wrote into read-only memory" if a[0] == 1 else "accepted")
except BufferError:
    print("OK")
""",
    "callbacks nested until the C stack ends (1 MiB stack, recursion limit 10**7)": """
sys.setrecursionlimit(10**7)
call = K["kernel"].call
def down(n):
    return call(down, n - 1) + 1 if n else 0
try:
    down(10**7)
except RecursionError:
    print("OK")
""",
    "load_module of a truncated shared library": """
data = open(os.environ["PROBE_KERNEL"], "rb").read()
path = os.environ["PROBE_TMP"] + "/truncated_kernel.so"
open(path, "wb").write(data[:6000])
try:
    tvm_ffi.load_module(path)
    print("loaded")
except Exception:
    print("OK")
""",
    "failing call with a tensor whose DLPack deleter is Python (200 calls)": """
ps = [Producer() for _ in range(200)]
kinds = set()
for p in ps:
    try:
        K["kernel"].add_one(p)
    except Exception as e:
        kinds.add(type(e).__name__)
freed = sum(p.deleted for p in ps)
print("OK" if freed == 200 and kinds == {"TypeError"} else f"freed {freed}/200, raised {sorted(kinds)}")
""",
    "kernel returns an object of an unregistered type index": """
try:
    K["hostile"].lying_object(99999, 99999); print("accepted")
except Exception:
    print("OK")
""",
    "kernel returns an object whose header disagrees with its Any": """
try:
    K["hostile"].lying_object(64, 99999); print("accepted")
except Exception:
    print("OK")
""",
    "kernel returns a RawStr (borrowed C string) result": """
try:
    r = K["hostile"].return_view(0, False); print(f"returned {r!r}")
except ValueError:
    print("OK")
""",
    "stream context exited twice": """
ctx = tvm_ffi.use_raw_stream(tvm_ffi.device("cuda:0"), 0x10)
with ctx:
    pass
try:
    ctx.__exit__(None, None, None)
    print("second exit accepted, stream now", tvm_ffi.get_raw_stream(tvm_ffi.device("cuda:0")))
except RuntimeError:
    print("OK")
except Exception as e:
    print(f"{type(e).__name__}: {e}")
""",
    "class gains __tvm_ffi_int__ after an instance was converted": """
import tvm_ffi.testing
echo = tvm_ffi.get_global_func("testing.echo")
class C: pass
echo(C())
C.__tvm_ffi_int__ = lambda self: 42
r = echo(C())
print("OK" if r == 42 else f"protocol ignored: got {type(r).__name__}")
""",
    "DLPack capsule with lanes=0": """
try:
    t = tvm_ffi.from_dlpack(Producer(lanes=0)); print("accepted, lanes", t.dtype.lanes)
except Exception:
    print("OK")
""",
}


def build_kernels(out: Path) -> dict[str, str]:
    paths = {}
    for name, source in (("kernel", KERNEL_SOURCE), ("threads", THREAD_KERNEL_SOURCE),
                         ("hostile", HOSTILE_KERNEL_SOURCE)):
        src = out / f"probe_{name}.c"
        src.write_text(source)
        paths[f"PROBE_{name.upper()}"] = str(compile_kernel(src, out / f"probe_{name}.so"))
    return paths


def small_stack() -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, hard))


def run_probe(code: str, env: dict[str, str]) -> str:
    try:
        proc = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True, env=env,
                              timeout=120, preexec_fn=small_stack)
    except subprocess.TimeoutExpired:
        return "hang (killed after 120 s)"
    if proc.returncode < 0:
        return f"crash (signal {-proc.returncode})"
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return f"exit {proc.returncode}: {last[:80]}"
    return "ok" if lines and lines[-1] == "OK" else (lines[-1] if lines else "no output")[:80]


def main(only: str = "") -> None:
    if install_reference(REFPKG_DIR) is not None:
        sys.exit("cannot install the reference package")
    with tempfile.TemporaryDirectory() as tmp:
        kernels = build_kernels(Path(tmp))
        extra = {**kernels, "PROBE_TMP": tmp, "PYTHONPATH": str(REPO / "tests")}
        base = {**os.environ, **extra}
        ours = ours_env(base)
        ours["PYTHONPATH"] = str(REPO / "tests")
        ref = reference_env(base)
        ref["PYTHONPATH"] = os.pathsep.join([str(REFPKG_DIR), str(REPO / "tests")])
        print("| probe | ours | reference |\n|---|---|---|")
        for name, code in PROBES.items():
            if only not in name:
                continue
            print(f"| {name} | {run_probe(code, ours)} | {run_probe(code, ref)} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
