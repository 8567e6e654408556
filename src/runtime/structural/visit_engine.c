/*
 * structural/visit_engine.c -- the runtime's structural visitor: one explicit-stack traversal
 * serving the walk (pre/post-order callbacks) and the visit (a matched callback owns descent).
 *
 * Descent of a value (spec STRUCTURAL.md 3.4, reference structural_visit.h):
 *  - a `__s_visit__` hook of its type, when one is set (other than the runtime's own container
 *    hooks), is called with (visitor, value); it visits children through the visitor;
 *  - Array/List: the elements in order; Map/Dict: the values in iteration order;
 *  - other objects: their reflected fields, ancestors' first, skipping SEqHashIgnore fields. A
 *    def-simple field is visited in the Simple region, a def-pattern field in the Pattern region,
 *    except that a Pattern region is never left; a FreeVar met in a Simple region has its own
 *    fields visited in no region;
 *  - everything else (POD, strings, shapes, tensors, functions, ...) has no children.
 * None is never visited. Every occurrence is visited (a tree walk); an object met again inside
 * itself is a cycle, reported as ValueError instead of looping. Plain descent never recurses on
 * the C stack; hooks re-enter the visitor through its vtable, so nesting through hooks is bounded
 * by the thread's remaining C stack (RecursionError) rather than allowed to overflow it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np */
#endif
#include <pthread.h>
#include <stdlib.h>

#include "visit.h"

/* ---- C stack bound of re-entrant visits ---- */

static _Thread_local uintptr_t t_stack_limit;

static uintptr_t compute_stack_limit(void) {
  char here;
  uintptr_t low = 0, size = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = NULL;
    size_t bytes = 0;
    if (pthread_attr_getstack(&attr, &addr, &bytes) == 0) {
      low = (uintptr_t)addr;
      size = (uintptr_t)bytes;
    }
    pthread_attr_destroy(&attr);
  }
  if (size == 0 || (uintptr_t)&here < low || (uintptr_t)&here >= low + size) {
    size = 512 * 1024; /* unknown bounds: assume a small stack below this frame */
    low = (uintptr_t)&here > size ? (uintptr_t)&here - size : 1;
  }
  /* Room for the hook that is refused and for unwinding the error. */
  uintptr_t reserve = size / 4 < 256 * 1024 ? 256 * 1024 : size / 4;
  if (reserve > 2 * 1024 * 1024) reserve = 2 * 1024 * 1024;
  if (reserve > size / 2) reserve = size / 2;
  return low + reserve;
}

int ffi_structural_check_stack(const char* what) {
  char here;
  if (FFI_UNLIKELY(t_stack_limit == 0)) t_stack_limit = compute_stack_limit();
  if (FFI_UNLIKELY((uintptr_t)&here < t_stack_limit)) {
    return ffi_raise("RecursionError", "%s: the C stack is nearly exhausted", what);
  }
  return 0;
}

static int check_stack(void) {
  return ffi_structural_check_stack("structural visit nested too deeply through __s_visit__ hooks");
}

/* ---- one thread at a time per runtime visitor ---- */

/* A visitor that escaped to Python can be used from another thread; its traversal state (the
 * active set) is not shared safely, so a second thread is refused while the first runs. */
static _Thread_local char t_thread_token;

static int enter_visitor(FfiVisitor* v) {
  uintptr_t me = (uintptr_t)&t_thread_token;
  uintptr_t idle = 0;
  if (atomic_load_explicit(&v->owner, memory_order_acquire) != me &&
      !atomic_compare_exchange_strong(&v->owner, &idle, me)) {
    return ffi_raise("RuntimeError",
                     "this ffi.StructuralVisitor is running a traversal on another thread");
  }
  v->depth += 1;
  return 0;
}

static void leave_visitor(FfiVisitor* v) {
  if (--v->depth == 0) atomic_store_explicit(&v->owner, 0, memory_order_release);
}

/* ---- raw results ---- */

