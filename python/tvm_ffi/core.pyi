"""Type stubs of ``tvm_ffi.core``: the same module object as ``tvm_ffi._core``."""

from ._core import (
    _CLASS_DEVICE as _CLASS_DEVICE,
)
from ._core import (
    _CLASS_TENSOR as _CLASS_TENSOR,
)
from ._core import (
    ERROR_NAME_TO_TYPE as ERROR_NAME_TO_TYPE,
)
from ._core import (
    ERROR_TYPE_TO_NAME as ERROR_TYPE_TO_NAME,
)
from ._core import (
    KWARGS as KWARGS,
)
from ._core import (
    MISSING as MISSING,
)
from ._core import (
    Bytes as Bytes,
)
from ._core import (
    CAny as CAny,
)
from ._core import (
    CContainerBase as CContainerBase,
)
from ._core import (
    CObject as CObject,
)
from ._core import (
    ConstructorInit as ConstructorInit,
)
from ._core import (
    DataType as DataType,
)
from ._core import (
    Device as Device,
)
from ._core import (
    DeviceIndexError as DeviceIndexError,
)
from ._core import (
    DLDeviceType as DLDeviceType,
)
from ._core import (
    DLTensorTestWrapper as DLTensorTestWrapper,
)
from ._core import (
    Error as Error,
)
from ._core import (
    FFIProperty as FFIProperty,
)
from ._core import (
    FieldGetter as FieldGetter,
)
from ._core import (
    FieldProperty as FieldProperty,
)
from ._core import (
    FieldSetter as FieldSetter,
)
from ._core import (
    Function as Function,
)
from ._core import (
    InstanceMethod as InstanceMethod,
)
from ._core import (
    MapBase as MapBase,
)
from ._core import (
    NotAMappingError as NotAMappingError,
)
from ._core import (
    Object as Object,
)
from ._core import (
    ObjectConvertible as ObjectConvertible,
)
from ._core import (
    ObjectRValueRef as ObjectRValueRef,
)
from ._core import (
    OpaquePyObject as OpaquePyObject,
)
from ._core import (
    PyNativeObject as PyNativeObject,
)
from ._core import (
    SeqBase as SeqBase,
)
from ._core import (
    String as String,
)
from ._core import (
    Tensor as Tensor,
)
from ._core import (
    TypeField as TypeField,
)
from ._core import (
    TypeInfo as TypeInfo,
)
from ._core import (
    TypeMethod as TypeMethod,
)
from ._core import (
    TypeSchema as TypeSchema,
)
from ._core import (
    _class_for_type_index as _class_for_type_index,
)
from ._core import (
    _convert as _convert,
)
from ._core import (
    _convert_to_ffi_error as _convert_to_ffi_error,
)
from ._core import (
    _convert_to_ffi_func as _convert_to_ffi_func,
)
from ._core import (
    _convert_to_ffi_func_in_framework as _convert_to_ffi_func_in_framework,
)
from ._core import (
    _convert_to_opaque_object as _convert_to_opaque_object,
)
from ._core import (
    _create_cdtype_from_tuple as _create_cdtype_from_tuple,
)
from ._core import (
    _create_device_from_tuple as _create_device_from_tuple,
)
from ._core import (
    _env_get_current_stream as _env_get_current_stream,
)
from ._core import (
    _env_set_current_stream as _env_set_current_stream,
)
from ._core import (
    _fallback_class_factory as _fallback_class_factory,
)
from ._core import (
    _get_global_func as _get_global_func,
)
from ._core import (
    _live_callbacks as _live_callbacks,
)
from ._core import (
    _live_tensor_views as _live_tensor_views,
)
from ._core import (
    _lookup_or_register_type_info_from_type_key as _lookup_or_register_type_info_from_type_key,
)
from ._core import (
    _lookup_type_attr as _lookup_type_attr,
)
from ._core import (
    _new_object as _new_object,
)
from ._core import (
    _object_type_key_to_index as _object_type_key_to_index,
)
from ._core import (
    _ObjectSlotsMeta as _ObjectSlotsMeta,
)
from ._core import (
    _register_global_func as _register_global_func,
)
from ._core import (
    _register_object_class as _register_object_class,
)
from ._core import (
    _register_py_class as _register_py_class,
)
from ._core import (
    _set_class_device as _set_class_device,
)
from ._core import (
    _set_class_dtype as _set_class_dtype,
)
from ._core import (
    _set_class_shape as _set_class_shape,
)
from ._core import (
    _set_class_tensor as _set_class_tensor,
)
from ._core import (
    _set_convert_rules as _set_convert_rules,
)
from ._core import (
    _set_error_hooks as _set_error_hooks,
)
from ._core import (
    _to_py_class_value as _to_py_class_value,
)
from ._core import (
    _type_cls_to_type_info as _type_cls_to_type_info,
)
from ._core import (
    _type_index_ancestors as _type_index_ancestors,
)
from ._core import (
    _type_index_to_key as _type_index_to_key,
)
from ._core import (
    _type_info_raw as _type_info_raw,
)
from ._core import (
    _type_info_shapes as _type_info_shapes,
)
from ._core import (
    convert as convert,
)
from ._core import (
    from_dlpack as from_dlpack,
)
from ._core import (
    object_repr as object_repr,
)
from ._core import (
    structural_equal as structural_equal,
)
from ._core import (
    structural_hash as structural_hash,
)
