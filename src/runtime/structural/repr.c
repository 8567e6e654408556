/*
 * structural/repr.c -- ffi.ReprPrint(value) -> str (spec STRUCTURAL.md section 2).
 *
 * An explicit-stack post-order walk: each container or reflected object gets a frame holding
 * owned copies of its children; once all children are printed the frame composes its text and
 * memoises it, so a shared value is printed once and copied at every occurrence. A child still
 * on the stack (a cycle) prints as `...`. Types with an `__ffi_repr__` hook are printed by
 * calling it with a function that prints values with this same state.
 */
#include <stdio.h>
#include <stdlib.h>

#include "structural.h"
#include "value_text.h"

#define IN_PROGRESS ((uint64_t)1)

typedef struct {
  size_t size;
  char data[];
} Text;

typedef struct {
  TVMFFIAny value;
  const TVMFFIFieldInfo* field; /* reflected objects: the field printed */
} Child;

typedef struct {
  TVMFFIObject* obj;
  size_t begin; /* first child in the shared child vector */
  size_t count;
  size_t next;
} Frame;

typedef struct {
  FfiPtrMap memo; /* object -> Text* (or IN_PROGRESS) */
  FfiVec frames;
  FfiVec children;
  bool with_addr;
} Printer;

static int print_value(Printer* p, const TVMFFIAny* v, FfiBuf* out);

static int put_addr(Printer* p, FfiBuf* b, const void* obj) {
  return p->with_addr ? ffi_buf_printf(b, "@%p", obj) : 0;
}

/* Text of a child whose subtree is done: leaf text, memoised text or the cycle marker. */
static int child_text(Printer* p, const TVMFFIAny* v, FfiBuf* b) {
  if (ffi_text_is_leaf(v)) {
    if (v->type_index == kTVMFFITensor && ffi_text_leaf(b, v) == 0) return put_addr(p, b, v->v_obj);
    return ffi_text_leaf(b, v);
  }
  uint64_t* slot = ffi_ptr_map_find(&p->memo, (uint64_t)(uintptr_t)v->v_obj);
  if (slot == NULL || *slot == IN_PROGRESS) {
    return ffi_buf_puts(b, "...") == 0 ? put_addr(p, b, v->v_obj) : -1;
  }
  const Text* t = (const Text*)(uintptr_t)*slot;
  return ffi_buf_append(b, t->data, t->size);
}

static int memoise(Printer* p, TVMFFIObject* obj, FfiBuf* b) {
  Text* t = (Text*)malloc(sizeof(Text) + b->size);
  if (t == NULL) return ffi_raise("MemoryError", "out of memory in ReprPrint");
  t->size = b->size;
  if (b->size != 0) memcpy(t->data, b->data, b->size);
  if (ffi_ptr_map_put(&p->memo, (uint64_t)(uintptr_t)obj, (uint64_t)(uintptr_t)t) != 0) {
    free(t);
    return -1;
  }
  return 0;
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

/* Releases the children of the top frame and pops it. */
static void pop_frame(Printer* p) {
  Frame* f = (Frame*)ffi_vec_top(&p->frames);
  for (size_t i = f->begin; i < p->children.size; ++i) {
    ffi_any_release(&((Child*)ffi_vec_at(&p->children, i))->value);
  }
  p->children.size = f->begin;
  p->frames.size -= 1;
}

static int call_hook(Printer* p, const TVMFFIAny* hook, TVMFFIObject* obj);

/* Starts printing obj: a frame for containers and reflected objects, the hook result for types
 * with __ffi_repr__. */
static int push_object(Printer* p, TVMFFIObject* obj) {
  if ((int64_t)p->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "ObjectGraphDFS: maximum stack depth (1048576) exceeded");
  }
  if (ffi_ptr_map_put(&p->memo, (uint64_t)(uintptr_t)obj, IN_PROGRESS) != 0) return -1;
  const TVMFFIAny* hook = ffi_type_attr(obj->type_index, "__ffi_repr__");
  if (hook != NULL) return call_hook(p, hook, obj);
  size_t begin = p->children.size;
  int rc = 0;
  int32_t t = obj->type_index;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; rc == 0 && i < cell->size; ++i) rc = add_child_view(p, &ffi_seq_items(obj)[i]);
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (rc == 0 && ffi_map_next(obj, &cursor, &k, &v)) {
      rc = add_child_view(p, k);
      if (rc == 0) rc = add_child_view(p, v);
    }
  } else if (ffi_sentinel_repr(obj) == NULL) {
    FieldCtx ctx = {p, obj, begin};
    rc = ffi_for_each_field(t, add_field_child, &ctx);
  }
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&p->frames) : NULL;
  if (f == NULL) {
    for (size_t i = begin; i < p->children.size; ++i) {
      ffi_any_release(&((Child*)ffi_vec_at(&p->children, i))->value);
    }
    p->children.size = begin;
    return -1;
  }
  f->obj = obj;
  f->begin = begin;
  f->count = p->children.size - begin;
  f->next = 0;
  return 0;
}

