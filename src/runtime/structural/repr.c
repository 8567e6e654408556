/*
 * structural/repr.c -- ffi.ReprPrint(value) -> str (spec STRUCTURAL.md section 2).
 *
 * An explicit-stack walk that writes text as it goes: a container or reflected object writes
 * its opening on entry, each child in turn (leaves directly, containers/objects through a frame
 * of their own), and its closing on exit, then remembers where its text lies in the output. A
 * value met again is copied from there (shared values print in full at every occurrence, in time
 * linear in the output); one still open (a cycle) prints as `...`. Types with an `__ffi_repr__`
 * hook are printed by calling it with a function that prints with this same state.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../enum_internal.h"
#include "structural.h"
#include "value_text.h"

#define IN_PROGRESS ((uint64_t)1)

typedef struct {
  FfiBuf* buf;
  size_t start, end;
} Span;

typedef struct {
  TVMFFIAny value;
  const TVMFFIFieldInfo* field; /* reflected objects: the field printed */
} Child;

typedef struct {
  TVMFFIObject* obj;
  FfiBuf* buf;
  size_t start; /* where the object's text begins in buf */
  size_t begin; /* first child in the shared child vector */
  size_t count;
  size_t next;
} Frame;

typedef struct {
  FfiPtrMap memo; /* object -> index + 2 into spans (or IN_PROGRESS) */
  FfiVec spans;   /* Span */
  FfiVec buffers; /* FfiBuf*: every output buffer, kept until the end (spans point into them) */
  FfiVec frames;
  FfiVec children;
  bool with_addr;
} Printer;

static int print_value(Printer* p, const TVMFFIAny* v, FfiBuf* out);

static int put_addr(Printer* p, FfiBuf* b, const void* obj) {
  return p->with_addr ? ffi_buf_printf(b, "@%p", obj) : 0;
}

/* Appends a span (possibly of the same buffer). */
static int copy_span(FfiBuf* b, const Span* s) {
  size_t n = s->end - s->start;
  if (ffi_buf_reserve(b, n) != 0) return -1;
  memmove(b->data + b->size, s->buf->data + s->start, n);
  b->size += n;
  return 0;
}

static int remember(Printer* p, TVMFFIObject* obj, FfiBuf* b, size_t start) {
  Span* s = (Span*)ffi_vec_push(&p->spans);
  if (s == NULL) return -1;
  s->buf = b;
  s->start = start;
  s->end = b->size;
  return ffi_ptr_map_put(&p->memo, (uint64_t)(uintptr_t)obj, (uint64_t)(p->spans.size - 1) + 2);
}

/* Leaf text, a remembered span, or the cycle marker; false in *needs_frame otherwise. */
static int child_text(Printer* p, const TVMFFIAny* v, FfiBuf* b, bool* needs_frame) {
  *needs_frame = false;
  if (ffi_text_is_leaf(v)) {
    if (ffi_text_leaf(b, v) != 0) return -1;
    return v->type_index == kTVMFFITensor ? put_addr(p, b, v->v_obj) : 0;
  }
  uint64_t* slot = ffi_ptr_map_find(&p->memo, (uint64_t)(uintptr_t)v->v_obj);
  if (slot == NULL) {
    *needs_frame = true;
    return 0;
  }
  if (*slot == IN_PROGRESS) return ffi_buf_puts(b, "...") == 0 ? put_addr(p, b, v->v_obj) : -1;
  return copy_span(b, (const Span*)ffi_vec_at(&p->spans, (size_t)(*slot - 2)));
}

/* ---- frames ---- */

static int add_child(Printer* p, const TVMFFIAny* owned, const TVMFFIFieldInfo* field) {
  Child* c = (Child*)ffi_vec_push(&p->children);
  if (c == NULL) return -1;
  c->value = *owned;
  c->field = field;
  return 0;
}

static int add_child_view(Printer* p, const TVMFFIAny* view) {
  TVMFFIAny v = ffi_any_retain(view);
  if (add_child(p, &v, NULL) != 0) {
    ffi_any_release(&v);
    return -1;
  }
  return 0;
}

typedef struct {
  Printer* p;
  TVMFFIObject* obj;
  size_t begin;
} FieldCtx;

static int add_field_child(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (field->flags & kTVMFFIFieldFlagBitMaskReprOff) return 0;
  /* A field name repeated by a subclass is printed once. */
  for (size_t i = ctx->begin; i < ctx->p->children.size; ++i) {
    const Child* c = (const Child*)ffi_vec_at(&ctx->p->children, i);
    if (c->field->name.size == field->name.size &&
        memcmp(c->field->name.data, field->name.data, field->name.size) == 0) {
      return 0;
    }
  }
  TVMFFIAny v;
  if (ffi_field_get(ctx->obj, field, &v) != 0) return -1;
  if (add_child(ctx->p, &v, field) != 0) {
    ffi_any_release(&v);
    return -1;
  }
  return 0;
}

