/*
 * structural/structural_eq.c -- ffi.StructuralEqual and ffi.GetFirstStructuralMismatch (spec
 * STRUCTURAL.md sections 3.2-3.5 and 3.8).
 *
 * Explicit-stack walk over pairs (lhs, rhs). Each container/object pair gets a frame with owned
 * copies of its child pairs and the access steps that reached it; the first failing comparison
 * ends the walk, and when paths were asked for, the steps of the frames on the stack plus the
 * failing child's steps become the two AccessPaths. Pairs found equal are memoised, and DAG /
 * free-var nodes are bound one-to-one in both directions.
 */
#include <stdlib.h>

#include "access_steps.h"
#include "structural.h"
#include "structural_rules.h"

enum { kChildPair = 0, kChildMapEntry = 1 };

typedef struct {
  TVMFFIAny lhs, rhs; /* for map entries lhs = key, rhs = lhs value */
  int region;
  int mode;
  bool owned; /* false: borrowed from two immutable Arrays being compared */
  FfiStep lstep, rstep;
} Child;

typedef struct {
  TVMFFIObject *lhs, *rhs;
  int region;
  int kind; /* -1 for containers */
  size_t begin, count, next;
  FfiStep lstep, rstep;
  bool hook_only; /* a placeholder frame while an __s_equal__ hook runs */
  bool owned;     /* the walk holds a reference to lhs (see ffi_may_be_shared) */
} Frame;

typedef struct {
  bool map_free_vars;
  bool skip_tensor_content;
  bool want_paths;
  FfiPtrMap equal_memo; /* lhs -> rhs last found equal (tree nodes) */
  FfiPtrMap lhs_bound;  /* DAG / free-var bijection */
  FfiPtrMap rhs_bound;
  FfiPtrMap active; /* lhs -> rhs of the pairs on the stack (cycle check), once tracked */
  bool track_cycles; /* set when the stack first gets deeper than kCycleTrackDepth */
  FfiVec frames;
  FfiVec children;
  TVMFFIObject* paths; /* Array(lhs_path, rhs_path) of the first mismatch */
} Equal;

/* Only mutable values can close a cycle, so only they are tracked while open. And only from
 * this depth on: a cycle makes the stack grow without bound, so it still gets caught (a few
 * frames later), while the common shallow comparison skips a map insert and erase per node. */
static bool is_mutable(int32_t t) { return t != kTVMFFIArray && t != kTVMFFIMap; }
enum { kCycleTrackDepth = 64 };

/* ---- mismatch paths ---- */

static int record_mismatch(Equal* e, const FfiStep* lextra, const FfiStep* rextra) {
  if (!e->want_paths || e->paths != NULL) return 0;
  size_t n = e->frames.size + 1;
  const FfiStep** ls = (const FfiStep**)malloc(n * sizeof(FfiStep*));
  const FfiStep** rs = (const FfiStep**)malloc(n * sizeof(FfiStep*));
  int rc = -1;
  TVMFFIObject *lp = NULL, *rp = NULL;
  if (ls == NULL || rs == NULL) {
    ffi_raise("MemoryError", "out of memory building a mismatch path");
    goto done;
  }
  for (size_t i = 0; i < e->frames.size; ++i) {
    const Frame* f = (const Frame*)ffi_vec_at(&e->frames, i);
    ls[i] = &f->lstep;
    rs[i] = &f->rstep;
  }
  ls[n - 1] = lextra;
  rs[n - 1] = rextra;
  if (ffi_access_path_from_steps(ls, n, &lp) != 0 || ffi_access_path_from_steps(rs, n, &rp) != 0) {
    goto done;
  }
  TVMFFIAny items[2] = {ffi_any_from_object(lp), ffi_any_from_object(rp)};
  rc = ffi_array_new(items, 2, &e->paths);
done:
  if (lp != NULL) ffi_decref(lp);
  if (rp != NULL) ffi_decref(rp);
  free(ls);
  free(rs);
  return rc;
}

/* ---- frames ---- */

