/*
 * layout_probe.c -- prints the binary layout our headers produce, one "name value" per line:
 * sizeof/alignof of every ABI struct, offsetof of every field, and the value of every
 * enumerator and version/flag macro. tests/test_abi_layout.py compiles it as C11 and as C++17
 * (against our headers and the reference headers) and compares with spec/ABI.md.
 */
#include <stdio.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#ifdef __cplusplus
#define ALIGNOF(T) alignof(T)
#else
#define ALIGNOF(T) _Alignof(T)
#endif

#define STRUCT(T) \
  printf("sizeof.%s %zu\nalignof.%s %zu\n", #T, sizeof(T), #T, (size_t)ALIGNOF(T))
#define FIELD(T, f) printf("offsetof.%s.%s %zu\n", #T, #f, offsetof(T, f))
#define VALUE(name) printf("value.%s %lld\n", #name, (long long)(name))

static void dlpack_structs(void) {
  STRUCT(DLPackVersion);
  FIELD(DLPackVersion, major);
  FIELD(DLPackVersion, minor);
  STRUCT(DLDevice);
  FIELD(DLDevice, device_type);
  FIELD(DLDevice, device_id);
  STRUCT(DLDataType);
  FIELD(DLDataType, code);
  FIELD(DLDataType, bits);
  FIELD(DLDataType, lanes);
  STRUCT(DLTensor);
  FIELD(DLTensor, data);
  FIELD(DLTensor, device);
  FIELD(DLTensor, ndim);
  FIELD(DLTensor, dtype);
  FIELD(DLTensor, shape);
  FIELD(DLTensor, strides);
  FIELD(DLTensor, byte_offset);
  STRUCT(DLManagedTensor);
  FIELD(DLManagedTensor, dl_tensor);
  FIELD(DLManagedTensor, manager_ctx);
  FIELD(DLManagedTensor, deleter);
  STRUCT(DLManagedTensorVersioned);
  FIELD(DLManagedTensorVersioned, version);
  FIELD(DLManagedTensorVersioned, manager_ctx);
  FIELD(DLManagedTensorVersioned, deleter);
  FIELD(DLManagedTensorVersioned, flags);
  FIELD(DLManagedTensorVersioned, dl_tensor);
  STRUCT(DLPackExchangeAPIHeader);
  FIELD(DLPackExchangeAPIHeader, version);
  FIELD(DLPackExchangeAPIHeader, prev_api);
  STRUCT(DLPackExchangeAPI);
  FIELD(DLPackExchangeAPI, header);
  FIELD(DLPackExchangeAPI, managed_tensor_allocator);
  FIELD(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync);
  FIELD(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync);
  FIELD(DLPackExchangeAPI, dltensor_from_py_object_no_sync);
  FIELD(DLPackExchangeAPI, current_work_stream);
  STRUCT(DLDeviceType);
  STRUCT(DLDataTypeCode);
}

static void core_structs(void) {
  STRUCT(TVMFFIAny);
  FIELD(TVMFFIAny, type_index);
  FIELD(TVMFFIAny, zero_padding);
  FIELD(TVMFFIAny, small_str_len);
  FIELD(TVMFFIAny, v_int64);
  FIELD(TVMFFIAny, v_float64);
  FIELD(TVMFFIAny, v_ptr);
  FIELD(TVMFFIAny, v_c_str);
  FIELD(TVMFFIAny, v_obj);
  FIELD(TVMFFIAny, v_dtype);
  FIELD(TVMFFIAny, v_device);
  FIELD(TVMFFIAny, v_bytes);
  FIELD(TVMFFIAny, v_uint64);
  STRUCT(TVMFFIObject);
  FIELD(TVMFFIObject, combined_ref_count);
  FIELD(TVMFFIObject, type_index);
  FIELD(TVMFFIObject, __padding);
  FIELD(TVMFFIObject, deleter);
  FIELD(TVMFFIObject, __ensure_align);
  STRUCT(TVMFFIByteArray);
  FIELD(TVMFFIByteArray, data);
  FIELD(TVMFFIByteArray, size);
  STRUCT(TVMFFIShapeCell);
  FIELD(TVMFFIShapeCell, data);
  FIELD(TVMFFIShapeCell, size);
  STRUCT(TVMFFISeqCell);
  FIELD(TVMFFISeqCell, data);
  FIELD(TVMFFISeqCell, size);
  FIELD(TVMFFISeqCell, capacity);
  FIELD(TVMFFISeqCell, data_deleter);
  STRUCT(TVMFFIErrorCell);
  FIELD(TVMFFIErrorCell, kind);
  FIELD(TVMFFIErrorCell, message);
  FIELD(TVMFFIErrorCell, backtrace);
  FIELD(TVMFFIErrorCell, update_backtrace);
  FIELD(TVMFFIErrorCell, cause_chain);
  FIELD(TVMFFIErrorCell, extra_context);
  STRUCT(TVMFFIFunctionCell);
  FIELD(TVMFFIFunctionCell, safe_call);
  FIELD(TVMFFIFunctionCell, cpp_call);
  STRUCT(TVMFFIOpaqueObjectCell);
  FIELD(TVMFFIOpaqueObjectCell, handle);
  STRUCT(TVMFFIVersion);
  FIELD(TVMFFIVersion, major);
  FIELD(TVMFFIVersion, minor);
  FIELD(TVMFFIVersion, patch);
  STRUCT(TVMFFIObjectAllocHeader);
  FIELD(TVMFFIObjectAllocHeader, delete_space);
  STRUCT(TVMFFICustomAllocator);
  FIELD(TVMFFICustomAllocator, allocate);
  FIELD(TVMFFICustomAllocator, context);
  STRUCT(TVMFFITypeIndex);
  STRUCT(TVMFFIObjectDeleterFlagBitMask);
  STRUCT(TVMFFIBacktraceUpdateMode);
  STRUCT(TVMFFIFieldFlagBitMask);
  STRUCT(TVMFFISEqHashKind);
  STRUCT(TVMFFIDefRegionKind);
}

static void reflection_structs(void) {
  STRUCT(TVMFFIFieldInfo);
  FIELD(TVMFFIFieldInfo, name);
  FIELD(TVMFFIFieldInfo, doc);
  FIELD(TVMFFIFieldInfo, metadata);
  FIELD(TVMFFIFieldInfo, flags);
  FIELD(TVMFFIFieldInfo, size);
  FIELD(TVMFFIFieldInfo, alignment);
  FIELD(TVMFFIFieldInfo, offset);
  FIELD(TVMFFIFieldInfo, getter);
  FIELD(TVMFFIFieldInfo, setter);
  FIELD(TVMFFIFieldInfo, default_value_or_factory);
  FIELD(TVMFFIFieldInfo, field_static_type_index);
  STRUCT(TVMFFIMethodInfo);
  FIELD(TVMFFIMethodInfo, name);
  FIELD(TVMFFIMethodInfo, doc);
  FIELD(TVMFFIMethodInfo, metadata);
  FIELD(TVMFFIMethodInfo, flags);
  FIELD(TVMFFIMethodInfo, method);
  STRUCT(TVMFFITypeMetadata);
  FIELD(TVMFFITypeMetadata, doc);
  FIELD(TVMFFITypeMetadata, creator);
  FIELD(TVMFFITypeMetadata, total_size);
  FIELD(TVMFFITypeMetadata, structural_eq_hash_kind);
  STRUCT(TVMFFITypeAttrColumn);
  FIELD(TVMFFITypeAttrColumn, data);
  FIELD(TVMFFITypeAttrColumn, size);
  FIELD(TVMFFITypeAttrColumn, begin_index);
  STRUCT(TVMFFITypeInfo);
  FIELD(TVMFFITypeInfo, type_index);
  FIELD(TVMFFITypeInfo, type_depth);
  FIELD(TVMFFITypeInfo, type_key);
  FIELD(TVMFFITypeInfo, type_ancestors);
  FIELD(TVMFFITypeInfo, type_key_hash);
  FIELD(TVMFFITypeInfo, num_fields);
  FIELD(TVMFFITypeInfo, num_methods);
  FIELD(TVMFFITypeInfo, fields);
  FIELD(TVMFFITypeInfo, methods);
  FIELD(TVMFFITypeInfo, metadata);
}

static void version_and_flag_macros(void) {
  VALUE(TVM_FFI_VERSION_MAJOR);
  VALUE(TVM_FFI_VERSION_MINOR);
  VALUE(TVM_FFI_VERSION_PATCH);
  VALUE(DLPACK_MAJOR_VERSION);
  VALUE(DLPACK_MINOR_VERSION);
  VALUE(DLPACK_FLAG_BITMASK_READ_ONLY);
  VALUE(DLPACK_FLAG_BITMASK_IS_COPIED);
  VALUE(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
}

static void dlpack_enums(void) {
  VALUE(kDLCPU);
  VALUE(kDLCUDA);
  VALUE(kDLCUDAHost);
  VALUE(kDLOpenCL);
  VALUE(kDLVulkan);
  VALUE(kDLMetal);
  VALUE(kDLVPI);
  VALUE(kDLROCM);
  VALUE(kDLROCMHost);
  VALUE(kDLExtDev);
  VALUE(kDLCUDAManaged);
  VALUE(kDLOneAPI);
  VALUE(kDLWebGPU);
  VALUE(kDLHexagon);
  VALUE(kDLMAIA);
  VALUE(kDLTrn);
  VALUE(kDLInt);
  VALUE(kDLUInt);
  VALUE(kDLFloat);
  VALUE(kDLOpaqueHandle);
  VALUE(kDLBfloat);
  VALUE(kDLComplex);
  VALUE(kDLBool);
  VALUE(kDLFloat8_e3m4);
  VALUE(kDLFloat8_e4m3);
  VALUE(kDLFloat8_e4m3b11fnuz);
  VALUE(kDLFloat8_e4m3fn);
  VALUE(kDLFloat8_e4m3fnuz);
  VALUE(kDLFloat8_e5m2);
  VALUE(kDLFloat8_e5m2fnuz);
  VALUE(kDLFloat8_e8m0fnu);
  VALUE(kDLFloat6_e2m3fn);
  VALUE(kDLFloat6_e3m2fn);
  VALUE(kDLFloat4_e2m1fn);
}

static void type_index_enum(void) {
  VALUE(kTVMFFIAny);
  VALUE(kTVMFFINone);
  VALUE(kTVMFFIInt);
  VALUE(kTVMFFIBool);
  VALUE(kTVMFFIFloat);
  VALUE(kTVMFFIOpaquePtr);
  VALUE(kTVMFFIDataType);
  VALUE(kTVMFFIDevice);
  VALUE(kTVMFFIDLTensorPtr);
  VALUE(kTVMFFIRawStr);
  VALUE(kTVMFFIByteArrayPtr);
  VALUE(kTVMFFIObjectRValueRef);
  VALUE(kTVMFFISmallStr);
  VALUE(kTVMFFISmallBytes);
  VALUE(kTVMFFIUnchanged);
  VALUE(kTVMFFIStaticObjectBegin);
  VALUE(kTVMFFIObject);
  VALUE(kTVMFFIStr);
  VALUE(kTVMFFIBytes);
  VALUE(kTVMFFIError);
  VALUE(kTVMFFIFunction);
  VALUE(kTVMFFIShape);
  VALUE(kTVMFFITensor);
  VALUE(kTVMFFIArray);
  VALUE(kTVMFFIMap);
  VALUE(kTVMFFIModule);
  VALUE(kTVMFFIOpaquePyObject);
  VALUE(kTVMFFIList);
  VALUE(kTVMFFIDict);
  VALUE(kTVMFFIVisitInterrupt);
  VALUE(kTVMFFIBigInt);
  VALUE(kTVMFFIStaticObjectEnd);
  VALUE(kTVMFFIDynObjectBegin);
}

static void other_enums(void) {
  VALUE(kTVMFFIObjectDeleterFlagBitMaskStrong);
  VALUE(kTVMFFIObjectDeleterFlagBitMaskWeak);
  VALUE(kTVMFFIObjectDeleterFlagBitMaskBoth);
  VALUE(kTVMFFIBacktraceUpdateModeReplace);
  VALUE(kTVMFFIBacktraceUpdateModeAppend);
  VALUE(kTVMFFIFieldFlagBitMaskWritable);
  VALUE(kTVMFFIFieldFlagBitMaskHasDefault);
  VALUE(kTVMFFIFieldFlagBitMaskIsStaticMethod);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  VALUE(kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  VALUE(kTVMFFIFieldFlagBitMaskReprOff);
  VALUE(kTVMFFIFieldFlagBitMaskCompareOff);
  VALUE(kTVMFFIFieldFlagBitMaskHashOff);
  VALUE(kTVMFFIFieldFlagBitMaskInitOff);
  VALUE(kTVMFFIFieldFlagBitMaskKwOnly);
  VALUE(kTVMFFIFieldFlagBitSetterIsFunctionObj);
  VALUE(kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  VALUE(kTVMFFISEqHashKindUnsupported);
  VALUE(kTVMFFISEqHashKindTreeNode);
  VALUE(kTVMFFISEqHashKindFreeVar);
  VALUE(kTVMFFISEqHashKindDAGNode);
  VALUE(kTVMFFISEqHashKindConstTreeNode);
  VALUE(kTVMFFISEqHashKindUniqueInstance);
  VALUE(kTVMFFIDefRegionKindNone);
  VALUE(kTVMFFIDefRegionKindPattern);
  VALUE(kTVMFFIDefRegionKindSimple);
}

int main(void) {
  dlpack_structs();
  core_structs();
  reflection_structs();
  version_and_flag_macros();
  dlpack_enums();
  type_index_enum();
  other_enums();
  return 0;
}
