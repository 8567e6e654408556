"""``tvm_ffi.stub``: the ``tvm-ffi-stubgen`` stub generator (``python -m tvm_ffi.stub``).

It rewrites the ``# tvm-ffi-stubgen(begin): ...`` / ``# tvm-ffi-stubgen(end)`` blocks of Python
files with typed declarations of a library's global functions and reflected object types, and
scaffolds new packages for a library (``--init-pypkg/--init-lib/--init-prefix``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tvm-ffi-stubgen`` command (see :func:`tvm_ffi.stub.cli.main`).

    The command module is imported on call, so ``python -m tvm_ffi.stub.cli`` (what
    ``tvm_ffi_configure_target(... STUB_DIR ...)`` runs) finds it not yet imported.

    Parameters
    ----------
    argv : Sequence[str], optional
        The command-line arguments; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit status: 0 on success, 1 when ``--check`` finds stale files.
    """
    from .cli import main as run

    return run(argv)
