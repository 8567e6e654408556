/*
 * module_internal.h -- the one fact about module objects other runtime files may need.
 *
 * Module objects (type index kTVMFFIModule) use a private, header-first layout owned by
 * module.c: the reference's C++ ModuleObj is opaque to kernels (spec/ABI.md section 4), so
 * nothing outside the runtime reads it. The reference reflects one read-only field, `imports_`
 * (an ffi.Array of the imported modules); ours sits at a fixed offset so the type registry can
 * describe it as an 8-byte object-reference field for Python's `Module.imports`.
 */
#ifndef TVM_FFI_RUNTIME_MODULE_INTERNAL_H_
#define TVM_FFI_RUNTIME_MODULE_INTERNAL_H_

/* Offset of the `imports_` field: a strong reference to an ffi.Array (never NULL). */
#define FFI_MODULE_IMPORTS_OFFSET 24

#endif /* TVM_FFI_RUNTIME_MODULE_INTERNAL_H_ */
