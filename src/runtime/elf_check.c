/*
 * elf_check.c -- refuses truncated or corrupt ELF shared libraries before dlopen maps them.
 *
 * Only native-class ELF files are inspected (the class dlopen can load); everything read is
 * bounds-checked against the file size taken from the same open file descriptor.
 */
#include "elf_check.h"

#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_read.h"
#include "internal.h"

/* Raises the RuntimeError for a file that dlopen must not map. */
#define CORRUPT(path, fmt, ...)                                                                  \
  ffi_raise("RuntimeError", "cannot open %s: the shared library is truncated or corrupt: " fmt, \
            path, __VA_ARGS__)

static int check_program_headers(const char* path, int fd, const ElfW(Ehdr)* eh,
                                 uint64_t file_size) {
  if (eh->e_phnum == 0) return 0;
  if (eh->e_phentsize != sizeof(ElfW(Phdr))) {
    return CORRUPT(path, "program header entries are %u bytes, expected %zu",
                   (unsigned)eh->e_phentsize, sizeof(ElfW(Phdr)));
  }
  uint64_t table_size = (uint64_t)eh->e_phnum * sizeof(ElfW(Phdr));
  if (!ffi_elf_inside(eh->e_phoff, table_size, file_size)) {
    return CORRUPT(path, "the program header table (offset %" PRIu64 ", %" PRIu64
                   " bytes) extends past the end of the file (%" PRIu64 " bytes)",
                   (uint64_t)eh->e_phoff, table_size, file_size);
  }
  for (uint64_t i = 0; i < eh->e_phnum; ++i) {
    ElfW(Phdr) ph;
    if (!ffi_elf_read_at(fd, &ph, sizeof(ph), eh->e_phoff + i * sizeof(ph))) {
      return CORRUPT(path, "cannot read program header %" PRIu64, i);
    }
    if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC) continue;
    if (!ffi_elf_inside(ph.p_offset, ph.p_filesz, file_size)) {
      return CORRUPT(path, "%s segment %" PRIu64 " (file offset %" PRIu64 ", %" PRIu64
                     " bytes) extends past the end of the file (%" PRIu64 " bytes)",
                     ph.p_type == PT_LOAD ? "loadable" : "dynamic", i, (uint64_t)ph.p_offset,
                     (uint64_t)ph.p_filesz, file_size);
    }
  }
  return 0;
}

int ffi_elf_check_file(const char* path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0; /* not a file we can read here: dlopen searches and reports */
  int rc = 0;
  struct stat st;
  ElfW(Ehdr) eh;
  unsigned char ident[EI_NIDENT];
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) goto done;
  uint64_t file_size = (uint64_t)st.st_size;
  if (!ffi_elf_read_at(fd, ident, sizeof(ident), 0) || memcmp(ident, ELFMAG, SELFMAG) != 0) {
    goto done;
  }
  /* Another class or byte order is dlopen's to refuse ("wrong ELF class"). */
  if (ident[EI_CLASS] != (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32)) goto done;
  if (!ffi_elf_read_at(fd, &eh, sizeof(eh), 0)) {
    rc = CORRUPT(path, "the file (%" PRIu64 " bytes) is shorter than an ELF header (%zu bytes)",
                 file_size, sizeof(eh));
    goto done;
  }
  rc = check_program_headers(path, fd, &eh, file_size);
done:
  close(fd);
  return rc;
}
