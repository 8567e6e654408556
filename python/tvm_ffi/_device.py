"""Devices: the DLPack device-type enum and the ``device()`` constructor.

``tvm_ffi.Device`` itself is the C type ``_core.Device`` (it is passed by value on every call);
this module only adds the user-facing helpers around it.
"""

from __future__ import annotations

from enum import IntEnum

from . import _core

__all__ = ["DLDeviceType", "Device", "device"]

Device = _core.Device


def _create_device_from_tuple(cls: type[_core.Device], device_type: int, device_id: int) -> _core.Device:
    """A ``cls`` device from its DLPack pair: how pickles rebuild devices."""
    if cls is _core.Device:
        return _core.Device(device_type, device_id)
    return cls(device_type, device_id)


# Pickles name it `tvm_ffi.core._create_device_from_tuple` with the class `tvm_ffi.core.Device`,
# as the reference's do, so either package loads device pickles made by the other.
_create_device_from_tuple.__module__ = "tvm_ffi.core"
_core._create_device_from_tuple = _create_device_from_tuple


class DLDeviceType(IntEnum):
    """``DLDeviceType`` codes of DLPack (the ``device_type`` of a ``DLDevice``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


# Pickled members name the class `tvm_ffi.core.DLDeviceType`, where the reference defines it, so
# either package loads the other's pickles.
DLDeviceType.__module__ = "tvm_ffi.core"


def device(device_type: str | int | DLDeviceType | _core.Device, index: int | None = None) -> _core.Device:
    """Makes a :class:`Device` from a name (``"cuda"``, ``"cuda:1"``) or a ``DLDeviceType`` code.

    ``index`` defaults to 0, or to the index written in the name; a ``Device`` is returned as is.

    Parameters
    ----------
    device_type : str, int, DLDeviceType or Device
        ``"cpu"``, ``"cuda"``, ``"cuda:1"``, a ``DLDeviceType`` code, or a device.
    index : int, optional
        The device ordinal.

    Returns
    -------
    Device
        The device.

    Raises
    ------
    ValueError
        An unknown device name, or an ``index`` that contradicts the given device.

    Examples
    --------
    >>> tvm_ffi.device("cuda:1") == tvm_ffi.device("cuda", 1) == tvm_ffi.device(tvm_ffi.DLDeviceType.kDLCUDA, 1)
    True
    """
    if type(device_type) is str:  # the common case: straight to the constructor, which parses it
        return _core._CLASS_DEVICE(device_type, index)
    if isinstance(device_type, _core.Device):
        if index is not None and index != device_type.index:
            raise ValueError(f"device({device_type!r}, index={index}): that device has index {device_type.index}")
        return device_type
    if isinstance(device_type, IntEnum):
        device_type = int(device_type)
    # The class installed with core._set_class_device (a framework's Device subclass).
    return _core._CLASS_DEVICE(device_type, index)
