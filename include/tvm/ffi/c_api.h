/*
 * tvm/ffi/c_api.h -- the TVM-FFI open ABI, as C declarations.
 *
 * One 16-byte tagged value (TVMFFIAny), one 24-byte object header (TVMFFIObject), one calling
 * convention (TVMFFISafeCallType) and the exported runtime functions around them. Names, values
 * and layouts match the released reference ABI 0.1.16, so C and C++ written for
 * the reference compile unchanged against this header and link against either runtime.
 * Valid C11 and C++17.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

/* ---- version of the ABI this header describes ---- */
#define TVM_FFI_VERSION_MAJOR 0
#define TVM_FFI_VERSION_MINOR 1
#define TVM_FFI_VERSION_PATCH 16

/* ---- symbol visibility ---- */
#ifdef _MSC_VER
#define TVM_FFI_WEAK __declspec(selectany)
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif

/* TVM_FFI_DLL marks runtime entry points; TVM_FFI_DLL_EXPORT marks what kernels export. */
#if defined(_WIN32)
#ifdef TVM_FFI_EXPORTS
#define TVM_FFI_DLL __declspec(dllexport)
#else
#define TVM_FFI_DLL __declspec(dllimport)
#endif
#define TVM_FFI_DLL_EXPORT __declspec(dllexport)
#else
#define TVM_FFI_DLL __attribute__((visibility("default")))
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((__pure__))
#else
#define TVM_FFI_ATTRIBUTE_PURE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* C++ gives the ABI enums a fixed 32-bit underlying type; C enums are int-sized already. */
#ifdef __cplusplus
#define TVM_FFI_ENUM_BEGIN(Name) enum Name : int32_t {
#define TVM_FFI_ENUM_END(Name) };
#else
#define TVM_FFI_ENUM_BEGIN(Name) typedef enum {
#define TVM_FFI_ENUM_END(Name) } Name;
#endif

/* Type index space shared by TVMFFIAny.type_index and TVMFFIObject.type_index.
 * [0, 64): values stored inline in an Any; [64, 128): built-in objects; [128, ...): runtime
 * allocated object types. */
TVM_FFI_ENUM_BEGIN(TVMFFITypeIndex)
  kTVMFFIAny = -1,            /* static "any type" annotation; never stored in a value */
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  kTVMFFIDLTensorPtr = 7,     /* non-owning DLTensor* */
  kTVMFFIRawStr = 8,          /* NUL-terminated const char*, views only */
  kTVMFFIByteArrayPtr = 9,    /* TVMFFIByteArray*, views only */
  kTVMFFIObjectRValueRef = 10, /* pointer to an object slot the callee may steal */
  kTVMFFISmallStr = 11,       /* up to 7 bytes inline */
  kTVMFFISmallBytes = 12,     /* up to 7 bytes inline */
  kTVMFFIUnchanged = 13,      /* structural-mutation marker */
  kTVMFFIStaticObjectBegin = 64,
  kTVMFFIObject = 64,
  kTVMFFIStr = 65,
  kTVMFFIBytes = 66,
  kTVMFFIError = 67,
  kTVMFFIFunction = 68,
  kTVMFFIShape = 69,
  kTVMFFITensor = 70,
  kTVMFFIArray = 71,
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  kTVMFFIOpaquePyObject = 74,
  kTVMFFIList = 75,
  kTVMFFIDict = 76,
  kTVMFFIVisitInterrupt = 77,
  kTVMFFIBigInt = 78,
  kTVMFFIStaticObjectEnd = 79,
  kTVMFFIDynObjectBegin = 128
TVM_FFI_ENUM_END(TVMFFITypeIndex)

/* Address of a TVMFFIObject header. */
typedef void* TVMFFIObjectHandle;

/* Deleter flags: Strong = destroy contents, Weak = free memory, Both = the two at once. */
TVM_FFI_ENUM_BEGIN(TVMFFIObjectDeleterFlagBitMask)
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1 << 0,
  kTVMFFIObjectDeleterFlagBitMaskWeak = 1 << 1,
  kTVMFFIObjectDeleterFlagBitMaskBoth = (1 << 0) | (1 << 1)
TVM_FFI_ENUM_END(TVMFFIObjectDeleterFlagBitMask)

/* Header shared by every heap object (24 bytes). The reference count word packs the strong
 * count in its low 32 bits and the weak count in its high 32 bits, so one 64-bit atomic
 * decides whether the memory can go as well as the contents. */
typedef struct {
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t __padding;
  union {
    void (*deleter)(void* self, int flags);
    int64_t __ensure_align;
  };
} TVMFFIObject;