static TVMFFIAny raised_as_any(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  return ffi_any_from_object((TVMFFIObject*)err);
}

/* Turns an owned raw result into (0, *out = None or VisitInterrupt) or -1 raised. */
static int decode_raw(TVMFFIAny raw, TVMFFIAny* out) {
  if (raw.type_index == kTVMFFINone) return 0;
  if (raw.type_index == kTVMFFIVisitInterrupt) {
    *out = raw;
    return 0;
  }
  if (ffi_is_object_index(raw.type_index) && ffi_type_is_instance(raw.type_index, kTVMFFIError)) {
    TVMFFIErrorSetRaised(raw.v_obj);
    ffi_any_release(&raw);
    return -1;
  }
  TVMFFIByteArray k = ffi_type_key_of(raw.type_index);
  ffi_any_release(&raw);
  return ffi_raise("TypeError",
                   "a structural visit returned `%.*s`; expected None, ffi.VisitInterrupt or an "
                   "error",
                   (int)k.size, k.data);
}

int ffi_visitor_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out) {
  *out = ffi_any_none();
  return decode_raw(v->vtable->visit(&v->header, *value), out);
}

/* ---- hooks ---- */

static int call_hook(FfiVisitorBase* v, const TVMFFIAny* hook, const TVMFFIAny* value,
                     TVMFFIAny* out) {
  if (hook->type_index == kTVMFFIOpaquePtr) {
    return decode_raw(((FfiVisitFn)hook->v_ptr)(&v->header, *value), out);
  }
  if (hook->type_index != kTVMFFIFunction) {
    return ffi_raise("TypeError", "__s_visit__ must be an opaque function pointer or ffi.Function");
  }
  TVMFFIAny args[2];
  args[0] = ffi_any_none();
  args[0].type_index = v->header.type_index;
  args[0].v_obj = &v->header;
  args[1] = *value;
  TVMFFIAny result;
  if (ffi_call(hook, args, 2, &result) != 0) return -1;
  if (result.type_index == kTVMFFINone || result.type_index == kTVMFFIVisitInterrupt) {
    *out = result;
    return 0;
  }
  TVMFFIByteArray k = ffi_type_key_of(result.type_index);
  ffi_any_release(&result);
  return ffi_raise("TypeError",
                   "CallExpected: result type mismatch, expected Optional<ffi.VisitInterrupt>, "
                   "but got %.*s",
                   (int)k.size, k.data);
}

/* A hook other than the runtime's container hooks, or NULL. */
static const TVMFFIAny* custom_hook(int32_t type_index) {
  const TVMFFIAny* hook = ffi_visit_hook_of(type_index);
  return hook != NULL && !ffi_visit_hook_is_builtin(hook) ? hook : NULL;
}

static bool is_ours(const FfiVisitorBase* v);

static int raise_cycle(const TVMFFIObject* obj) {
  TVMFFIByteArray k = ffi_type_key_of(obj->type_index);
  return ffi_raise("ValueError",
                   "structural visit met a cycle: an object of type `%.*s` is reached again from "
                   "inside itself",
                   (int)k.size, k.data);
}

/* Runs a custom hook on obj, guarding a runtime visitor against re-entering it. */
static int run_hook(FfiVisitorBase* v, const TVMFFIAny* hook, const TVMFFIAny* value,
                    TVMFFIAny* out) {
  FfiPtrMap* active = is_ours(v) ? &((FfiVisitor*)v)->active : NULL;
  uint64_t key = (uint64_t)(uintptr_t)value->v_obj;
  if (active != NULL) {
    if (ffi_ptr_map_find(active, key) != NULL) return raise_cycle(value->v_obj);
    if (ffi_ptr_map_put(active, key, 1) != 0) return -1;
  }
  int32_t region = v->def_region;
  int rc = check_stack() == 0 ? call_hook(v, hook, value, out) : -1;
  v->def_region = region; /* a hook that failed midway may have left its region set */
  if (active != NULL) ffi_ptr_map_erase(active, key);
  return rc;
}