static int add_child_ref(Equal* e, const TVMFFIAny* l, const TVMFFIAny* r, int region, int mode,
                         FfiStep lstep, FfiStep rstep, bool borrow) {
  Child* c = (Child*)ffi_vec_push_uninit(&e->children);
  if (c == NULL) {
    ffi_step_release(&lstep);
    ffi_step_release(&rstep);
    return -1;
  }
  c->owned = !borrow;
  c->lhs = borrow ? *l : ffi_any_retain(l);
  c->rhs = borrow ? *r : ffi_any_retain(r);
  c->region = region;
  c->mode = mode;
  c->lstep = lstep;
  c->rstep = rstep;
  return 0;
}

static int add_child(Equal* e, const TVMFFIAny* l, const TVMFFIAny* r, int region, int mode,
                     FfiStep lstep, FfiStep rstep) {
  return add_child_ref(e, l, r, region, mode, lstep, rstep, false);
}

/* Takes the references of `l` and `r` (released by this call on failure too). */
static int add_child_owned(Equal* e, TVMFFIAny* l, TVMFFIAny* r, int region, FfiStep lstep,
                           FfiStep rstep) {
  Child* c = (Child*)ffi_vec_push_uninit(&e->children);
  if (c == NULL) {
    ffi_any_release(l);
    ffi_any_release(r);
    ffi_step_release(&lstep);
    ffi_step_release(&rstep);
    return -1;
  }
  c->owned = true;
  c->lhs = *l;
  c->rhs = *r;
  c->region = region;
  c->mode = kChildPair;
  c->lstep = lstep;
  c->rstep = rstep;
  return 0;
}

static void drop_children(Equal* e, size_t begin) {
  for (size_t i = begin; i < e->children.size; ++i) {
    Child* c = (Child*)ffi_vec_at(&e->children, i);
    if (c->owned) {
      ffi_any_release(&c->lhs);
      ffi_any_release(&c->rhs);
    }
    ffi_step_release(&c->lstep);
    ffi_step_release(&c->rstep);
  }
  e->children.size = begin;
}

static void pop_frame(Equal* e) {
  Frame* f = (Frame*)ffi_vec_top(&e->frames);
  drop_children(e, f->begin);
  if (e->track_cycles && is_mutable(f->lhs->type_index)) {
    uint64_t* open = ffi_ptr_map_find(&e->active, (uint64_t)(uintptr_t)f->lhs);
    if (open != NULL && *open == (uint64_t)(uintptr_t)f->rhs) {
      ffi_ptr_map_erase(&e->active, (uint64_t)(uintptr_t)f->lhs);
    }
  }
  ffi_step_release(&f->lstep);
  ffi_step_release(&f->rstep);
  e->frames.size -= 1;
}

typedef struct {
  Equal* e;
  TVMFFIObject *lhs, *rhs;
  int region;
} FieldCtx;

static int add_field_child(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return 0;
  TVMFFIAny l, r;
  if (ffi_field_get(ctx->lhs, field, &l) != 0) return -1;
  if (ffi_field_get(ctx->rhs, field, &r) != 0) {
    ffi_any_release(&l);
    return -1;
  }
  /* Steps (a String per field name) only when a mismatch path may be asked for. */
  FfiStep ls = ffi_step_none(), rs = ffi_step_none();
  if (ctx->e->want_paths) {
    int rc = ffi_step_attr(kStepAttr, field->name, &ls);
    if (rc == 0 && (rc = ffi_step_attr(kStepAttr, field->name, &rs)) != 0) ffi_step_release(&ls);
    if (rc != 0) {
      ffi_any_release(&l);
      ffi_any_release(&r);
      return rc;
    }
  }
  return add_child_owned(ctx->e, &l, &r, ffi_field_region(field, ctx->region), ls, rs);
}

