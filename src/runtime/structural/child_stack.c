/*
 * structural/child_stack.c -- the stack of children that the object-graph walks (deep copy,
 * JSON graph write, recursive hash) keep for the nodes they have open (FfiChild, graph_util.h).
 */
#include "graph_util.h"

int ffi_children_push_view(FfiVec* children, const TVMFFIAny* view, const TVMFFIFieldInfo* field) {
  FfiChild* c = (FfiChild*)ffi_vec_push(children);
  if (c == NULL) return -1;
  c->value = ffi_any_retain(view);
  c->field = field;
  return 0;
}

typedef struct {
  FfiVec* children;
  TVMFFIObject* obj;
  int64_t skip_flags;
} FieldPush;

static int push_field(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldPush* ctx = (FieldPush*)ctx_;
  if (field->flags & ctx->skip_flags) return 0;
  TVMFFIAny v;
  if (ffi_field_get(ctx->obj, field, &v) != 0) return -1;
  FfiChild* c = (FfiChild*)ffi_vec_push(ctx->children);
  if (c == NULL) {
    ffi_any_release(&v);
    return -1;
  }
  c->value = v;
  c->field = field;
  return 0;
}

int ffi_children_push_fields(FfiVec* children, TVMFFIObject* obj, int64_t skip_flags) {
  FieldPush ctx = {children, obj, skip_flags};
  return ffi_for_each_field(obj->type_index, push_field, &ctx);
}

int ffi_children_push_all(FfiVec* children, TVMFFIObject* obj) {
  int32_t t = obj->type_index;
  int rc = 0;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; rc == 0 && i < cell->size; ++i) {
      rc = ffi_children_push_view(children, &ffi_seq_items(obj)[i], NULL);
    }
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (rc == 0 && ffi_map_next(obj, &cursor, &k, &v)) {
      rc = ffi_children_push_view(children, k, NULL);
      if (rc == 0) rc = ffi_children_push_view(children, v, NULL);
    }
  } else {
    rc = ffi_children_push_fields(children, obj, 0);
  }
  return rc;
}

void ffi_children_drop(FfiVec* children, size_t begin) {
  for (size_t i = begin; i < children->size; ++i) {
    ffi_any_release(&((FfiChild*)ffi_vec_at(children, i))->value);
  }
  children->size = begin;
}
