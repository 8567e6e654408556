/*
 * module_library_bin.c -- the bounds-checked parser of `__tvm_ffi__library_bin` (layout in
 * module_library_bin.h). It only reads bytes and reports what they describe; module_load.c
 * turns the description into module objects.
 */
#include "module_library_bin.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Reads little-endian u64 fields from the declared window only; never past `size`. */
typedef struct {
  const unsigned char* data;
  uint64_t size;
  uint64_t pos;
  const char* origin; /* the library, for messages */
} BinReader;

static uint64_t load_u64_le(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

static int bin_truncated(const BinReader* r, const char* what, uint64_t need) {
  return ffi_raise("RuntimeError",
                   FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: %s at offset %llu needs %llu "
                   "bytes but only %llu of the declared %llu payload bytes remain",
                   r->origin, what, (unsigned long long)r->pos, (unsigned long long)need,
                   (unsigned long long)(r->size - r->pos), (unsigned long long)r->size);
}

static int bin_read_u64(BinReader* r, const char* what, uint64_t* out) {
  if (r->size - r->pos < 8) return bin_truncated(r, what, 8);
  *out = load_u64_le(r->data + r->pos);
  r->pos += 8;
  return 0;
}

/* A vec<u64>; *out is malloc'ed (at least one element so an empty vector is not NULL). */
static int bin_read_vec(BinReader* r, const char* what, uint64_t** out, uint64_t* count) {
  if (bin_read_u64(r, what, count) != 0) return -1;
  if (*count > (r->size - r->pos) / 8) {
    return bin_truncated(r, what, *count > UINT64_MAX / 8 ? UINT64_MAX : *count * 8);
  }
  *out = (uint64_t*)malloc((size_t)(*count ? *count : 1) * sizeof(uint64_t));
  if (*out == NULL) return ffi_raise("MemoryError", "cannot read %s", what);
  for (uint64_t i = 0; i < *count; ++i) (*out)[i] = load_u64_le(r->data + r->pos + 8 * i);
  r->pos += 8 * *count;
  return 0;
}

/* A length-prefixed byte string, viewed in place. */
static int bin_read_bytes(BinReader* r, const char* what, TVMFFIByteArray* out) {
  uint64_t len;
  if (bin_read_u64(r, what, &len) != 0) return -1;
  if (len > r->size - r->pos) return bin_truncated(r, what, len);
  out->data = (const char*)r->data + r->pos;
  out->size = (size_t)len;
  r->pos += len;
  return 0;
}

/* The CSR import tree, validated. */
static int bin_read_tree(BinReader* r, FfiLibraryBin* out) {
  uint64_t num_indptr = 0, num_children = 0;
  if (bin_read_vec(r, "the import tree indptr", &out->indptr, &num_indptr) != 0) return -1;
  if (bin_read_vec(r, "the import tree child indices", &out->children, &num_children) != 0) {
    return -1;
  }
  if (num_indptr < 2) {
    return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: the import "
                     "tree describes no module (indptr has %llu entries)", r->origin,
                     (unsigned long long)num_indptr);
  }
  out->num_modules = num_indptr - 1;
  for (uint64_t i = 0; i < out->num_modules; ++i) {
    if (out->indptr[i] > out->indptr[i + 1] || out->indptr[i + 1] > num_children) {
      return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: import tree "
                       "indptr[%llu..%llu] = [%llu, %llu] is not a range within %llu child indices",
                       r->origin, (unsigned long long)i, (unsigned long long)i + 1,
                       (unsigned long long)out->indptr[i], (unsigned long long)out->indptr[i + 1],
                       (unsigned long long)num_children);
    }
  }
  for (uint64_t j = 0; j < num_children; ++j) {
    if (out->children[j] >= out->num_modules) {
      return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: child index "
                       "%llu at position %llu is out of range for %llu modules",
                       r->origin, (unsigned long long)out->children[j], (unsigned long long)j,
                       (unsigned long long)out->num_modules);
    }
  }
  return 0;
}

/* The (kind, blob) of every node; "_lib" has no blob and occurs at most once. */
static int bin_read_nodes(BinReader* r, FfiLibraryBin* out) {
  /* num_modules < size / 8 (the indptr vector fits in the input), so this is bounded. */
  out->nodes = (FfiLibraryBinNode*)calloc((size_t)out->num_modules, sizeof(FfiLibraryBinNode));
  if (out->nodes == NULL) {
    return ffi_raise("MemoryError", "cannot load %llu modules",
                     (unsigned long long)out->num_modules);
  }
  bool seen_lib = false;
  for (uint64_t i = 0; i < out->num_modules; ++i) {
    FfiLibraryBinNode* node = &out->nodes[i];
    if (bin_read_bytes(r, "a module kind", &node->kind) != 0) return -1;
    node->is_lib = node->kind.size == 4 && memcmp(node->kind.data, "_lib", 4) == 0;
    if (node->is_lib) {
      if (seen_lib) {
        return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: more than "
                         "one `_lib` node (second at node %llu)", r->origin, (unsigned long long)i);
      }
      seen_lib = true;
      continue;
    }
    if (bin_read_bytes(r, "a module blob", &node->blob) != 0) return -1;
  }
  return 0;
}

int ffi_library_bin_parse(const unsigned char* data, uint64_t size, const char* origin,
                          FfiLibraryBin* out) {
  memset(out, 0, sizeof(*out));
  if (size < 8) {
    return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: the symbol has "
                     "%llu bytes, fewer than its 8-byte size field", origin,
                     (unsigned long long)size);
  }
  uint64_t nbytes = load_u64_le(data);
  if (nbytes > size - 8) {
    return ffi_raise("RuntimeError", FFI_SYMBOL_LIBRARY_BIN " of %s is malformed: it declares "
                     "%llu payload bytes but the symbol only has %llu after the size field",
                     origin, (unsigned long long)nbytes, (unsigned long long)(size - 8));
  }
  BinReader r = {data + 8, nbytes, 0, origin};
  if (bin_read_tree(&r, out) != 0 || bin_read_nodes(&r, out) != 0) {
    ffi_library_bin_free(out);
    return -1;
  }
  return 0;
}

void ffi_library_bin_free(FfiLibraryBin* bin) {
  free(bin->indptr);
  free(bin->children);
  free(bin->nodes);
  memset(bin, 0, sizeof(*bin));
}
