/*
 * elf_check.h -- validation of a shared library file before dlopen maps it.
 */
#ifndef TVM_FFI_RUNTIME_ELF_CHECK_H_
#define TVM_FFI_RUNTIME_ELF_CHECK_H_

/* Checks that the ELF file at `path` is whole: its header, its program header table and the
 * file bytes of every loadable segment lie inside the file. dlopen maps those bytes, and
 * touching a mapped page past the end of a truncated file kills the process with SIGBUS.
 * Returns 0 when the file looks whole, or when it cannot be opened or is not ELF at all (dlopen
 * then reports that itself); -1 with a RuntimeError raised otherwise. */
int ffi_elf_check_file(const char* path);

#endif /* TVM_FFI_RUNTIME_ELF_CHECK_H_ */