/* ---- children ---- */

typedef struct {
  TVMFFIAny value; /* owned */
  int32_t region;
} Child;

/* Appends an uninitialised slot (the caller writes every field): the common case stays inline. */
static inline Child* push_child(FfiVec* children) {
  if (FFI_LIKELY(children->size < children->capacity)) {
    return (Child*)ffi_vec_at(children, children->size++);
  }
  return (Child*)ffi_vec_push(children);
}

/* The region a field opens inside `base` (C++ WithDefRegionKind: Pattern is never left). */
static int32_t field_region(int64_t flags, int32_t base) {
  if (base == kTVMFFIDefRegionKindPattern) return base;
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) return kTVMFFIDefRegionKindSimple;
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) return kTVMFFIDefRegionKindPattern;
  return base;
}

typedef struct {
  FfiVec* children;
  TVMFFIObject* obj;
  int32_t base;
} FieldCtx;

static int add_field(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return 0;
  Child* c = push_child(ctx->children);
  if (c == NULL) return -1;
  c->value = ffi_any_none();
  c->region = field_region(field->flags, ctx->base);
  if (ffi_field_get(ctx->obj, field, &c->value) != 0) {
    ctx->children->size -= 1;
    return -1;
  }
  return 0;
}

static void drop_children(FfiVec* children, size_t begin) {
  for (size_t i = begin; i < children->size; ++i) {
    ffi_any_release(&((Child*)ffi_vec_at(children, i))->value);
  }
  children->size = begin;
}

/* Appends the default children of obj (visited in `region`) as owned copies. */
static int collect_children(FfiVec* children, TVMFFIObject* obj, int32_t region) {
  int32_t t = obj->type_index;
  size_t begin = children->size;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; i < cell->size; ++i) {
      Child* c = push_child(children);
      if (c == NULL) goto fail;
      c->value = ffi_any_retain(&ffi_seq_items(obj)[i]);
      c->region = region;
    }
    return 0;
  }
  if (t == kTVMFFIMap || t == kTVMFFIDict) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (ffi_map_next(obj, &cursor, &k, &v)) {
      Child* c = push_child(children);
      if (c == NULL) goto fail;
      c->value = ffi_any_retain(v);
      c->region = region;
    }
    return 0;
  }
  /* A simple definition defines the variable itself; its fields are uses. */
  int32_t base = region;
  if (region == kTVMFFIDefRegionKindSimple && ffi_type_seq_kind(t) == kTVMFFISEqHashKindFreeVar) {
    base = kTVMFFIDefRegionKindNone;
  }
  FieldCtx ctx = {children, obj, base};
  if (ffi_for_each_field(t, add_field, &ctx) == 0) return 0;
fail:
  drop_children(children, begin);
  return -1;
}

/* ---- default descent through any visitor (used by hooks and the globals) ---- */

static int default_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out);

int ffi_visitor_default_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out) {
  *out = ffi_any_none();
  if (!is_ours(v)) return default_visit(v, value, out);
  if (enter_visitor((FfiVisitor*)v) != 0) return -1;
  int rc = default_visit(v, value, out);
  leave_visitor((FfiVisitor*)v);
  return rc;
}

static int default_visit(FfiVisitorBase* v, const TVMFFIAny* value, TVMFFIAny* out) {
  if (!ffi_is_object_index(value->type_index) || value->v_obj == NULL) return 0;
  const TVMFFIAny* hook = ffi_visit_hook_of(value->type_index);
  if (hook != NULL) return run_hook(v, hook, value, out);
  Child inline_children[16];
  FfiVec children;
  ffi_vec_init_inline(&children, sizeof(Child), inline_children, 16);
  int32_t region = v->def_region;
  int rc = collect_children(&children, value->v_obj, region);
  for (size_t i = 0; rc == 0 && i < children.size && out->type_index == kTVMFFINone; ++i) {
    Child* c = (Child*)ffi_vec_at(&children, i);
    v->def_region = c->region;
    rc = ffi_visitor_visit(v, &c->value, out);
  }
  v->def_region = region;
  drop_children(&children, 0);
  ffi_vec_free(&children);
  return rc;
}

