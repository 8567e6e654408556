/*
 * dispatch.h -- the one answer to "what do I do with an argument of this Python type"
 * (dispatch.c): a table from type to entry, the entry carrying the converter for the type's
 * values and, for tensor producers, the DLPack exchange API the type publishes.
 *
 * Entries are validated by CPython's type version tag. CPython zeroes a type's tag (or clears
 * its valid-tag flag) when the type or a base changes and never hands a tag out twice, so a
 * matching tag means the same, unchanged type: no reference to the type is kept, and classes
 * made and dropped at run time can die. A type CPython gives no tag is classified per value.
 *
 * Converters are registered by the file that owns the concept (convert_args.c for plain
 * values and protocols, call.c for lists and dicts, callback.c for callables, tensor_import.c
 * for tensors), so this file depends on none of them.
 */
#ifndef TVM_FFI_PYTHON_DISPATCH_H_
#define TVM_FFI_PYTHON_DISPATCH_H_

#include "base.h"
#include "call_context.h"

typedef enum {
  kCoreArgOpaque = 0,       /* anything else: an OpaquePyObject */
  kCoreArgObject,           /* tvm_ffi Object and subclasses */
  kCoreArgContainer,        /* Array/List/Map/Dict: Objects that may remember a framework */
  kCoreArgRValueRef,        /* ObjectRValueRef */
  kCoreArgObjectProtocol,   /* __tvm_ffi_object__ */
  kCoreArgNumpy,            /* numpy.ndarray (exact): read through its C struct or buffer */
  kCoreArgTensor,           /* __dlpack__ / __dlpack_c_exchange_api__ producers */
  kCoreArgTensorView,       /* producers whose exchange API describes a tensor in place */
  kCoreArgIntegral,         /* int subclasses, numbers.Integral */
  kCoreArgReal,             /* float subclasses, numbers.Real */
  kCoreArgDataType,         /* tvm_ffi DataType */
  kCoreArgDTypeClass,       /* the public dtype class */
  kCoreArgFrameworkDType,   /* numpy.dtype / torch.dtype, through the dtype class */
  kCoreArgDevice,
  kCoreArgNativeStr,        /* String */
  kCoreArgNativeBytes,      /* Bytes */
  kCoreArgStr,
  kCoreArgBytes,            /* bytes, bytearray */
  kCoreArgSequence,         /* list, tuple: ffi.Array */
  kCoreArgDict,             /* dict: ffi.Map */
  kCoreArgVoidP,            /* ctypes.c_void_p */
  kCoreArgOpaquePtrProtocol, /* __tvm_ffi_opaque_ptr__ */
  kCoreArgCudaStream,       /* __cuda_stream__ */
  kCoreArgException,
  kCoreArgCallable,
  kCoreArgDLPackDataType,   /* __dlpack_data_type__ */
  kCoreArgDLPackDevice,     /* __dlpack_device__ without __dlpack__ */
  kCoreArgIntProtocol,      /* __tvm_ffi_int__ */
  kCoreArgFloatProtocol,    /* __tvm_ffi_float__ */
  kCoreArgValueProtocol,    /* __tvm_ffi_value__ */
  kCoreArgNumKinds,
} CoreArgKind;

typedef struct CoreDispatchEntry CoreDispatchEntry;

/* Writes a view of `value` into *out (see core_convert_arg in convert_args.h). */
typedef int (*CoreArgConverter)(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                                CoreCallContext* ctx);

struct CoreDispatchEntry {
  PyTypeObject* type; /* not a reference: only a live, unchanged type matches its tag */
  unsigned int version_tag;
  CoreArgKind kind;
  CoreArgConverter convert;
  const DLPackExchangeAPI* api; /* what the type publishes as __dlpack_c_exchange_api__ */
};

#define CORE_DISPATCH_SIZE 256
extern CoreDispatchEntry core_dispatch_table[CORE_DISPATCH_SIZE];

/* A tag that still describes the type's attributes. Before 3.11, PyType_Modified cleared only
 * the valid-tag flag and left the number; newer versions zero it (and dropped the flag). */
static inline int core_type_tag_valid(PyTypeObject* t) {
#ifdef Py_TPFLAGS_VALID_VERSION_TAG
  if (!(t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
#endif
  return t->tp_version_tag != 0;
}

static inline CoreDispatchEntry* core_dispatch_slot(PyTypeObject* t) {
  uintptr_t bits = (uintptr_t)t;
  return &core_dispatch_table[((bits >> 5) ^ (bits >> 13)) & (CORE_DISPATCH_SIZE - 1)];
}

/* *out: the DLPackExchangeAPI `type` publishes as __dlpack_c_exchange_api__ (a capsule or an int
 * address), NULL when none or of an unknown layout; -1 with an exception when malformed. */
int core_exchange_api_of(PyTypeObject* type, const DLPackExchangeAPI** out);

/* Classifies `t`, remembering the answer when the type has a version tag; an untagged type's
 * entry is written to *scratch. NULL with exception when the type publishes a malformed
 * exchange API. */
const CoreDispatchEntry* core_dispatch_classify(PyTypeObject* t, CoreDispatchEntry* scratch);

/* The entry for `t`. */
static inline const CoreDispatchEntry* core_dispatch_lookup(PyTypeObject* t,
                                                            CoreDispatchEntry* scratch) {
  const CoreDispatchEntry* e = core_dispatch_slot(t);
  if (CORE_LIKELY(e->type == t && e->version_tag == t->tp_version_tag && core_type_tag_valid(t))) {
    return e;
  }
  return core_dispatch_classify(t, scratch);
}

/* The container base types (SeqBase, MapBase), set by container.c at start-up: their instances
 * and subclasses' are kCoreArgContainer (framework.c converts them). */
extern PyTypeObject* core_container_types[2];
int core_is_container_type(PyTypeObject* t);

/* Installs the converter of one kind; forgets every classification. */
void core_dispatch_register(CoreArgKind kind, CoreArgConverter convert);
/* Forgets every classification (after the dtype class changes). */
void core_dispatch_clear(void);

/* _set_class_dtype(cls): the public dtype class, for results and for framework dtypes. */
PyObject* core_mod_set_class_dtype(PyObject* self, PyObject* cls);
int core_dispatch_init(void);

#endif /* TVM_FFI_PYTHON_DISPATCH_H_ */
