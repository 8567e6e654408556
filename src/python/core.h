/*
 * core.h -- what the files of the tvm_ffi._core extension share.
 *
 * The extension is the per-call hot path between Python and TVMFFIAny (contract:
 * notes/core_api.md). Everything here has hidden visibility (the whole module is built with
 * -fvisibility=hidden); only PyInit__core leaves the shared object.
 *
 * Conventions:
 *  - Functions returning int: 0 ok, -1 with a Python exception set.
 *  - Functions returning PyObject*: a new reference, or NULL with a Python exception set.
 *  - "owned" Any: holds one strong reference when it is an object; "view": borrowed.
 */
#ifndef TVM_FFI_PYTHON_CORE_H_
#define TVM_FFI_PYTHON_CORE_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define CORE_LIKELY(x) __builtin_expect(!!(x), 1)
#define CORE_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Up to this many arguments travel in stack arrays: a call allocates nothing. */
#define CORE_INLINE_ARGS 8

/* ------------------------------------------------------------------------------------------
 * Python types (object.c, function.c, error.c, string.c, device.c, dtype.c)
 * ------------------------------------------------------------------------------------------ */

/* Base of every FFI object wrapper: owns one strong reference to chandle (may be NULL). */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle chandle;
  PyObject* weakreflist;
} CoreObject;

/* ffi.Function wrapper: callable through vectorcall. */
typedef struct {
  CoreObject base;
  vectorcallfunc vectorcall;
  PyObject* name; /* registered global name (str) for messages, or NULL */
  int release_gil;
} CoreFunction;

typedef struct {
  PyObject_HEAD
  PyObject* obj; /* a CoreObject whose handle slot the callee may steal */
} CoreRValueRef;

typedef struct {
  PyObject_HEAD
  DLDevice device;
} CoreDevice;

typedef struct {
  PyObject_HEAD
  DLDataType dtype;
} CoreDataType;

/* String: a str subclass remembering the heap string object it came from. */
typedef struct {
  PyUnicodeObject base;
  PyObject* cached; /* CoreObject or Py_None */
} CoreString;

extern PyTypeObject CoreObject_Type;
extern PyTypeObject CoreRValueRef_Type;
extern PyTypeObject CoreOpaque_Type;
extern PyTypeObject CoreFunction_Type;
extern PyTypeObject CoreError_Type;
extern PyTypeObject CoreString_Type;
/* Bytes is a class made at start-up (bytes cannot carry slots); NULL before init. */
extern PyTypeObject* core_bytes_type;
extern PyTypeObject CoreDevice_Type;
extern PyTypeObject CoreDataType_Type;
extern PyTypeObject CoreTensor_Type; /* tensor.c: Object subclass for ffi.Tensor */

static inline int core_is_object(PyObject* v) {
  return Py_TYPE(v) == &CoreObject_Type || PyType_IsSubtype(Py_TYPE(v), &CoreObject_Type);
}

/* ------------------------------------------------------------------------------------------
 * Interpreter state
 * ------------------------------------------------------------------------------------------ */

/* False once the interpreter is finalizing: deleters that run from the runtime's own
 * teardown must then leak their Python reference instead of taking the GIL. */