/* ---- the runtime visitor ---- */

typedef struct {
  TVMFFIAny value; /* owned */
  int32_t region;
  bool tracked; /* in the visitor's active set */
  size_t begin, next, end;
} Frame;

typedef struct {
  FfiVec frames;
  FfiVec children;
} Stacks;

static TVMFFIAny engine_visit(TVMFFIObject* self, TVMFFIAny value);
static const FfiVisitorVTable kEngineVTable = {engine_visit};

static bool is_ours(const FfiVisitorBase* v) { return v->vtable == &kEngineVTable; }

/* The post-order callback of a value whose children are done. */
static int finish_value(FfiVisitor* v, const TVMFFIAny* value, int32_t region, TVMFFIAny* out) {
  if (v->mode != FFI_VISIT_POST) return 0;
  v->base.def_region = region;
  int action;
  return ffi_visitor_callback(v, value, &action, out);
}

/* Visits one value: callbacks of the pre-order/own modes, then its hook or a frame of its
 * children (pushed, not visited: the loop in ffi_visitor_run does that). */
static int visit_value(FfiVisitor* v, Stacks* st, const TVMFFIAny* value, int32_t region,
                       TVMFFIAny* out) {
  if (value->type_index == kTVMFFINone) return 0;
  v->base.def_region = region;
  if (v->mode != FFI_VISIT_POST) {
    int action;
    if (ffi_visitor_callback(v, value, &action, out) != 0) return -1;
    if (out->type_index != kTVMFFINone) return 0;
    if (v->mode == FFI_VISIT_OWN ? action != FFI_WALK_UNMATCHED : action == FFI_WALK_SKIP) return 0;
  }
  if (!ffi_is_object_index(value->type_index) || value->v_obj == NULL) {
    return finish_value(v, value, region, out);
  }
  TVMFFIObject* obj = value->v_obj;
  const TVMFFIAny* hook = custom_hook(obj->type_index);
  if (hook != NULL) {
    int rc = run_hook(&v->base, hook, value, out);
    if (rc != 0 || out->type_index != kTVMFFINone) return rc;
    return finish_value(v, value, region, out);
  }
  size_t begin = st->children.size;
  if (collect_children(&st->children, obj, region) != 0) return -1;
  if (st->children.size == begin) return finish_value(v, value, region, out);
  /* Only mutable objects can close a cycle: Array and Map never change after construction. */
  bool track = obj->type_index != kTVMFFIArray && obj->type_index != kTVMFFIMap;
  uint64_t key = (uint64_t)(uintptr_t)obj;
  int rc = 0;
  if (track && ffi_ptr_map_find(&v->active, key) != NULL) {
    rc = raise_cycle(obj);
  } else if ((int64_t)st->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    rc = ffi_raise("ValueError", "structural visit: maximum nesting depth (%lld) exceeded",
                   (long long)FFI_GRAPH_MAX_DEPTH);
  } else if (track && ffi_ptr_map_put(&v->active, key, 1) != 0) {
    rc = -1;
  }
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&st->frames) : NULL;
  if (f == NULL) {
    if (rc == 0 && track) ffi_ptr_map_erase(&v->active, key);
    drop_children(&st->children, begin);
    return -1;
  }
  f->value = ffi_any_retain(value);
  f->region = region;
  f->tracked = track;
  f->begin = f->next = begin;
  f->end = st->children.size;
  return 0;
}

static void pop_frame(FfiVisitor* v, Stacks* st) {
  Frame* f = (Frame*)ffi_vec_top(&st->frames);
  if (f->tracked) ffi_ptr_map_erase(&v->active, (uint64_t)(uintptr_t)f->value.v_obj);
  drop_children(&st->children, f->begin);
  ffi_any_release(&f->value);
  st->frames.size -= 1;
}

