/*
 * module_system_symbols_internal.h -- the name -> address table of statically linked kernels
 * (module_system_symbols.c); a leaf the module files look symbols up in.
 */
#ifndef TVM_FFI_RUNTIME_MODULE_SYSTEM_SYMBOLS_INTERNAL_H_
#define TVM_FFI_RUNTIME_MODULE_SYSTEM_SYMBOLS_INTERNAL_H_

/* Address registered under `name`, or NULL. */
void* ffi_system_symbol_lookup(const char* name);

#endif /* TVM_FFI_RUNTIME_MODULE_SYSTEM_SYMBOLS_INTERNAL_H_ */