static int push_frame(Equal* e, TVMFFIObject* lhs, TVMFFIObject* rhs, int region, int kind,
                      const Child* via, size_t begin, bool hook_only) {
  Frame* f = (Frame*)ffi_vec_push_uninit(&e->frames);
  if (f == NULL) {
    drop_children(e, begin);
    return -1;
  }
  f->lhs = lhs;
  f->rhs = rhs;
  f->region = region;
  f->kind = kind;
  f->begin = begin;
  f->count = e->children.size - begin;
  f->next = 0;
  f->hook_only = hook_only;
  f->owned = via != NULL && via->owned;
  if (!e->track_cycles && e->frames.size > kCycleTrackDepth) {
    /* Deep enough to be a cycle: from now on every open mutable pair is tracked. */
    e->track_cycles = true;
    for (size_t i = 0; i + 1 < e->frames.size; ++i) {
      const Frame* open = (const Frame*)ffi_vec_at(&e->frames, i);
      if (is_mutable(open->lhs->type_index) &&
          ffi_ptr_map_put(&e->active, (uint64_t)(uintptr_t)open->lhs,
                          (uint64_t)(uintptr_t)open->rhs) != 0) {
        f->lstep = f->rstep = ffi_step_none();
        e->track_cycles = false; /* this frame is not in the map yet: pop_frame must not look */
        pop_frame(e);
        e->track_cycles = true;
        return -1;
      }
    }
  }
  if (e->track_cycles && is_mutable(lhs->type_index) &&
      ffi_ptr_map_put(&e->active, (uint64_t)(uintptr_t)lhs, (uint64_t)(uintptr_t)rhs) != 0) {
    f->lstep = f->rstep = ffi_step_none();
    pop_frame(e);
    return -1;
  }
  bool steps = via != NULL && e->want_paths;
  f->lstep = steps ? ffi_step_key(via->lstep.kind, &via->lstep.key) : ffi_step_none();
  f->rstep = steps ? ffi_step_key(via->rstep.kind, &via->rstep.key) : ffi_step_none();
  return 0;
}

static int call_hook(Equal* e, const TVMFFIAny* hook, TVMFFIObject* lhs, TVMFFIObject* rhs,
                     int region, bool* equal);