static void drop_children(Printer* p, size_t begin) {
  for (size_t i = begin; i < p->children.size; ++i) {
    ffi_any_release(&((Child*)ffi_vec_at(&p->children, i))->value);
  }
  p->children.size = begin;
}

static int call_hook(Printer* p, const TVMFFIAny* hook, TVMFFIObject* obj, FfiBuf* b);

/* An enum member prints as the singleton it names: `<type key>.<str index>`. */
static int print_enum(Printer* p, TVMFFIObject* obj, FfiBuf* b, size_t start) {
  TVMFFIByteArray key = ffi_type_key_of(obj->type_index), name = ffi_enum_str_index(obj);
  if (ffi_buf_append(b, key.data, key.size) != 0 || ffi_buf_puts(b, ".") != 0 ||
      ffi_buf_append(b, name.data, name.size) != 0) {
    return -1;
  }
  return remember(p, obj, b, start);
}

static bool is_seq(int32_t t) { return t == kTVMFFIArray || t == kTVMFFIList; }
static bool is_map(int32_t t) { return t == kTVMFFIMap || t == kTVMFFIDict; }

/* Starts printing obj into b: writes its opening and pushes a frame, or prints it whole
 * (hooks, sentinels). */
static int push_object(Printer* p, TVMFFIObject* obj, FfiBuf* b) {
  if ((int64_t)p->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "ObjectGraphDFS: maximum stack depth (1048576) exceeded");
  }
  if (ffi_ptr_map_put(&p->memo, (uint64_t)(uintptr_t)obj, IN_PROGRESS) != 0) return -1;
  size_t start = b->size;
  const TVMFFIAny* hook = ffi_type_attr(obj->type_index, "__ffi_repr__");
  if (hook != NULL) return call_hook(p, hook, obj, b);
  const char* sentinel = ffi_sentinel_repr(obj);
  if (sentinel != NULL) return ffi_buf_puts(b, sentinel) == 0 ? remember(p, obj, b, start) : -1;
  if (ffi_enum_is_enum_type(obj->type_index)) return print_enum(p, obj, b, start);
  size_t begin = p->children.size;
  int rc = 0;
  int32_t t = obj->type_index;
  if (is_seq(t)) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; rc == 0 && i < cell->size; ++i) rc = add_child_view(p, &ffi_seq_items(obj)[i]);
    if (rc == 0) rc = ffi_buf_puts(b, t == kTVMFFIArray ? "(" : "[");
  } else if (is_map(t)) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (rc == 0 && ffi_map_next(obj, &cursor, &k, &v)) {
      rc = add_child_view(p, k);
      if (rc == 0) rc = add_child_view(p, v);
    }
    if (rc == 0) rc = ffi_buf_puts(b, "{");
  } else {
    FieldCtx ctx = {p, obj, begin};
    rc = ffi_for_each_field(t, add_field_child, &ctx);
    TVMFFIByteArray key = ffi_type_key_of(t);
    if (rc == 0) rc = ffi_buf_append(b, key.data, key.size);
    if (rc == 0) rc = put_addr(p, b, obj);
    if (rc == 0 && p->children.size > begin) rc = ffi_buf_puts(b, "(");
  }
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&p->frames) : NULL;
  if (f == NULL) {
    drop_children(p, begin);
    return -1;
  }
  f->obj = obj;
  f->buf = b;
  f->start = start;
  f->begin = begin;
  f->count = p->children.size - begin;
  f->next = 0;
  return 0;
}

/* What goes before child i of the frame. */
static int separator(const Frame* f, const Child* c, size_t i, FfiBuf* b) {
  int32_t t = f->obj->type_index;
  if (is_map(t)) return i == 0 ? 0 : ffi_buf_puts(b, i % 2 == 1 ? ": " : ", ");
  if (i > 0 && ffi_buf_puts(b, ", ") != 0) return -1;
  if (is_seq(t)) return 0;
  if (ffi_buf_append(b, c->field->name.data, c->field->name.size) != 0) return -1;
  return ffi_buf_puts(b, "=");
}

static int closing(Printer* p, const Frame* f, FfiBuf* b) {
  int32_t t = f->obj->type_index;
  int rc;
  if (is_seq(t)) {
    rc = ffi_buf_puts(b, t == kTVMFFIList ? "]" : f->count == 1 ? ",)" : ")");
  } else if (is_map(t)) {
    rc = ffi_buf_puts(b, "}");
  } else {
    return f->count > 0 ? ffi_buf_puts(b, ")") : 0;
  }
  return rc == 0 ? put_addr(p, b, f->obj) : -1;
}

