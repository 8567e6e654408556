/*
 * code_range.h -- the executable address range of a loaded object, found from an address in it.
 *
 * Header-only, as function_object.h is: the runtime tells its own frames apart in backtraces
 * (backtrace.c), and the Python extension tells the runtime's built-in functions apart from
 * kernels (src/python/gil_policy.c). The range spans the object's executable PT_LOAD segments.
 * Includers need _GNU_SOURCE for dl_iterate_phdr.
 */
#ifndef TVM_FFI_RUNTIME_CODE_RANGE_H_
#define TVM_FFI_RUNTIME_CODE_RANGE_H_

#include <link.h>
#include <stdint.h>

typedef struct {
  uintptr_t begin, end; /* [begin, end); both 0 when not found */
} FfiCodeRange;

typedef struct {
  uintptr_t probe;
  FfiCodeRange range;
} FfiCodeRangeSearch;

/* dl_iterate_phdr callback: stops at the object whose segments contain search->probe. */
static inline int ffi_code_range_visit(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  FfiCodeRangeSearch* search = (FfiCodeRangeSearch*)data;
  uintptr_t begin = UINTPTR_MAX, end = 0;
  int contains = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    if (search->probe >= lo && search->probe < hi) contains = 1;
    if (ph->p_flags & PF_X) {
      if (lo < begin) begin = lo;
      if (hi > end) end = hi;
    }
  }
  if (!contains) return 0;
  search->range.begin = begin;
  search->range.end = end;
  return 1;
}

/* The code range of the object holding `probe` (a function's address); {0, 0} if none does. */
static inline FfiCodeRange ffi_code_range_of(const void* probe) {
  FfiCodeRangeSearch search = {(uintptr_t)probe, {0, 0}};
  dl_iterate_phdr(ffi_code_range_visit, &search);
  return search.range;
}

/* Whether `pc` lies in `range`. */
static inline int ffi_code_range_holds(FfiCodeRange range, uintptr_t pc) {
  return pc >= range.begin && pc < range.end;
}

#endif /* TVM_FFI_RUNTIME_CODE_RANGE_H_ */