/* Outcome of starting a pair: decided now (*decided, *equal) or a frame pushed. */
static int start_pair(Equal* e, const Child* c, bool* decided, bool* equal) {
  *decided = true;
  *equal = false;
  const TVMFFIAny *l = &c->lhs, *r = &c->rhs;
  bool lleaf = ffi_structural_is_leaf(l), rleaf = ffi_structural_is_leaf(r);
  if (lleaf || rleaf) {
    int error;
    *equal = lleaf && rleaf && ffi_leaf_structural_equal(l, r, e->skip_tensor_content, &error);
    return lleaf && rleaf ? error : 0;
  }
  int32_t t = l->type_index;
  if (t != r->type_index) return 0;
  TVMFFIObject *lo = l->v_obj, *ro = r->v_obj;
  int kind = -1;
  bool container = t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
  if (!container) {
    kind = ffi_type_seq_kind(t);
    if (kind <= 0) {
      TVMFFIByteArray key = ffi_type_key_of(t);
      return kind < 0 ? ffi_raise("TypeError",
                                  "Type metadata is not set for type `%.*s`, so StructuralHash is "
                                  "not supported for this type",
                                  (int)key.size, key.data)
                      : ffi_raise("TypeError",
                                  "_type_s_eq_hash_kind is not set for type `%.*s`, so "
                                  "StructuralHash is not supported for this type",
                                  (int)key.size, key.data);
    }
    if (lo == ro && (kind == kTVMFFISEqHashKindConstTreeNode ||
                     kind == kTVMFFISEqHashKindUniqueInstance)) {
      *equal = true;
      return 0;
    }
    if (kind == kTVMFFISEqHashKindUniqueInstance) return 0;
    if (ffi_seq_binds(kind)) {
      int bound = ffi_sequal_bound(&e->lhs_bound, &e->rhs_bound, lo, ro);
      if (bound >= 0) {
        *equal = bound == 1;
        return 0;
      }
    }
  }
  uint64_t* memo = ffi_may_be_shared(lo, c->owned)
                       ? ffi_ptr_map_find(&e->equal_memo, (uint64_t)(uintptr_t)lo)
                       : NULL;
  if (memo != NULL && *memo == (uint64_t)(uintptr_t)ro && !ffi_seq_binds(kind)) {
    *equal = true;
    return 0;
  }
  if ((int64_t)e->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "StructuralEqual: maximum stack depth (1048576) exceeded");
  }
  uint64_t* open = ffi_ptr_map_find(&e->active, (uint64_t)(uintptr_t)lo);
  if (open != NULL && *open == (uint64_t)(uintptr_t)ro) { /* a pair already open: a cycle */
    TVMFFIByteArray key = ffi_type_key_of(t);
    return ffi_raise("ValueError", "StructuralEqual: cycle detected, a `%.*s` contains itself",
                     (int)key.size, key.data);
  }
  *decided = false;
  int child_region = ffi_sequal_child_region(kind, c->region);
  size_t begin = e->children.size;
  int rc = 0;
  if (kind > 0) {
    const TVMFFIAny* hook = ffi_type_attr(t, "__s_equal__");
    if (hook != NULL) {
      if (push_frame(e, lo, ro, c->region, kind, c, begin, true) != 0) return -1;
      bool eq = false;
      rc = call_hook(e, hook, lo, ro, child_region, &eq);
      Frame* f = (Frame*)ffi_vec_top(&e->frames);
      f->next = f->count = 0;
      if (rc != 0) return -1;
      if (!eq) {
        *decided = true;
        rc = record_mismatch(e, &(FfiStep){kStepNone, ffi_any_none()},
                             &(FfiStep){kStepNone, ffi_any_none()});
        pop_frame(e);
        return rc;
      }
      return 0; /* the empty frame finishes on the next step and binds/memoises */
    }
  }
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    int64_t nl = ffi_seq_cell(lo)->size, nr = ffi_seq_cell(ro)->size;
    int64_t n = nl < nr ? nl : nr;
    for (int64_t i = 0; rc == 0 && i < n; ++i) {
      rc = add_child_ref(e, &ffi_seq_items(lo)[i], &ffi_seq_items(ro)[i], child_region, kChildPair,
                         ffi_step_index(kStepArrayItem, i), ffi_step_index(kStepArrayItem, i),
                         t == kTVMFFIArray);
    }
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (rc == 0 && ffi_map_next(lo, &cursor, &k, &v)) {
      FfiStep ks = e->want_paths ? ffi_step_key(kStepMapItem, k) : ffi_step_none();
      FfiStep vs = e->want_paths ? ffi_step_key(kStepMapItem, k) : ffi_step_none();
      rc = add_child(e, k, v, child_region, kChildMapEntry, ks, vs);
    }
  } else {
    FieldCtx ctx = {e, lo, ro, child_region};
    rc = ffi_for_each_field(t, add_field_child, &ctx);
  }
  if (rc != 0) {
    drop_children(e, begin);
    return -1;
  }
  return push_frame(e, lo, ro, c->region, kind, c, begin, false);
}

