"""Embed a CUBIN (or any binary blob) into an object file, for ``TVM_FFI_EMBED_CUBIN(name)``.

The object gains the read-only bytes between the symbols ``__tvm_ffi__cubin_<name>`` and
``__tvm_ffi__cubin_<name>_end``, local to it, so several objects may embed the same name.
Command line::

    python -m tvm_ffi.utils.embed_cubin --output-obj new.o --input-obj old.o \\
        --cubin kernels.cubin --name my_kernels

Needs a C compiler driver (``$CC``, default ``cc``) to assemble, and GNU ``ld`` and ``objcopy``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["cubin_symbol_names", "embed_cubin", "main"]

# CUDA's loader reads cubins through 8-byte fields; a wider alignment costs nothing.
_ALIGNMENT = 16


def cubin_symbol_names(name: str) -> tuple[str, str]:
    """Name the symbols that bracket the bytes embedded under ``name``.

    Parameters
    ----------
    name : str
        The name used in ``TVM_FFI_EMBED_CUBIN(name)``; a C identifier.

    Returns
    -------
    tuple of (str, str)
        The start and end symbols.

    Raises
    ------
    ValueError
        When ``name`` is not a C identifier.

    Examples
    --------
    >>> from tvm_ffi.utils.embed_cubin import cubin_symbol_names
    >>> cubin_symbol_names("kernels")
    ('__tvm_ffi__cubin_kernels', '__tvm_ffi__cubin_kernels_end')
    """
    if not name.isidentifier():
        raise ValueError(f"embed_cubin: name must be a C identifier, got {name!r}")
    return f"__tvm_ffi__cubin_{name}", f"__tvm_ffi__cubin_{name}_end"


def _assembly(blob: Path, name: str) -> str:
    start, end = cubin_symbol_names(name)
    quoted = str(blob).replace("\\", "\\\\").replace('"', '\\"')
    return (
        f'.section .rodata.tvm_ffi_cubin_{name},"a"\n'
        f".balign {_ALIGNMENT}\n"
        f".globl {start}\n{start}:\n"
        f'.incbin "{quoted}"\n'
        f".globl {end}\n{end}:\n"
        # No executable stack is needed for data; without this note the linker warns.
        '.section .note.GNU-stack,"",@progbits\n'
    )


def _run(cmd: list[str], step: str, verbose: bool) -> None:
    if verbose:
        print(f"[{step}] {shlex.join(cmd)}")
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(
            f"embed_cubin: {step} failed with status {proc.returncode}\n"
            f"command: {shlex.join(cmd)}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
        )


def embed_cubin(
    cubin_path: Path, input_obj_path: Path, output_obj_path: Path, name: str, verbose: bool = False
) -> None:
    """Write an object file that holds another object file plus a CUBIN image.

    The result may replace the input (``output_obj_path`` may be ``input_obj_path``); it is
    written only once the new object is complete.

    Parameters
    ----------
    cubin_path : Path
        The CUBIN (or any binary) to embed.
    input_obj_path : Path
        The object file that uses ``TVM_FFI_EMBED_CUBIN(name)``.
    output_obj_path : Path
        Where to write the combined object.
    name : str
        The name used in ``TVM_FFI_EMBED_CUBIN(name)``.
    verbose : bool, optional
        Print each command (default False).

    Raises
    ------
    FileNotFoundError
        When an input is missing.
    RuntimeError
        When the assembler, ``ld`` or ``objcopy`` fails (with the command and its output).
    """
    cubin_path, input_obj_path, output_obj_path = Path(cubin_path), Path(input_obj_path), Path(output_obj_path)
    start, end = cubin_symbol_names(name)
    if not cubin_path.is_file():
        raise FileNotFoundError(f"CUBIN file not found: {cubin_path}")
    if not input_obj_path.is_file():
        raise FileNotFoundError(f"Input object file not found: {input_obj_path}")
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory(prefix="tvm_ffi_embed_") as tmp:
        asm = Path(tmp) / "blob.S"
        asm.write_text(_assembly(cubin_path.resolve(), name))
        blob_obj = Path(tmp) / "blob.o"
        _run([cc, "-c", str(asm), "-o", str(blob_obj)], "assemble", verbose)
        merged = Path(tmp) / "merged.o"
        _run(["ld", "-r", "-o", str(merged), str(input_obj_path), str(blob_obj)], "ld -r (merge)", verbose)
        # Local only after the merge, so references from the input object resolve first.
        _run(["objcopy", "--localize-symbol", start, "--localize-symbol", end, str(merged)], "objcopy", verbose)
        output_obj_path.parent.mkdir(parents=True, exist_ok=True)
        staging = output_obj_path.with_name(f".{output_obj_path.name}.{os.getpid()}.tmp")
        staging.write_bytes(merged.read_bytes())
        os.replace(staging, output_obj_path)
    if verbose:
        print(f"embedded {cubin_path} ({cubin_path.stat().st_size} bytes) as {start}..{end} in {output_obj_path}")


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m tvm_ffi.utils.embed_cubin``.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 ok, 1 missing input, 2 tool failure.
    """
    parser = argparse.ArgumentParser(
        prog="python -m tvm_ffi.utils.embed_cubin",
        description="Embed CUBIN data into an object file that uses TVM_FFI_EMBED_CUBIN(name).",
    )
    parser.add_argument("--output-obj", required=True, metavar="PATH", help="object file to write")
    parser.add_argument("--input-obj", required=True, metavar="PATH", help="object file to extend")
    parser.add_argument("--cubin", required=True, metavar="PATH", help="binary to embed")
    parser.add_argument("--name", required=True, metavar="NAME", help="name used in TVM_FFI_EMBED_CUBIN(NAME)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each command")
    args = parser.parse_args(argv)
    try:
        embed_cubin(Path(args.cubin), Path(args.input_obj), Path(args.output_obj), args.name, args.verbose)
    except FileNotFoundError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except (RuntimeError, ValueError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
