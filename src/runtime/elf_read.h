/*
 * elf_read.h -- bounded reads of an ELF file, shared by the checks before dlopen (elf_check.c)
 * and the symbol tables of backtraces (elf_symbols.c). Header-only, so neither file depends on
 * the other.
 */
#ifndef TVM_FFI_RUNTIME_ELF_READ_H_
#define TVM_FFI_RUNTIME_ELF_READ_H_

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/* Reads exactly `size` bytes at `offset` of an open file; false on a short read or an error. */
static inline bool ffi_elf_read_at(int fd, void* buf, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(fd, (char*)buf + done, size - done, (off_t)(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += (size_t)n;
  }
  return true;
}

/* True when [offset, offset + size) lies inside a file of file_size bytes (no overflow). */
static inline bool ffi_elf_inside(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

#endif /* TVM_FFI_RUNTIME_ELF_READ_H_ */