/* Appends the value whose visit failed, then the values of the open frames (innermost first),
 * to the raised error's visit record, as the reference's engines record each object an error
 * unwinds through. Before the frames are popped: `failed` may be one of their children. */
static void record_failure(const Stacks* st, const TVMFFIAny* failed) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return;
  ffi_visit_error_record((TVMFFIObject*)err, failed);
  for (size_t i = st->frames.size; i-- > 0;) {
    const Frame* f = (const Frame*)ffi_vec_at(&st->frames, i);
    /* A value that failed after its children (post-order) is still the top frame. */
    if (i + 1 == st->frames.size && ffi_any_same(&f->value, failed)) continue;
    ffi_visit_error_record((TVMFFIObject*)err, &f->value);
  }
  ffi_error_set_raised_steal((TVMFFIObject*)err);
}

int ffi_visitor_run(FfiVisitor* v, const TVMFFIAny* value, TVMFFIAny* out) {
  *out = ffi_any_none();
  if (check_stack() != 0 || enter_visitor(v) != 0) return -1;
  Frame inline_frames[16];
  Child inline_children[64];
  Stacks st;
  ffi_vec_init_inline(&st.frames, sizeof(Frame), inline_frames, 16);
  ffi_vec_init_inline(&st.children, sizeof(Child), inline_children, 64);
  int32_t region = v->base.def_region;
  int rc = visit_value(v, &st, value, region, out);
  if (rc != 0) record_failure(&st, value);
  while (rc == 0 && out->type_index == kTVMFFINone && st.frames.size > 0) {
    Frame* f = (Frame*)ffi_vec_top(&st.frames);
    if (f->next < f->end) {
      /* A copy of the view: visiting may grow (move) the children vector. */
      Child child = *(Child*)ffi_vec_at(&st.children, f->next++);
      rc = visit_value(v, &st, &child.value, child.region, out);
      if (rc != 0) record_failure(&st, &child.value);
      continue;
    }
    TVMFFIAny done = f->value;
    int32_t done_region = f->region;
    rc = finish_value(v, &done, done_region, out);
    if (rc != 0) record_failure(&st, &done);
    pop_frame(v, &st);
  }
  while (st.frames.size > 0) pop_frame(v, &st);
  ffi_vec_free(&st.frames);
  ffi_vec_free(&st.children);
  v->base.def_region = region;
  leave_visitor(v);
  return rc;
}

/* The vtable entry: C++ hooks and Python's visitor.visit come back in here. */
static TVMFFIAny engine_visit(TVMFFIObject* self, TVMFFIAny value) {
  TVMFFIAny out;
  if (ffi_visitor_run((FfiVisitor*)self, &value, &out) != 0) return raised_as_any();
  return out;
}

static void visitor_destroy(void* self) {
  FfiVisitor* v = (FfiVisitor*)self;
  for (int32_t i = 0; i < v->num_entries; ++i) ffi_decref_nested(v->entries[i].fn);
  free(v->entries);
  ffi_ptr_map_free(&v->active);
}
FFI_DEFINE_DELETER(visitor_deleter, visitor_destroy)

int ffi_visitor_new(FfiVisitMode mode, FfiVisitEntry* entries, int32_t num_entries,
                    FfiVisitor** out) {
  FfiVisitor* v = (FfiVisitor*)ffi_object_alloc(sizeof(FfiVisitor), ffi_visitor_type_index(),
                                                visitor_deleter);
  if (v == NULL) {
    for (int32_t i = 0; i < num_entries; ++i) ffi_decref(entries[i].fn);
    free(entries);
    return -1;
  }
  v->base.vtable = &kEngineVTable;
  v->base.def_region = kTVMFFIDefRegionKindNone;
  v->mode = mode;
  v->entries = entries;
  v->num_entries = num_entries;
  v->match_type = -1; /* no value has this type index */
  v->match_entry = NULL;
  ffi_ptr_map_init(&v->active);
  atomic_init(&v->owner, 0);
  v->depth = 0;
  *out = v;
  return 0;
}