/* Checks done when all children matched: lengths, extra map keys. */
static int finish_frame(Equal* e, Frame* f, bool* equal) {
  *equal = true;
  int32_t t = f->lhs->type_index;
  if (f->hook_only) {
    /* fall through to binding */
  } else if (t == kTVMFFIArray || t == kTVMFFIList) {
    int64_t nl = ffi_seq_cell(f->lhs)->size, nr = ffi_seq_cell(f->rhs)->size;
    if (nl != nr) {
      *equal = false;
      int64_t n = nl < nr ? nl : nr;
      FfiStep present = ffi_step_index(kStepArrayItem, n);
      FfiStep missing = ffi_step_index(kStepArrayItemMissing, n);
      return nl > nr ? record_mismatch(e, &present, &missing) : record_mismatch(e, &missing, &present);
    }
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    if (ffi_map_size(f->lhs) != ffi_map_size(f->rhs)) {
      uint64_t cursor = 0;
      TVMFFIAny *k, *v;
      while (ffi_map_next(f->rhs, &cursor, &k, &v)) {
        TVMFFIAny lk = ffi_sequal_bound_key(&e->rhs_bound, k);
        if (ffi_map_lookup(f->lhs, &lk) != NULL) continue;
        *equal = false;
        FfiStep present = {kStepMapItem, *k}, missing = {kStepMapItemMissing, *k};
        return record_mismatch(e, &missing, &present);
      }
      *equal = false;
      return record_mismatch(e, &(FfiStep){kStepNone, ffi_any_none()},
                             &(FfiStep){kStepNone, ffi_any_none()});
    }
  }
  if (ffi_sequal_free_var_mismatch(f->kind, f->lhs, f->rhs, f->region)) {
    *equal = false;
    return record_mismatch(e, &(FfiStep){kStepNone, ffi_any_none()},
                           &(FfiStep){kStepNone, ffi_any_none()});
  }
  if (ffi_seq_binds(f->kind)) {
    if (ffi_sequal_bind(&e->lhs_bound, &e->rhs_bound, f->lhs, f->rhs) != 0) return -1;
  } else {
    if (ffi_may_be_shared(f->lhs, f->owned) &&
        ffi_ptr_map_put(&e->equal_memo, (uint64_t)(uintptr_t)f->lhs, (uint64_t)(uintptr_t)f->rhs) != 0) {
      return -1;
    }
  }
  return 0;
}

/* Walks until the stack is back at base; *equal = false at the first mismatch. */
static int run(Equal* e, size_t base, bool* equal) {
  *equal = true;
  while (e->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&e->frames);
    if (f->next < f->count) {
      Child* c = (Child*)ffi_vec_at(&e->children, f->begin + f->next);
      f->next += 1;
      Child pair = *c;
      if (c->mode == kChildMapEntry) {
        TVMFFIAny rk = ffi_sequal_bound_key(&e->lhs_bound, &c->lhs);
        TVMFFIAny* rv = ffi_map_lookup(f->rhs, &rk);
        if (rv == NULL) {
          *equal = false;
          FfiStep missing = {kStepMapItemMissing, c->lhs};
          return record_mismatch(e, &c->lstep, &missing);
        }
        pair.lhs = c->rhs; /* the lhs value */
        pair.rhs = *rv;
      }
      bool decided, eq;
      if (start_pair(e, &pair, &decided, &eq) != 0) return -1;
      if (decided && !eq) {
        *equal = false;
        if (e->paths != NULL || !e->want_paths) return 0;
        return record_mismatch(e, &pair.lstep, &pair.rstep);
      }
      continue;
    }
    bool eq;
    if (finish_frame(e, f, &eq) != 0) return -1;
    if (!eq) {
      *equal = false;
      return 0;
    }
    pop_frame(e);
  }
  return 0;
}

static void unwind(Equal* e, size_t base) {
  while (e->frames.size > base) pop_frame(e);
}

/* Compares one pair with the walk state (entry point and hooks). */
static int equal_pair(Equal* e, const TVMFFIAny* l, const TVMFFIAny* r, int region,
                      FfiStep lstep, FfiStep rstep, bool* equal) {
  size_t base = e->frames.size;
  Child c = {*l, *r, region, kChildPair, false, lstep, rstep};
  bool decided;
  int rc = start_pair(e, &c, &decided, equal);
  if (rc == 0 && decided && !*equal) rc = record_mismatch(e, &lstep, &rstep);
  if (rc == 0 && !decided) rc = run(e, base, equal);
  unwind(e, base);
  return rc;
}

/* ---- __s_equal__ hooks: hook(lhs, rhs, fn_eq), fn_eq(l, r, def_region_kind, field_name) ---- */

typedef struct {
  Equal* e;
  int region;
} HookState;

