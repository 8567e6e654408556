/*
 * structural/visit.h -- the structural visitor (ffi.StructuralVisitor) shared by the walk and
 * visit engines (visit_engine.c), their typed callbacks (visit_callback.c), their globals
 * (walk.c, visitor_globals.c) and the object types they use (visit_types.c).
 *
 * The first fields of a visitor are ABI: C++ code compiled against the reference headers
 * (a `__s_visit__` hook, or a walk engine of its own) reads the vtable at offset 24 and the
 * current def-region kind at offset 32 inline, and calls `vtable->visit(visitor, value)` for
 * each child. The C signature below is the same machine-level call as the C++
 * `TVMFFIAny (*)(StructuralVisitorObj*, AnyView) noexcept`: AnyView is a trivially copyable
 * 16-byte TVMFFIAny, passed and returned in registers.
 *
 * Raw results of a visit (and of a native hook) are owned Anys: None (go on), an
 * ffi.VisitInterrupt (stop the whole traversal), or an ffi.Error (failed).
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_VISIT_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_VISIT_H_

#include "graph_util.h"
#include "../cxx_bridge.h"

typedef TVMFFIAny (*FfiVisitFn)(TVMFFIObject* visitor, TVMFFIAny value);

typedef struct {
  FfiVisitFn visit;
} FfiVisitorVTable;

/* The ABI prefix of every visitor, ours or a C++ engine's. */
typedef struct {
  TVMFFIObject header;
  const FfiVisitorVTable* vtable; /* @24 */
  int32_t def_region;             /* @32, a TVMFFIDefRegionKind */
} FfiVisitorBase;

_Static_assert(offsetof(FfiVisitorBase, vtable) == 24 && offsetof(FfiVisitorBase, def_region) == 32,
               "StructuralVisitorObj layout");

/* What a runtime visitor does at each value. */
typedef enum {
  FFI_VISIT_PRE,  /* walk: callback, then children (callback may skip them) */
  FFI_VISIT_POST, /* walk: children, then callback */
  FFI_VISIT_OWN   /* visit: a matched callback owns descent; others descend by default */
} FfiVisitMode;

/* One typed callback: matches values of type_index (-1: any). */
typedef struct {
  int32_t type_index;
  bool with_region; /* called as (value, def_region_kind) */
  TVMFFIObject* fn; /* owned ffi.Function */
} FfiVisitEntry;

typedef struct {
  FfiVisitorBase base;
  FfiVisitMode mode;
  int32_t num_entries;
  FfiVisitEntry* entries; /* malloc'ed, tried in order */
  /* The entry that matched the last value's type (NULL: none did): a walk meets the same few
   * types over and over, and entries and type ancestry never change during its life. */
  int32_t match_type;     /* that type index; -1 before the first value */
  const FfiVisitEntry* match_entry;
  FfiPtrMap active;       /* objects whose descent is running: meeting one again is a cycle */
  _Atomic uintptr_t owner; /* token of the thread running a traversal with it, 0 when idle */
  int32_t depth;           /* nested runs of that thread */
} FfiVisitor;

/* visit_types.c */
int32_t ffi_visitor_type_index(void);
/* A new ffi.VisitInterrupt carrying a copy of payload (owned result). */
int ffi_visit_interrupt_new(const TVMFFIAny* payload, TVMFFIObject** out);
/* The value of `__s_visit__` for a type: NULL when unset or None. */
const TVMFFIAny* ffi_visit_hook_of(int32_t type_index);
/* True for the runtime's own container hooks (the engines descend those with a stack). */
bool ffi_visit_hook_is_builtin(const TVMFFIAny* hook);

/* visit_engine.c */
/* Raises RecursionError ("<what>: the C stack is nearly exhausted") when the calling thread's C
 * stack is close to its end; traversals that recurse through hooks call it at each level. */
int ffi_structural_check_stack(const char* what);
/* A runtime visitor owning `entries` (freed with it, also on failure). */
int ffi_visitor_new(FfiVisitMode mode, FfiVisitEntry* entries, int32_t num_entries,
                    FfiVisitor** out);
/* Visits value with a runtime visitor: *out gets None or an owned VisitInterrupt; -1 raised. */
int ffi_visitor_run(FfiVisitor* v, const TVMFFIAny* value, TVMFFIAny* out);
/* Default descent of value by any visitor (`__s_visit__` hook, else containers/reflected
 * fields), each child through the visitor's vtable; *out as for ffi_visitor_run. */
int ffi_visitor_default_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out);
/* Visits value through any visitor's vtable (raw result decoded as for ffi_visitor_run). */
int ffi_visitor_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out);
/* The body of ffi.Structural{Visitor,Mutator}WithDefRegionKind(self, kind, callback): runs
 * args[2]() with *region entered as args[1] (a Pattern region is kept), restoring it after.
 * Visitors and mutators keep their region at the same offset (32). */
int ffi_call_in_def_region(const char* sig, int32_t* region, const TVMFFIAny* args,
                           TVMFFIAny* result);

/* visit_callback.c: runs the callback matching value, if any. For the walk modes *action gets
 * FFI_WALK_ADVANCE / FFI_WALK_SKIP; an interrupt goes to *out. FFI_VISIT_OWN: *action is
 * FFI_WALK_UNMATCHED when no callback matched. */
enum { FFI_WALK_ADVANCE = 0, FFI_WALK_SKIP = 1, FFI_WALK_UNMATCHED = 2 };
int ffi_visitor_callback(FfiVisitor* v, const TVMFFIAny* value, int* action, TVMFFIAny* out);

/* True when a callback registered for type index `want` (-1: any value) matches a value of
 * type index t: the same type, a subclass, or the small form of str/bytes. */
bool ffi_visit_entry_matches(int32_t want, int32_t t);
/* Parses the `Array<Tuple<int, ffi.Function>>` lists args[first..first+count) into a malloc'ed
 * array (owned functions); entries of the lists after the first get with_region. Errors name
 * `sig` and the argument. */
int ffi_visit_parse_entries(const char* sig, const TVMFFIAny* args, int32_t first, int32_t count,
                            FfiVisitEntry** out, int32_t* n);

/* Registration (called by register.c). */
void ffi_register_visit_types(void);
void ffi_register_walk_globals(void);
void ffi_register_visitor_globals(void);

/* Weak: programs linked with the runtime's C sources alone (tests/fuzz) have no C++ shim; their
 * errors then carry no visit record. */
#pragma weak ffi_cxx_visit_error_record

/* Appends `node` to `error`'s ffi.VisitErrorContext (both borrowed) when it is an object, as the
 * engines do for each value an error unwinds through; other values have no identity to name. */
static inline void ffi_visit_error_record(TVMFFIObject* error, const TVMFFIAny* node) {
  if (ffi_cxx_visit_error_record != NULL && ffi_is_object_index(node->type_index) &&
      node->v_obj != NULL) {
    ffi_cxx_visit_error_record(error, node->v_obj);
  }
}

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_VISIT_H_ */