/* Composes the text of the top frame (all children done). */
static int compose(Printer* p, const Frame* f, FfiBuf* b) {
  TVMFFIObject* obj = f->obj;
  int32_t t = obj->type_index;
  const Child* c = (const Child*)ffi_vec_at(&p->children, f->begin);
  const char* sentinel = ffi_sentinel_repr(obj);
  if (sentinel != NULL) return ffi_buf_puts(b, sentinel);
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    if (ffi_buf_puts(b, t == kTVMFFIArray ? "(" : "[") != 0) return -1;
    for (size_t i = 0; i < f->count; ++i) {
      if ((i > 0 && ffi_buf_puts(b, ", ") != 0) || child_text(p, &c[i].value, b) != 0) return -1;
    }
    if (t == kTVMFFIArray && f->count == 1 && ffi_buf_puts(b, ",") != 0) return -1;
    if (ffi_buf_puts(b, t == kTVMFFIArray ? ")" : "]") != 0) return -1;
    return put_addr(p, b, obj);
  }
  if (t == kTVMFFIMap || t == kTVMFFIDict) {
    if (ffi_buf_puts(b, "{") != 0) return -1;
    for (size_t i = 0; i + 1 < f->count; i += 2) {
      if ((i > 0 && ffi_buf_puts(b, ", ") != 0) || child_text(p, &c[i].value, b) != 0 ||
          ffi_buf_puts(b, ": ") != 0 || child_text(p, &c[i + 1].value, b) != 0) {
        return -1;
      }
    }
    return ffi_buf_puts(b, "}") == 0 ? put_addr(p, b, obj) : -1;
  }
  TVMFFIByteArray key = ffi_type_key_of(t);
  if (ffi_buf_append(b, key.data, key.size) != 0 || put_addr(p, b, obj) != 0) return -1;
  if (f->count == 0) return 0;
  if (ffi_buf_puts(b, "(") != 0) return -1;
  for (size_t i = 0; i < f->count; ++i) {
    if ((i > 0 && ffi_buf_puts(b, ", ") != 0) ||
        ffi_buf_append(b, c[i].field->name.data, c[i].field->name.size) != 0 ||
        ffi_buf_puts(b, "=") != 0 || child_text(p, &c[i].value, b) != 0) {
      return -1;
    }
  }
  return ffi_buf_puts(b, ")");
}

/* True when the child needs a frame of its own before its parent can be composed. */
static bool needs_frame(Printer* p, const TVMFFIAny* v) {
  return !ffi_text_is_leaf(v) && ffi_ptr_map_find(&p->memo, (uint64_t)(uintptr_t)v->v_obj) == NULL;
}

/* Runs the walk until the stack is back at `base` frames. */
static int run(Printer* p, size_t base) {
  FfiBuf b = {NULL, 0, 0};
  while (p->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&p->frames);
    if (f->next < f->count) {
      const Child* c = (const Child*)ffi_vec_at(&p->children, f->begin + f->next);
      f->next += 1;
      if (needs_frame(p, &c->value) && push_object(p, c->value.v_obj) != 0) goto fail;
      continue;
    }
    b.size = 0;
    if (compose(p, f, &b) != 0 || memoise(p, f->obj, &b) != 0) goto fail;
    pop_frame(p);
  }
  ffi_buf_free(&b);
  return 0;
fail:
  ffi_buf_free(&b);
  while (p->frames.size > base) pop_frame(p);
  return -1;
}

static int print_value(Printer* p, const TVMFFIAny* v, FfiBuf* out) {
  if (needs_frame(p, v)) {
    size_t base = p->frames.size;
    if (push_object(p, v->v_obj) != 0) return -1;
    if (run(p, base) != 0) return -1;
  }
  return child_text(p, v, out);
}

/* ---- __ffi_repr__ hooks ---- */

static int fn_repr_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args("ReprPrint.fn_repr", num_args, 1) != 0) return -1;
  FfiBuf b = {NULL, 0, 0};
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  int rc = print_value((Printer*)self, &v, &b);
  ffi_any_release(&v);
  if (rc != 0) {
    ffi_buf_free(&b);
    return -1;
  }
  return ffi_buf_to_str(&b, result);
}

static int call_hook(Printer* p, const TVMFFIAny* hook, TVMFFIObject* obj) {
  TVMFFIObject* fn;
  if (ffi_closure_new(p, fn_repr_call, NULL, &fn) != 0) return -1;
  TVMFFIAny args[2] = {ffi_any_from_object(obj), ffi_any_from_object(fn)};
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 2, &result);
  ffi_decref(fn);
  if (rc != 0) return -1;
  TVMFFIByteArray text;
  FfiBuf b = {NULL, 0, 0};
  if (!ffi_string_view(&result, &text)) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__ffi_repr__ must return a str");
  }
  rc = ffi_buf_append(&b, text.data, text.size);
  ffi_any_release(&result);
  if (rc == 0) rc = memoise(p, obj, &b);
  ffi_buf_free(&b);
  return rc;
}

/* ---- entry point ---- */

int ffi_repr_print(const TVMFFIAny* value, TVMFFIAny* result) {
  Printer p;
  ffi_ptr_map_init(&p.memo);
  ffi_vec_init(&p.frames, sizeof(Frame));
  ffi_vec_init(&p.children, sizeof(Child));
  const char* env = getenv("TVM_FFI_REPR_WITH_ADDR");
  p.with_addr = env != NULL && strcmp(env, "1") == 0;
  FfiBuf b = {NULL, 0, 0};
  int rc = print_value(&p, value, &b);
  for (size_t i = 0; i < p.memo.capacity; ++i) {
    if (p.memo.keys[i] != 0 && p.memo.values[i] != IN_PROGRESS) free((void*)(uintptr_t)p.memo.values[i]);
  }
  ffi_ptr_map_free(&p.memo);
  ffi_vec_free(&p.frames);
  ffi_vec_free(&p.children);
  if (rc != 0) {
    ffi_buf_free(&b);
    return -1;
  }
  return ffi_buf_to_str(&b, result);
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
