/*
 * elf_symbols.h -- names of functions a loaded object does not export, from its ELF symbol table.
 */
#ifndef TVM_FFI_RUNTIME_ELF_SYMBOLS_H_
#define TVM_FFI_RUNTIME_ELF_SYMBOLS_H_

#include <stdint.h>

/* The (possibly mangled) name of the function containing `pc` in the object loaded at `base`
 * from `path`, read from the file's static symbol table (.symtab), or NULL when the file has
 * none (stripped) or no function there. Tables are read once per object and kept for the
 * process, so the name stays valid; safe to call from any thread. */
const char* ffi_elf_static_symbol_at(const char* path, uintptr_t base, uintptr_t pc);

#endif /* TVM_FFI_RUNTIME_ELF_SYMBOLS_H_ */