static int fn_eq_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const char* fname = "StructuralEqual.fn_eq";
  HookState* hs = (HookState*)self;
  int64_t region = 0;
  TVMFFIByteArray name = {"", 0};
  if (num_args < 2 || num_args > 4) return ffi_check_num_args(fname, num_args, 4);
  if (num_args > 2 && ffi_arg_int(fname, args, 2, &region) != 0) return -1;
  if (num_args > 3 && ffi_arg_str(fname, args, 3, &name) != 0) return -1;
  int use = region == kTVMFFIDefRegionKindPattern ? (int)kTVMFFIDefRegionKindPattern
            : region == kTVMFFIDefRegionKindSimple && hs->region != kTVMFFIDefRegionKindPattern
                ? (int)kTVMFFIDefRegionKindSimple
                : hs->region;
  TVMFFIAny l, r;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &l) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(&args[1], &r) != 0) {
    ffi_any_release(&l);
    return -1;
  }
  FfiStep ls = ffi_step_none(), rs = ffi_step_none();
  int rc = 0;
  if (name.size > 0) {
    rc = ffi_step_attr(kStepAttr, name, &ls);
    if (rc == 0 && (rc = ffi_step_attr(kStepAttr, name, &rs)) != 0) ffi_step_release(&ls);
  }
  bool eq = false;
  if (rc == 0) {
    rc = equal_pair(hs->e, &l, &r, use, ls, rs, &eq);
    ffi_step_release(&ls);
    ffi_step_release(&rs);
  }
  ffi_any_release(&l);
  ffi_any_release(&r);
  if (rc != 0) return -1;
  ffi_ret_bool(result, eq);
  return 0;
}

static int call_hook(Equal* e, const TVMFFIAny* hook, TVMFFIObject* lhs, TVMFFIObject* rhs,
                     int region, bool* equal) {
  HookState hs = {e, region};
  TVMFFIObject* fn;
  if (ffi_closure_new(&hs, fn_eq_call, NULL, &fn) != 0) return -1;
  TVMFFIAny args[3] = {ffi_any_from_object(lhs), ffi_any_from_object(rhs), ffi_any_from_object(fn)};
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 3, &result);
  ffi_decref(fn);
  if (rc != 0) return -1;
  *equal = result.type_index == kTVMFFIBool || result.type_index == kTVMFFIInt ? result.v_int64 != 0 : false;
  ffi_any_release(&result);
  return 0;
}

/* ---- entry points ---- */

int ffi_structural_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool map_free_vars,
                         bool skip_tensor_content, bool* equal, TVMFFIObject** paths) {
  /* Trees are settled by the direct comparison; the walk runs for what it leaves undecided,
   * and for the path of a mismatch when one is asked for. */
  FfiDirectOutcome direct = ffi_structural_equal_direct(lhs, rhs, map_free_vars, skip_tensor_content);
  if (direct == kFfiDirectEqual || (direct == kFfiDirectUnequal && paths == NULL)) {
    *equal = direct == kFfiDirectEqual;
    return 0;
  }
  Equal e;
  e.paths = NULL; /* every other member is set below (a memset of the inline maps cost more) */
  ffi_ptr_map_init(&e.equal_memo);
  ffi_ptr_map_init(&e.lhs_bound);
  ffi_ptr_map_init(&e.rhs_bound);
  ffi_ptr_map_init(&e.active);
  e.map_free_vars = map_free_vars;
  e.skip_tensor_content = skip_tensor_content;
  e.want_paths = paths != NULL;
  e.track_cycles = false;
  /* Small comparisons run on the stack: no allocation until the walk outgrows these. */
  Frame frames[8];
  Child children[32];
  ffi_vec_init_inline(&e.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&e.children, sizeof(Child), children, 32);
  int region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  int rc = equal_pair(&e, lhs, rhs, region, ffi_step_none(), ffi_step_none(), equal);
  ffi_ptr_map_free(&e.equal_memo);
  ffi_ptr_map_free(&e.lhs_bound);
  ffi_ptr_map_free(&e.rhs_bound);
  ffi_ptr_map_free(&e.active);
  ffi_vec_free(&e.frames);
  ffi_vec_free(&e.children);
  if (paths != NULL && rc == 0 && !*equal) {
    *paths = e.paths;
  } else if (e.paths != NULL) {
    ffi_decref(e.paths);
  }
  return rc;
}