/* The 16-byte tagged value passed across every boundary. Unused bytes must be zero so that
 * values can be hashed and compared as raw bytes. */
typedef struct {
  int32_t type_index;
  union {
    uint32_t zero_padding;
    uint32_t small_str_len;
  };
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  };
} TVMFFIAny;

/* A (pointer, length) view of bytes; also the cell of string and bytes objects. */
typedef struct {
  const char* data;
  size_t size;
} TVMFFIByteArray;

/* Cell of a shape object: a view of int64 extents. */
typedef struct {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

/* Cell of Array and List objects: `size` Any values at `data`. data_deleter == NULL means the
 * buffer lives inside the object's own allocation. */
typedef struct {
  void* data;
  int64_t size;
  int64_t capacity;
  void (*data_deleter)(void*);
} TVMFFISeqCell;

/* How TVMFFIErrorCell.update_backtrace treats the text it is given. */
TVM_FFI_ENUM_BEGIN(TVMFFIBacktraceUpdateMode)
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1
TVM_FFI_ENUM_END(TVMFFIBacktraceUpdateMode)

/* Cell of an error object. backtrace lists the most recent frame first, so each layer that
 * the error crosses on its way out can append its own frames. */
typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  TVMFFIObjectHandle cause_chain;   /* owned by the cell; may be NULL */
  TVMFFIObjectHandle extra_context; /* owned by the cell; may be NULL */
} TVMFFIErrorCell;

/* The one calling convention: args are borrowed views, result is an owned Any that the caller
 * zero-initialised. Returns 0 on success, -1 with the error in the thread-local slot, or -2
 * when the frontend (Python) already holds a pending exception. */
typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/* Cell of a function object. cpp_call is a C++ throwing entry and stays NULL for functions not
 * created by C++ code: inline C++ prefers it whenever it is set. */
typedef struct {
  TVMFFISafeCallType safe_call;
  void* cpp_call;
} TVMFFIFunctionCell;

/* Cell of an opaque object wrapping a foreign handle (a PyObject* for Python). */
typedef struct {
  void* handle;
} TVMFFIOpaqueObjectCell;

/* ABI version triple. */
typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} TVMFFIVersion;

/* Sits immediately before an object body made by a TVMFFICustomAllocator. */
typedef struct {
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

/* Allocator hook for object bodies (used for Python-defined object types). */
typedef struct {
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  void* context;
} TVMFFICustomAllocator;

/* ---- reflection ---- */

TVM_FFI_ENUM_BEGIN(TVMFFIFieldFlagBitMask)
  kTVMFFIFieldFlagBitMaskWritable = 1 << 0,
  kTVMFFIFieldFlagBitMaskHasDefault = 1 << 1,
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 1 << 2,
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 1 << 3,
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 1 << 4,
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 1 << 5,
  kTVMFFIFieldFlagBitMaskReprOff = 1 << 6,
  kTVMFFIFieldFlagBitMaskCompareOff = 1 << 7,
  kTVMFFIFieldFlagBitMaskHashOff = 1 << 8,
  kTVMFFIFieldFlagBitMaskInitOff = 1 << 9,
  kTVMFFIFieldFlagBitMaskKwOnly = 1 << 10,
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 1 << 11,
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 1 << 12
TVM_FFI_ENUM_END(TVMFFIFieldFlagBitMask)

/* How structural equality/hash treats instances of a type. */
TVM_FFI_ENUM_BEGIN(TVMFFISEqHashKind)
  kTVMFFISEqHashKindUnsupported = 0,
  kTVMFFISEqHashKindTreeNode = 1,
  kTVMFFISEqHashKindFreeVar = 2,
  kTVMFFISEqHashKindDAGNode = 3,
  kTVMFFISEqHashKindConstTreeNode = 4,
  kTVMFFISEqHashKindUniqueInstance = 5
TVM_FFI_ENUM_END(TVMFFISEqHashKind)

/* Kind of definition region a field opens during structural visits. */
TVM_FFI_ENUM_BEGIN(TVMFFIDefRegionKind)
  kTVMFFIDefRegionKindNone = 0,
  kTVMFFIDefRegionKindPattern = 1,
  kTVMFFIDefRegionKindSimple = 2
TVM_FFI_ENUM_END(TVMFFIDefRegionKind)

/* Reads a field at field_addr into an owned Any. */
typedef int (*TVMFFIFieldGetter)(void* field_addr, TVMFFIAny* result);
/* Writes a borrowed value into the field at field_addr. */
typedef int (*TVMFFIFieldSetter)(void* field_addr, const TVMFFIAny* value);
/* Makes an empty instance of a type (owned). */
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

/* One reflected field of an object type. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata; /* JSON text */
  int64_t flags;            /* TVMFFIFieldFlagBitMask bits */
  int64_t size;
  int64_t alignment;
  int64_t offset; /* from the object header */
  TVMFFIFieldGetter getter;
  void* setter; /* TVMFFIFieldSetter, or a function handle when SetterIsFunctionObj is set */
  TVMFFIAny default_value_or_factory;
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

/* One reflected method (or global function entry). */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata; /* JSON text */
  int64_t flags;            /* kTVMFFIFieldFlagBitMaskIsStaticMethod for static methods */
  TVMFFIAny method;         /* a function */
} TVMFFIMethodInfo;

