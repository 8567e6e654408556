"""Per-thread current streams of the FFI environment (``TVMFFIEnvSetStream``).

Kernels read the current stream of their device with ``TVMFFIEnvGetStream``; these helpers set
it for the current thread within a ``with`` block.
"""

from __future__ import annotations

from ctypes import c_void_p
from types import TracebackType
from typing import Any

from . import _core

__all__ = ["StreamContext", "get_raw_stream", "use_raw_stream", "use_torch_stream"]


def _stream_address(stream: int | c_void_p | None) -> int:
    if stream is None:
        return 0
    if isinstance(stream, c_void_p):
        return stream.value or 0
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    raise TypeError(
        f"stream must be an int address or ctypes.c_void_p, got `{type(stream).__name__}` "
        "(use use_torch_stream for torch streams)"
    )


def _require_device(device: object) -> None:
    """Raises TypeError unless ``device`` is a ``tvm_ffi.Device``."""
    if not isinstance(device, _core.Device):
        raise TypeError(f"device must be a tvm_ffi.Device, got `{type(device).__name__}`")


class StreamContext:
    """Make a stream current for a device while the context is active.

    On entry the stream becomes the device's current stream on this thread; on exit the one it
    replaced is restored. The same context may be entered again while active (nesting): each exit
    restores what its matching entry replaced.

    Parameters
    ----------
    device : Device
        The device whose stream is set.
    stream : int, ctypes.c_void_p or None
        The stream handle, as an address (None means the default stream, 0).

    Raises
    ------
    TypeError
        When ``device`` is not a :class:`tvm_ffi.Device` or ``stream`` is not an address.

    Examples
    --------
    >>> dev = tvm_ffi.device("cuda", 0)
    >>> with tvm_ffi.StreamContext(dev, 0x1234):
    ...     hex(tvm_ffi.get_raw_stream(dev))
    '0x1234'
    >>> tvm_ffi.get_raw_stream(dev)
    0
    """

    def __init__(self, device: _core.Device, stream: int | c_void_p | None) -> None:
        """Remembers the device and the stream to make current."""
        # Checks inlined, int addresses first: launch code enters a context per kernel call.
        if type(device) is not _core.Device:
            _require_device(device)
        self.device_type = device.dlpack_device_type()
        self.device_id = device.index
        self.stream = stream if type(stream) is int else _stream_address(stream)
        self._saved: list[int] = []

    def __enter__(self) -> StreamContext:
        """Makes the stream current for this thread."""
        self._saved.append(_core._env_set_current_stream(self.device_type, self.device_id, self.stream))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Restores the stream that was current before the matching entry."""
        if not self._saved:
            raise RuntimeError("StreamContext exited more times than it was entered: the stream it "
                               "replaced was already restored")
        _core._env_set_current_stream(self.device_type, self.device_id, self._saved.pop())


def use_raw_stream(device: _core.Device, stream: int | c_void_p) -> StreamContext:
    """Return a context that makes a raw stream handle current for ``device``.

    Parameters
    ----------
    device : Device
        The device whose stream is set.
    stream : int or ctypes.c_void_p
        The stream handle (for example ``cudaStream_t``) as an address.

    Returns
    -------
    StreamContext
        The context; enter it with ``with``.

    Raises
    ------
    ValueError
        When ``stream`` is neither an int nor a ``c_void_p`` (torch streams go through
        :func:`use_torch_stream`).

    Examples
    --------
    >>> dev = tvm_ffi.device("cuda:0")
    >>> with tvm_ffi.use_raw_stream(dev, 42):
    ...     tvm_ffi.get_raw_stream(dev)
    42
    """
    if type(stream) is not int and (not isinstance(stream, (int, c_void_p)) or isinstance(stream, bool)):
        raise ValueError(
            "use_raw_stream only accepts int or c_void_p as stream input, "
            f"got `{type(stream).__name__}`; use use_torch_stream for torch streams"
        )
    return StreamContext(device, stream)


def get_raw_stream(device: _core.Device) -> int:
    """Return the current stream of ``device`` on this thread.

    Parameters
    ----------
    device : Device
        The device to ask about.

    Returns
    -------
    int
        The stream address, 0 when none is set.

    Raises
    ------
    TypeError
        When ``device`` is not a :class:`tvm_ffi.Device`.

    Examples
    --------
    >>> tvm_ffi.get_raw_stream(tvm_ffi.device("cuda", 1))
    0
    """
    if type(device) is not _core.Device:
        _require_device(device)
    return _core._env_get_current_stream(device.dlpack_device_type(), device.index)


class TorchStreamContext:
    """Enters a torch stream context and makes torch's current stream the FFI stream too."""

    def __init__(self, context: Any) -> None:
        """``context``: a ``torch.cuda.Stream``, a ``torch.cuda.graph``, or None (current)."""
        self.torch_context = context
        self._ffi: StreamContext | None = None

    def __enter__(self) -> TorchStreamContext:
        """Enters the torch context, then mirrors its stream into the FFI environment."""
        import torch  # noqa: PLC0415  (optional dependency)

        if self.torch_context is not None:
            self.torch_context.__enter__()
        stream = torch.cuda.current_stream()
        device = _core.Device("cuda", stream.device.index or 0)
        self._ffi = StreamContext(device, int(stream.cuda_stream))
        self._ffi.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Restores the FFI stream, then leaves the torch context."""
        if self._ffi is not None:
            self._ffi.__exit__(exc_type, exc, tb)
            self._ffi = None
        if self.torch_context is not None:
            self.torch_context.__exit__(exc_type, exc, tb)


def use_torch_stream(context: Any = None) -> TorchStreamContext:
    """Return a context that makes a torch CUDA stream the FFI stream of its device too.

    Parameters
    ----------
    context : Any, optional
        A ``torch.cuda.Stream``, a ``torch.cuda.StreamContext`` or a ``torch.cuda.graph``;
        None (the default) uses torch's current stream.

    Returns
    -------
    TorchStreamContext
        The context; entering it enters ``context`` first, then mirrors torch's current stream.

    Raises
    ------
    ImportError
        When PyTorch is not installed.

    Examples
    --------
    >>> with tvm_ffi.use_torch_stream(torch.cuda.Stream()):  # doctest: +SKIP
    ...     kernel(x, y)  # runs on the stream torch uses
    """
    try:
        import torch  # noqa: F401, PLC0415  (optional dependency)
    except ImportError as err:
        raise ImportError("use_torch_stream requires PyTorch, which is not installed") from err
    return TorchStreamContext(context)
