/*
 * elf_symbols.c -- static symbol tables of loaded ELF objects, for backtraces.
 *
 * The dynamic symbol table (what dladdr reads) lists only exported functions; a backtrace also
 * wants a kernel's static helpers, its anonymous-namespace functions and the functions of a
 * program linked without -rdynamic. Those live in .symtab, which unstripped files keep but
 * nothing maps: the section headers, the table and its string table are read from the file.
 *
 * One table per (file, load address, file identity): functions with a size, sorted by address
 * for a binary search. Tables are never freed (a name handed out stays valid); a file that was
 * replaced on disk since (a kernel rebuilt and reloaded at the same address) gets a new table.
 * A table larger than kMaxTableBytes is not read: this is for naming a few frames of an error.
 */
#include "elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_read.h"

enum { kMaxTableBytes = 256 << 20 };

typedef struct {
  uint64_t start; /* address relative to the load base (shared objects, PIE) or absolute */
  uint64_t size;
  uint32_t name; /* offset into the string table */
} FunctionSymbol;

typedef struct SymbolTable {
  struct SymbolTable* next;
  char* path;
  uintptr_t base;
  dev_t dev;
  ino_t ino;
  struct timespec mtime;
  bool relative; /* ET_DYN: symbol values are offsets from the load base */
  FunctionSymbol* symbols;
  size_t count;
  char* strings;
  size_t strings_size;
} SymbolTable;

static pthread_mutex_t g_tables_lock = PTHREAD_MUTEX_INITIALIZER;
static SymbolTable* g_tables = NULL;

static int by_start(const void* a, const void* b) {
  uint64_t x = ((const FunctionSymbol*)a)->start, y = ((const FunctionSymbol*)b)->start;
  return x < y ? -1 : x > y;
}

static bool is_function(const ElfW(Sym)* sym) {
  int type = ELF64_ST_TYPE(sym->st_info);
  return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_shndx != SHN_UNDEF &&
         sym->st_size > 0 && sym->st_name != 0;
}

/* Reads the function symbols of .symtab into `table`; false when there are none to read. */
static bool read_functions(int fd, uint64_t file_size, SymbolTable* table) {
  ElfW(Ehdr) eh;
  if (!ffi_elf_read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shnum == 0 ||
      !ffi_elf_inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(ElfW(Shdr)), file_size)) {
    return false;
  }
  table->relative = eh.e_type == ET_DYN;
  for (uint64_t i = 0; i < eh.e_shnum; ++i) {
    ElfW(Shdr) symtab, strtab;
    uint64_t header_size = sizeof(ElfW(Shdr));
    if (!ffi_elf_read_at(fd, &symtab, sizeof(symtab), eh.e_shoff + i * header_size)) return false;
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_entsize != sizeof(ElfW(Sym))) continue;
    if (symtab.sh_link >= eh.e_shnum ||
        !ffi_elf_read_at(fd, &strtab, sizeof(strtab), eh.e_shoff + symtab.sh_link * header_size) ||
        symtab.sh_size > kMaxTableBytes || strtab.sh_size > kMaxTableBytes ||
        !ffi_elf_inside(symtab.sh_offset, symtab.sh_size, file_size) ||
        !ffi_elf_inside(strtab.sh_offset, strtab.sh_size, file_size)) {
      return false;
    }
    size_t n = symtab.sh_size / sizeof(ElfW(Sym));
    ElfW(Sym)* raw = (ElfW(Sym)*)malloc(symtab.sh_size);
    table->symbols = (FunctionSymbol*)malloc((n > 0 ? n : 1) * sizeof(FunctionSymbol));
    table->strings = (char*)malloc(strtab.sh_size + 1);
    bool ok = raw != NULL && table->symbols != NULL && table->strings != NULL &&
              ffi_elf_read_at(fd, raw, symtab.sh_size, symtab.sh_offset) &&
              ffi_elf_read_at(fd, table->strings, strtab.sh_size, strtab.sh_offset);
    if (ok) {
      table->strings[strtab.sh_size] = '\0'; /* every name ends inside the copy */
      table->strings_size = strtab.sh_size;
      for (size_t k = 0; k < n; ++k) {
        if (!is_function(&raw[k]) || raw[k].st_name >= strtab.sh_size) continue;
        FunctionSymbol* out = &table->symbols[table->count++];
        out->start = raw[k].st_value;
        out->size = raw[k].st_size;
        out->name = raw[k].st_name;
      }
      qsort(table->symbols, table->count, sizeof(FunctionSymbol), by_start);
    }
    free(raw);
    return ok;
  }
  return false;
}

/* A table for the object as it is on disk now (read on first use); NULL when unreadable. */
static SymbolTable* table_for(const char* path, uintptr_t base) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
  for (SymbolTable* t = g_tables; t != NULL; t = t->next) {
    if (t->base == base && t->dev == st.st_dev && t->ino == st.st_ino &&
        t->mtime.tv_sec == st.st_mtim.tv_sec && t->mtime.tv_nsec == st.st_mtim.tv_nsec &&
        strcmp(t->path, path) == 0) {
      return t;
    }
  }
  SymbolTable* t = (SymbolTable*)calloc(1, sizeof(SymbolTable));
  if (t == NULL) return NULL;
  t->path = strdup(path);
  t->base = base;
  t->dev = st.st_dev;
  t->ino = st.st_ino;
  t->mtime = st.st_mtim;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (!read_functions(fd, (uint64_t)st.st_size, t)) t->count = 0; /* remembered as empty */
    close(fd);
  }
  t->next = g_tables;
  g_tables = t;
  return t;
}

static const char* lookup(const SymbolTable* t, uint64_t address) {
  size_t lo = 0, hi = t->count; /* the last symbol starting at or before `address` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->symbols[mid].start <= address) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return NULL;
  const FunctionSymbol* sym = &t->symbols[lo - 1];
  if (address - sym->start >= sym->size) return NULL;
  return t->strings + sym->name;
}

const char* ffi_elf_static_symbol_at(const char* path, uintptr_t base, uintptr_t pc) {
  if (path == NULL || path[0] == '\0') return NULL;
  pthread_mutex_lock(&g_tables_lock);
  const SymbolTable* t = table_for(path, base);
  const char* name = NULL;
  if (t != NULL && t->count > 0) name = lookup(t, t->relative ? pc - base : pc);
  pthread_mutex_unlock(&g_tables_lock);
  return name;
}