/* Runs the walk until the stack is back at `base` frames. */
static int run(Printer* p, size_t base) {
  while (p->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&p->frames);
    FfiBuf* b = f->buf;
    if (f->next < f->count) {
      size_t i = f->next++;
      const Child* c = (const Child*)ffi_vec_at(&p->children, f->begin + i);
      bool needs_frame;
      if (separator(f, c, i, b) != 0 || child_text(p, &c->value, b, &needs_frame) != 0) goto fail;
      if (needs_frame && push_object(p, c->value.v_obj, b) != 0) goto fail;
      continue;
    }
    if (closing(p, f, b) != 0 || remember(p, f->obj, b, f->start) != 0) goto fail;
    drop_children(p, f->begin);
    p->frames.size -= 1;
  }
  return 0;
fail:
  while (p->frames.size > base) {
    drop_children(p, ((Frame*)ffi_vec_top(&p->frames))->begin);
    p->frames.size -= 1;
  }
  return -1;
}

static int print_value(Printer* p, const TVMFFIAny* v, FfiBuf* out) {
  bool needs_frame;
  if (child_text(p, v, out, &needs_frame) != 0) return -1;
  if (!needs_frame) return 0;
  size_t base = p->frames.size;
  if (push_object(p, v->v_obj, out) != 0) return -1;
  return run(p, base);
}

/* A new output buffer owned by the printer. */
static FfiBuf* new_buffer(Printer* p) {
  FfiBuf* b = (FfiBuf*)calloc(1, sizeof(FfiBuf));
  FfiBuf** slot = b != NULL ? (FfiBuf**)ffi_vec_push(&p->buffers) : NULL;
  if (slot == NULL) {
    free(b);
    if (b == NULL) ffi_raise("MemoryError", "out of memory in ReprPrint");
    return NULL;
  }
  *slot = b;
  return b;
}

/* ---- __ffi_repr__ hooks ---- */

static int fn_repr_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args("ReprPrint.fn_repr", num_args, 1) != 0) return -1;
  Printer* p = (Printer*)self;
  FfiBuf* b = new_buffer(p);
  if (b == NULL) return -1;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  int rc = print_value(p, &v, b);
  ffi_any_release(&v);
  if (rc != 0) return -1;
  return ffi_string_make(b->data != NULL ? b->data : "", b->size, 0, result);
}

static int call_hook(Printer* p, const TVMFFIAny* hook, TVMFFIObject* obj, FfiBuf* b) {
  TVMFFIObject* fn;
  if (ffi_closure_new(p, fn_repr_call, NULL, &fn) != 0) return -1;
  TVMFFIAny args[2] = {ffi_any_from_object(obj), ffi_any_from_object(fn)};
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 2, &result);
  ffi_decref(fn);
  if (rc != 0) return -1;
  TVMFFIByteArray text;
  if (!ffi_string_view(&result, &text)) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__ffi_repr__ must return a str");
  }
  size_t start = b->size;
  rc = ffi_buf_append(b, text.data, text.size);
  ffi_any_release(&result);
  return rc == 0 ? remember(p, obj, b, start) : -1;
}

/* ---- entry point ---- */

int ffi_repr_print(const TVMFFIAny* value, TVMFFIAny* result) {
  Printer p;
  ffi_ptr_map_init(&p.memo);
  /* Small values print without allocating these vectors. */
  Span spans[16];
  FfiBuf* buffers[4];
  Frame frames[8];
  Child children[32];
  ffi_vec_init_inline(&p.spans, sizeof(Span), spans, 16);
  ffi_vec_init_inline(&p.buffers, sizeof(FfiBuf*), buffers, 4);
  ffi_vec_init_inline(&p.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&p.children, sizeof(Child), children, 32);
  const char* env = getenv("TVM_FFI_REPR_WITH_ADDR");
  p.with_addr = env != NULL && strcmp(env, "1") == 0;
  FfiBuf* b = new_buffer(&p);
  int rc = b != NULL ? print_value(&p, value, b) : -1;
  if (rc == 0) rc = ffi_string_make(b->data != NULL ? b->data : "", b->size, 0, result);
  for (size_t i = 0; i < p.buffers.size; ++i) {
    FfiBuf* buf = *(FfiBuf**)ffi_vec_at(&p.buffers, i);
    ffi_buf_free(buf);
    free(buf);
  }
  ffi_ptr_map_free(&p.memo);
  ffi_vec_free(&p.spans);
  ffi_vec_free(&p.buffers);
  ffi_vec_free(&p.frames);
  ffi_vec_free(&p.children);
  return rc;
}

static int global_repr_print(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.ReprPrint", num_args, 1) != 0) return -1;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  int rc = ffi_repr_print(&v, result);
  ffi_any_release(&v);
  return rc;
}

void ffi_register_repr_globals(void) { ffi_register_builtin("ffi.ReprPrint", global_repr_print); }