/* Extra, optional facts about a type. */
typedef struct {
  TVMFFIByteArray doc;
  TVMFFIObjectCreator creator;
  int32_t total_size;
  TVMFFISEqHashKind structural_eq_hash_kind;
} TVMFFITypeMetadata;

/* A per-attribute column over type indices: data[t - begin_index] for t in range. */
typedef struct {
  const TVMFFIAny* data;
  int32_t size;
  int32_t begin_index;
} TVMFFITypeAttrColumn;

/* Runtime type information; pointers returned for a type stay valid for the process. */
typedef struct TVMFFITypeInfo {
  int32_t type_index;
  int32_t type_depth;
  TVMFFIByteArray type_key;
  const struct TVMFFITypeInfo** type_ancestors; /* [d] = ancestor at depth d */
  uint64_t type_key_hash;
  int32_t num_fields;
  int32_t num_methods;
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
  const TVMFFITypeMetadata* metadata;
} TVMFFITypeInfo;

/* ---- version and objects ---- */

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

/* ---- type registry ---- */

TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);
TVM_FFI_DLL TVM_FFI_ATTRIBUTE_PURE const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index);
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index,
                                           const TVMFFITypeMetadata* metadata);
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);

/* ---- functions and the global registry ---- */

TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);

/* ---- errors ---- */

TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
    const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause_chain,
    TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);

/* ---- tensors ---- */

TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* ---- strings, bytes, big integers, dtypes ---- */

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* input: whole native-endian int64 words, least significant first, two's complement. */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);
/* Borrowed word view of an int (kTVMFFIInt) or BigInt value. */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* ---- one-time initialisation of static handles ---- */

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result));
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

/* ---- inline cell accessors: every cell starts right after the 24-byte header ---- */

#ifdef __cplusplus
#define TVM_FFI_HEADER_INLINE inline
#else
#define TVM_FFI_HEADER_INLINE static inline
#endif

TVM_FFI_HEADER_INLINE int32_t TVMFFIObjectGetTypeIndex(TVMFFIObjectHandle obj) {
  return ((TVMFFIObject*)obj)->type_index;
}

TVM_FFI_HEADER_INLINE TVMFFIByteArray TVMFFISmallBytesGetContentByteArray(const TVMFFIAny* value) {
  TVMFFIByteArray out;
  out.data = value->v_bytes;
  out.size = value->small_str_len;
  return out;
}

TVM_FFI_HEADER_INLINE TVMFFIByteArray* TVMFFIBytesGetByteArrayPtr(TVMFFIObjectHandle obj) {
  return (TVMFFIByteArray*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE TVMFFIErrorCell* TVMFFIErrorGetCellPtr(TVMFFIObjectHandle obj) {
  return (TVMFFIErrorCell*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE TVMFFIFunctionCell* TVMFFIFunctionGetCellPtr(TVMFFIObjectHandle obj) {
  return (TVMFFIFunctionCell*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCellPtr(TVMFFIObjectHandle obj) {
  return (TVMFFIOpaqueObjectCell*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE TVMFFIShapeCell* TVMFFIShapeGetCellPtr(TVMFFIObjectHandle obj) {
  return (TVMFFIShapeCell*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle obj) {
  return (DLTensor*)((char*)obj + sizeof(TVMFFIObject));
}

TVM_FFI_HEADER_INLINE DLDevice TVMFFIDLDeviceFromIntPair(int32_t device_type, int32_t device_id) {
  DLDevice device;
  device.device_type = (DLDeviceType)device_type;
  device.device_id = device_id;
  return device;
}

#undef TVM_FFI_ENUM_BEGIN
#undef TVM_FFI_ENUM_END

#ifdef __cplusplus
}  // extern "C"
#endif

#endif /* TVM_FFI_C_API_H_ */