static inline int core_python_alive(void) {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

/* Deleter for FFI objects that hold a strong reference to a Python object: takes the GIL,
 * since the last FFI reference may go away on any thread. */
void core_pyobject_deleter(void* handle);

/* ------------------------------------------------------------------------------------------
 * Temporaries of one call (convert_args.c): released after the call on every path.
 * Entries are FFI handles or, tagged with the low bit, PyObject references.
 * ------------------------------------------------------------------------------------------ */

/* What a call learned about framework tensors among its arguments, nested containers included
 * (tensor.c): their allocator and stream serve the call, and its tensor results go back to
 * that framework. */
typedef struct {
  const void* api;        /* exchange API of the first framework tensor */
  const void* stream_api; /* ... and of the first non-CPU one (its device below) */
  DLDevice stream_device;
} CoreFramework;

typedef struct {
  int size;
  int cap;
  uintptr_t* items;
  uintptr_t inline_items[CORE_INLINE_ARGS];
  CoreFramework fw;
} CoreTemps;

/* Keeps the first framework seen: `from` (a nested container's arguments) fills what `into`
 * still lacks. */
static inline void core_framework_merge(CoreFramework* into, const CoreFramework* from) {
  if (into->api == NULL) into->api = from->api;
  if (into->stream_api == NULL && from->stream_api != NULL) {
    into->stream_api = from->stream_api;
    into->stream_device = from->stream_device;
  }
}

static inline void core_temps_init(CoreTemps* t) {
  t->fw.api = NULL;
  t->fw.stream_api = NULL;
  t->size = 0;
  t->cap = CORE_INLINE_ARGS;
  t->items = t->inline_items;
}

/* Both steal the reference; on failure they release it and raise MemoryError. */
int core_temps_push_handle(CoreTemps* t, TVMFFIObjectHandle handle);
int core_temps_push_py(CoreTemps* t, PyObject* obj);
void core_temps_release(CoreTemps* t);

/* A snapshot of Python values holding one reference to each for as long as a conversion runs
 * (converting one value may run Python code that mutates the list or dict they came from).
 * Small snapshots live on the stack. */
#define CORE_SNAPSHOT_STACK 16
typedef struct {
  PyObject** items;
  Py_ssize_t size;
  PyObject* stack[CORE_SNAPSHOT_STACK];
} CoreSnapshot;

/* Of n values / of a dict's entries as k0, v0, k1, v1, ...: 0, or -1 with MemoryError. */
int core_snapshot_of_array(CoreSnapshot* s, PyObject* const* items, Py_ssize_t n);
int core_snapshot_of_dict(CoreSnapshot* s, PyObject* dict);
void core_snapshot_release(CoreSnapshot* s);

/* Where an argument is converted, for error messages: the function name (str or NULL for
 * "function") and the position of the top-level argument. */
typedef struct {
  PyObject* func_name;
  Py_ssize_t index;
} CoreArgSite;

/* ------------------------------------------------------------------------------------------
 * Python -> TVMFFIAny (convert_args.c)
 * ------------------------------------------------------------------------------------------ */

/* Writes a view of `value` into *out. `bytes_slot` is storage for a TVMFFIByteArray that must
 * outlive the call (long bytes). New FFI objects and Python objects the view borrows from go to
 * `temps`. */
int core_convert_arg(PyObject* value, TVMFFIAny* out, TVMFFIByteArray* bytes_slot,
                     CoreTemps* temps, const CoreArgSite* site);

/* Converts `nargs` Python values and calls `handle` with them; *result is owned on success.
 * Conversion errors name `items_site` when given (the elements of one container argument),
 * else each value's own position in a call of `name` (function.c). Framework tensors found
 * among the values are merged into `fw_out` when given. */
int core_call_converted(TVMFFIObjectHandle handle, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* name, const CoreArgSite* items_site, int release_gil,
                        TVMFFIAny* result, CoreFramework* fw_out);

/* Converts `value` like an argument and makes the result owned (used for callback results,
 * _convert and containers). *out is owned on success, None on failure. */
int core_py_to_owned_any(PyObject* value, TVMFFIAny* out, const CoreArgSite* site);

/* Forgets the per-type classification of slow-path arguments (after the dtype class or the
 * tensor hook changes). */
void core_convert_clear_cache(void);

/* Two's complement little-endian bytes of an int (nbytes long), and back (for ffi.BigInt). */
PyObject* core_int_to_bytes(PyObject* value, size_t nbytes);
PyObject* core_int_from_bytes(const char* data, size_t size);

/* Wraps a Python callable as an owned FFI function handle. */
int core_make_py_function(PyObject* callable, TVMFFIObjectHandle* out);
/* Wraps any Python object as an owned kTVMFFIOpaquePyObject handle. */
int core_make_opaque(PyObject* obj, TVMFFIObjectHandle* out);

/* Hook for DLPack tensors (issue 4), consulted before the opaque fallback. Returns 1 when it
 * converted `value` (the owned tensor handle goes to temps), 0 when not a tensor, -1 on error.
 * NULL until the tensor support installs it. */
typedef int (*CoreTensorArgHook)(PyObject* value, TVMFFIAny* out, CoreTemps* temps);
extern CoreTensorArgHook core_tensor_arg_hook;

/* ------------------------------------------------------------------------------------------
 * TVMFFIAny -> Python (convert_result.c)
 * ------------------------------------------------------------------------------------------ */

/* Steals an owned Any (released on failure too). */
PyObject* core_any_to_py(TVMFFIAny* owned);
/* Converts a borrowed view (arguments of a Python callback). */
PyObject* core_view_to_py(const TVMFFIAny* view);
/* As the two above, for results of a call that took tensors of the framework whose exchange
 * API is `dlpack_api`: tensors become that framework's tensors, and containers remember the
 * framework for their elements. */
PyObject* core_any_to_py_in_framework(TVMFFIAny* owned, const void* dlpack_api);
PyObject* core_view_to_py_in_framework(const TVMFFIAny* view, const void* dlpack_api);
/* Wraps an owned object handle into its Python class (steals handle). */
PyObject* core_object_from_handle(TVMFFIObjectHandle handle);
/* Makes an instance of `cls` (a CoreObject subclass) adopting `handle` (stolen). */
PyObject* core_object_new_of_class(PyTypeObject* cls, TVMFFIObjectHandle handle);

/* ------------------------------------------------------------------------------------------
 * Function calls (function.c)
 * ------------------------------------------------------------------------------------------ */

/* Calls the FFI function `func` with Python arguments (converted as for any call; the GIL is
 * kept). *result is owned on success. */
int core_call_py_args_owned(TVMFFIObjectHandle func, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* func_name, TVMFFIAny* result);
/* Looks up a global function; *out owned or NULL when missing. */
int core_get_global_handle(const char* name, TVMFFIObjectHandle* out);
/* Makes a CoreFunction wrapper (steals handle); `name` may be NULL. */
PyObject* core_function_from_handle(TVMFFIObjectHandle handle, PyObject* name);

/* ------------------------------------------------------------------------------------------
 * Errors (error.c)
 * ------------------------------------------------------------------------------------------ */

/* After a non-zero return code: raises the Python exception for it and returns NULL. */
PyObject* core_raise_from_rc(int rc);
/* Raises a Python exception from an owned Error handle (stolen). Returns NULL. */
PyObject* core_raise_from_error(TVMFFIObjectHandle error);
/* Builds (without raising) the Python exception for a borrowed Error handle. */
PyObject* core_error_to_py_exception(TVMFFIObjectHandle error, PyObject* error_wrapper);
/* Turns the pending Python exception into an FFI error in the thread-local slot (clears the
 * Python error). */
void core_set_raised_from_pyerr(void);
/* Makes an owned FFI Error handle for a Python exception (kind, message, Python backtrace;
 * without the exception itself, see error.c). */
int core_error_from_py_exception(PyObject* exc, TVMFFIObjectHandle* out);
/* Raises `exc_type` for argument `site`: "<prefix> argument #i when calling `name`: msg". */
void core_raise_arg_error(PyObject* exc_type, const CoreArgSite* site, const char* fmt, ...);

/* ------------------------------------------------------------------------------------------
 * Strings, devices, dtypes (string.c, device.c, dtype.c)
 * ------------------------------------------------------------------------------------------ */

/* The cached FFI object of a String/Bytes instance (borrowed), or NULL (no exception). */
PyObject* core_native_cached_object(PyObject* value);
/* String/Bytes instance from an owned heap string/bytes handle (stolen). */
PyObject* core_string_from_handle(TVMFFIObjectHandle handle, int is_bytes);
PyObject* core_str_from_byte_array(const char* data, size_t size);

PyObject* core_device_new(DLDevice device);
/* class_hooks.c: the class Device results are made as (CoreDevice_Type or a subclass). */
extern PyTypeObject* core_device_class;
int core_class_hooks_init(PyObject* module);
PyObject* core_dtype_result(DLDataType dtype);
/* The registered dtype class (borrowed) or NULL. */
extern PyObject* core_dtype_class;
/* Reads the DLDataType of a dtype-class instance; -1 with exception when malformed. */
int core_dtype_instance_value(PyObject* value, DLDataType* out);

/* ------------------------------------------------------------------------------------------
 * Type index -> Python class (type_table.c)
 * ------------------------------------------------------------------------------------------ */

/* Borrowed class for objects of `type_index` (registered, nearest registered ancestor, or
 * an auto-generated fallback). NULL with exception on failure. */
PyTypeObject* core_class_for_index(int32_t type_index);
int core_type_table_init(void);

/* ------------------------------------------------------------------------------------------
 * Module-level state (module.c)
 * ------------------------------------------------------------------------------------------ */

/* The _core module object (borrowed), for attributes Python code may rebind. */
extern PyObject* core_module;
/* ctypes.c_void_p (borrowed). */
extern PyObject* core_ctypes_c_void_p;
/* Interned attribute names used on hot paths. */
extern PyObject* core_str_cached_object; /* "_tvm_ffi_cached_object" */
extern PyObject* core_str_dtype_attr;    /* "_tvm_ffi_dtype" */
extern PyObject* core_str_value;         /* "value" */
/* An empty tuple (borrowed). */
extern PyObject* core_empty_tuple;

/* Registration helpers of each file, called once from module init. */
int core_object_init_types(PyObject* module);
int core_function_init_types(PyObject* module);
int core_error_init(PyObject* module);
int core_string_init_types(PyObject* module);
int core_device_init_types(PyObject* module);
int core_dtype_init_types(PyObject* module);
int core_convert_init(void);
/* tensor.c: the Tensor type, from_dlpack, and the tensor argument hook. */
int core_tensor_init(PyObject* module);
/* Around a call whose args came from a framework (temps->fw.api set): its allocator and
 * stream become the env's for the call; a tensor result goes back as a framework tensor. */
typedef struct {
  DLPackManagedTensorAllocator prev_alloc;
  void* prev_stream;
  int alloc_set, stream_set;
} CoreTensorCallScope;
void core_tensor_call_enter(const CoreTemps* temps, CoreTensorCallScope* scope);
void core_tensor_call_exit(const CoreTemps* temps, const CoreTensorCallScope* scope);
PyObject* core_tensor_result_to_framework(TVMFFIAny* owned, const void* dlpack_api);
/* The producer type whose instances last became arguments through an exchange API's
 * dltensor_from_py_object_no_sync, with the version tag it had then. CPython zeroes a type's
 * tag (or its valid-tag flag) when the type or a base changes and never hands a tag out twice,
 * so a matching tag means the same, unchanged type: its instances go straight to
 * core_tensor_exchange_arg. */
typedef struct {
  PyTypeObject* type; /* borrowed: a dead type's address can only match with a fresh tag */
  unsigned int version_tag;
  const DLPackExchangeAPI* api;
} CoreExchangeTypeMemo;
extern CoreExchangeTypeMemo core_exchange_memo;
/* A tag that still describes the type's attributes. Before 3.11, PyType_Modified cleared only
 * the valid-tag flag and left the number; newer versions zero it (and dropped the flag). */
static inline int core_type_tag_valid(PyTypeObject* t) {
#ifdef Py_TPFLAGS_VALID_VERSION_TAG
  if (!(t->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) return 0;
#endif
  return t->tp_version_tag != 0;
}
static inline int core_is_exchange_memo_type(PyTypeObject* t) {
  return t == core_exchange_memo.type && t->tp_version_tag == core_exchange_memo.version_tag &&
         core_type_tag_valid(t);
}
/* Converts an instance of the memo's type into a view argument: 0, or -1 with exception. */
int core_tensor_exchange_arg(PyObject* value, TVMFFIAny* out, CoreTemps* temps);
void core_exchange_memo_clear(void);
/* tensor_view.c: ffi.Tensor objects made here over memory a Python object owns (kept alive by
 * a strong reference until the tensor dies). From a DLTensor description (shape and strides
 * are copied; NULL strides mean compact): 0 or -1 with exception. From a CPU buffer with byte
 * strides: 1 done, 0 when the strides are not whole elements (nothing made), -1 error. */
int core_view_tensor_from_dltensor(PyObject* owner, const DLTensor* t, TVMFFIObjectHandle* out);
/* From what an exchange API's dltensor_from_py_object_no_sync writes for `owner`: 0, or -1
 * with exception (a RuntimeError when the framework failed without raising). */
int core_view_tensor_from_exchange(PyObject* owner, DLPackDLTensorFromPyObjectNoSync describe,
                                   TVMFFIObjectHandle* out);
int core_view_tensor_from_strided(PyObject* owner, void* data, DLDataType dtype, int32_t ndim,
                                  const Py_ssize_t* shape, const Py_ssize_t* byte_strides,
                                  int read_only, TVMFFIObjectHandle* out);
/* DLPack flags (READ_ONLY) of a view tensor; 0 for any other tensor. */
uint64_t core_view_tensor_flags(TVMFFIObjectHandle handle);
/* Releases `handle` right away when it is a view tensor whose only reference is the caller's
 * (the common case for call arguments), returning 1; 0 leaves it to TVMFFIObjectDecRef. The GIL
 * must be held: it spares the deleter's GIL round trip. */
int core_view_tensor_release_sole(TVMFFIObjectHandle handle);
int core_tensor_view_init(PyObject* module);
/* container_content.c: hash() of SeqBase/MapBase instances and `in` of SeqBase instances, by
 * content (ffi._ContentHash, ffi.ArrayContains / ffi.ListContains). */
Py_hash_t core_container_hash(PyObject* self);
int core_seq_contains(PyObject* self, PyObject* value);
/* container.c: SeqBase/MapBase fast-path types and _set_class_shape. */
int core_container_init(PyObject* module);
/* container.c: makes an Array/List/Map/Dict instance convert its tensor elements to the
 * framework of `dlpack_api` (no-op for other objects or when already set). */
void core_container_set_framework(PyObject* obj, const void* dlpack_api);
/* container.c: sets fw->api to the framework an Array/List/Map/Dict argument remembers, if any,
 * so the call's results go back to that framework too. */
void core_container_framework_into(PyObject* obj, CoreFramework* fw);
/* container.c: a Shape instance (plain tuple before the class is registered) of n extents,
 * whose runtime object is made only when it is passed to a function. */
PyObject* core_shape_from_dims(const int64_t* dims, int32_t n);
/* An instance of `cls` (tuple or a tuple subclass) holding the n ints. */
PyObject* core_int64_tuple(PyTypeObject* cls, const int64_t* values, Py_ssize_t n);
/* container.c: an owned ffi.Shape handle (stolen) as the registered Shape class (a tuple
 * subclass), or as a plain Object before one is registered. */
PyObject* core_shape_from_handle(TVMFFIObjectHandle handle);

/* Module functions defined in other files, listed in module.c's method table. */
PyObject* core_mod_set_error_hooks(PyObject* self, PyObject* args);
PyObject* core_mod_convert_to_ffi_func(PyObject* self, PyObject* func);
PyObject* core_mod_convert_to_ffi_error(PyObject* self, PyObject* exc);
PyObject* core_mod_set_class_dtype(PyObject* self, PyObject* cls);
PyObject* core_mod_register_object_class(PyObject* self, PyObject* args);
PyObject* core_mod_object_type_key_to_index(PyObject* self, PyObject* key);
PyObject* core_mod_type_index_to_key(PyObject* self, PyObject* index);
PyObject* core_mod_type_index_ancestors(PyObject* self, PyObject* index);

#endif /* TVM_FFI_PYTHON_CORE_H_ */
