/*
 * module_library_bin.h -- the parser of `__tvm_ffi__library_bin`, the composite-module
 * description a library may embed.
 *
 * Layout (all integers little-endian u64):
 *   nbytes                      size of the payload that follows
 *   payload:
 *     vec<u64> indptr           CSR import tree: module i imports children[indptr[i]..indptr[i+1]]
 *     vec<u64> children
 *     per module, in order:     bytes kind; then, unless kind == "_lib", bytes blob
 * where vec<u64> is a count followed by that many u64, and bytes is a length followed by that
 * many bytes. Node 0 is the root; the "_lib" node (at most one) is the host library itself.
 *
 * The bytes come from a file we did not write, so the parser is a pure function of
 * (data, size): it reads nothing outside that window, allocates only the result, and calls
 * nothing but ffi_raise. Fuzzers call ffi_library_bin_parse directly.
 */
#ifndef TVM_FFI_RUNTIME_MODULE_LIBRARY_BIN_H_
#define TVM_FFI_RUNTIME_MODULE_LIBRARY_BIN_H_

#include <stdint.h>
#include <tvm/ffi/c_api.h>

#define FFI_SYMBOL_LIBRARY_BIN "__tvm_ffi__library_bin"

/* One module of the description; kind and blob view the parsed bytes in place. */
typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray blob; /* empty for the "_lib" node */
  int is_lib;           /* kind == "_lib" */
} FfiLibraryBinNode;

/* A validated description: every child index is < num_modules, every indptr range lies inside
 * `children`, and at most one node is "_lib". */
typedef struct {
  uint64_t num_modules;      /* >= 1 */
  uint64_t* indptr;          /* num_modules + 1 entries */
  uint64_t* children;
  FfiLibraryBinNode* nodes;  /* num_modules entries */
} FfiLibraryBin;

/* Parses the `size` bytes at `data` (the whole symbol: size field and payload). `origin` names
 * the library in error messages. Returns 0 with *out filled (release it with
 * ffi_library_bin_free), or -1 with a RuntimeError (MemoryError) raised and *out empty. */
int ffi_library_bin_parse(const unsigned char* data, uint64_t size, const char* origin,
                          FfiLibraryBin* out);
void ffi_library_bin_free(FfiLibraryBin* bin);

#endif /* TVM_FFI_RUNTIME_MODULE_LIBRARY_BIN_H_ */
