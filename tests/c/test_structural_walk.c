/*
 * test_structural_walk.c -- ffi.StructuralWalk / ffi.StructuralVisit and the visitor globals
 * through the C API, with C callbacks and a native `__s_visit__` hook written against the
 * visitor's ABI prefix (vtable at 24, def region at 32). Run plain and under ASan/UBSan: deep and
 * cyclic inputs, interrupts and errors must neither crash nor leak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "structural_helpers.h"

/* ---- callbacks ---- */

typedef struct {
  int64_t ints[64];
  int num_ints;
  int num_values;
  int64_t stop_at;   /* interrupt at this int (0: never) */
  int64_t fail_at;   /* raise at this int (0: never) */
  int skip_lists;    /* return Skip for Lists */
  int64_t regions[64];
} WalkLog;

static int on_value(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  WalkLog* log = (WalkLog*)self;
  log->num_values++;
  if (args[0].type_index == kTVMFFIInt) {
    int64_t v = args[0].v_int64;
    if (log->num_ints < 64) {
      log->regions[log->num_ints] = num_args > 1 ? args[1].v_int64 : -1;
      log->ints[log->num_ints++] = v;
    }
    if (log->fail_at != 0 && v == log->fail_at) {
      TVMFFIErrorSetRaisedFromCStr("ValueError", "callback refused the value");
      return -1;
    }
    if (log->stop_at != 0 && v == log->stop_at) {
      TVMFFIAny payload = any_int(v * 100);
      return call_global("ffi.VisitInterrupt", &payload, 1, result);
    }
  }
  if (log->skip_lists && args[0].type_index == kTVMFFIList) *result = any_int(1);
  return 0;
}

static TVMFFIAny make_fn(WalkLog* log) {
  void* f = NULL;
  CHECK(TVMFFIFunctionCreate(log, on_value, NULL, &f) == 0);
  return any_obj(f);
}

/* Entries [(type_index, fn)] as an owned Array. */
static TVMFFIAny entries(int64_t type_index, TVMFFIAny fn) {
  TVMFFIAny pair_items[2] = {any_int(type_index), fn};
  TVMFFIAny pair = make_container("ffi.Array", pair_items, 2);
  TVMFFIAny list = make_container("ffi.Array", &pair, 1);
  release(&pair);
  return list;
}

static TVMFFIAny empty_entries(void) { return make_container("ffi.Array", NULL, 0); }

/* StructuralWalk(root, [(type, log)] as plain or region callbacks, order) -> result. */
static int walk(TVMFFIAny root, int64_t type_index, WalkLog* log, int with_region, int64_t order,
                TVMFFIAny* result) {
  TVMFFIAny fn = make_fn(log);
  TVMFFIAny cbs = entries(type_index, fn);
  TVMFFIAny none = empty_entries();
  TVMFFIAny args[4] = {root, with_region ? none : cbs, with_region ? cbs : none, any_int(order)};
  int rc = call_global("ffi.StructuralWalk", args, 4, result);
  release(&cbs);
  release(&none);
  release(&fn);
  return rc;
}

/* [1, [2, [3]], 4] with Lists. */
static TVMFFIAny sample_tree(void) {
  TVMFFIAny three = any_int(3);
  TVMFFIAny inner = make_container("ffi.List", &three, 1);
  TVMFFIAny mid_items[2] = {any_int(2), inner};
  TVMFFIAny mid = make_container("ffi.List", mid_items, 2);
  TVMFFIAny top_items[3] = {any_int(1), mid, any_int(4)};
  TVMFFIAny top = make_container("ffi.List", top_items, 3);
  release(&inner);
  release(&mid);
  return top;
}

static void test_orders_skip_and_interrupt(void) {
  TVMFFIAny tree = sample_tree();
  WalkLog pre = {0}, post = {0};
  TVMFFIAny r;
  CHECK(walk(tree, -1, &pre, 0, 0, &r) == 0 && r.type_index == kTVMFFINone);
  CHECK(walk(tree, -1, &post, 0, 1, &r) == 0 && r.type_index == kTVMFFINone);
  CHECK_EQ_INT(pre.num_values, 7);
  CHECK_EQ_INT(post.num_values, 7);
  CHECK_EQ_INT(pre.num_ints, 4);
  CHECK(pre.ints[0] == 1 && pre.ints[1] == 2 && pre.ints[2] == 3 && pre.ints[3] == 4);

  WalkLog skip = {.skip_lists = 1};
  CHECK(walk(tree, -1, &skip, 0, 0, &r) == 0);
  CHECK_EQ_INT(skip.num_values, 1); /* the root list's children are pruned */

  WalkLog stop = {.stop_at = 2};
  CHECK(walk(tree, kTVMFFIInt, &stop, 0, 0, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIVisitInterrupt);
  CHECK_EQ_INT(stop.num_ints, 2);
  if (r.type_index == kTVMFFIVisitInterrupt) {
    TVMFFIAny payload = *(TVMFFIAny*)((char*)r.v_obj + sizeof(TVMFFIObject));
    CHECK_EQ_INT(payload.v_int64, 200);
  }
  release(&r);

  WalkLog fail = {.fail_at = 3};
  CHECK(walk(tree, kTVMFFIInt, &fail, 0, 1, &r) != 0);
  CHECK_RAISED("ValueError", "callback refused the value");
  release(&tree);
}

static void test_bad_arguments(void) {
  WalkLog log = {0};
  TVMFFIAny fn = make_fn(&log);
  TVMFFIAny bad_pair = make_container("ffi.Array", &fn, 1);
  TVMFFIAny bad = make_container("ffi.Array", &bad_pair, 1);
  TVMFFIAny none = empty_entries();
  TVMFFIAny args[4] = {any_int(1), bad, none, any_int(0)};
  TVMFFIAny r;
  CHECK(call_global("ffi.StructuralWalk", args, 4, &r) != 0);
  CHECK_RAISED("TypeError", "but got `Array[index 0: Array[size=1]]`");
  args[1] = any_int(5);
  CHECK(call_global("ffi.StructuralWalk", args, 4, &r) != 0);
  CHECK_RAISED("TypeError", "Expected `Array<Tuple<int, ffi.Function>>` but got `int`");
  CHECK(call_global("ffi.StructuralWalk", args, 3, &r) != 0);
  CHECK_RAISED("TypeError", "Expected 4 but got 3 arguments");
  release(&bad);
  release(&bad_pair);
  release(&none);
  release(&fn);
}

static void test_cycles_and_depth(void) {
  TVMFFIAny one = any_int(1);
  TVMFFIAny cyclic = make_container("ffi.List", &one, 1);
  TVMFFIAny appended;
  TVMFFIAny append_args[2] = {cyclic, cyclic};
  CHECK(call_global("ffi.ListAppend", append_args, 2, &appended) == 0);
  release(&appended);
  WalkLog log = {0};
  TVMFFIAny r;
  CHECK(walk(cyclic, -1, &log, 0, 0, &r) != 0);
  CHECK_RAISED("ValueError", "cycle");
  TVMFFIAny clear;
  CHECK(call_global("ffi.ListClear", &cyclic, 1, &clear) == 0);
  release(&clear);
  release(&cyclic);

  TVMFFIAny deep = nested_lists(200000);
  WalkLog deep_log = {0};
  CHECK(walk(deep, kTVMFFIInt, &deep_log, 0, 1, &r) == 0 && r.type_index == kTVMFFINone);
  CHECK(check_no_error_pending());
  CHECK_EQ_INT(deep_log.num_ints, 1);
  release(&deep);
}

/* ---- a type with a native hook: visits its child in a Simple region, then 4 ---- */

typedef struct {
  TVMFFIAny (*visit)(TVMFFIObject* visitor, TVMFFIAny value);
} VisitorVTable;

typedef struct {
  TVMFFIObject header;
  const VisitorVTable* vtable;
  int32_t def_region;
} VisitorPrefix;

typedef struct {
  TVMFFIObject header;
  TVMFFIAny child;
} HookedObject;

static int32_t g_hooked_index;

static TVMFFIAny hooked_visit(TVMFFIObject* visitor, TVMFFIAny value) {
  VisitorPrefix* v = (VisitorPrefix*)visitor;
  HookedObject* self = (HookedObject*)value.v_obj;
  int32_t saved = v->def_region;
  v->def_region = kTVMFFIDefRegionKindSimple;
  TVMFFIAny r = v->vtable->visit(visitor, self->child);
  v->def_region = saved;
  if (r.type_index != kTVMFFINone) return r;
  return v->vtable->visit(visitor, any_int(4));
}

static void hooked_deleter(void* self, int flags) {
  HookedObject* obj = (HookedObject*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) release(&obj->child);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(obj);
}

static TVMFFIAny make_hooked(TVMFFIAny child) {
  HookedObject* obj = (HookedObject*)calloc(1, sizeof(HookedObject));
  obj->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  obj->header.type_index = g_hooked_index;
  obj->header.deleter = hooked_deleter;
  CHECK(TVMFFIAnyViewToOwnedAny(&child, &obj->child) == 0);
  return any_obj(obj);
}

static void register_hooked_type(void) {
  TVMFFIByteArray key = check_ba("test.walk.Hooked");
  g_hooked_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  TVMFFIAny hook = {0};
  hook.type_index = kTVMFFIOpaquePtr;
  hook.v_ptr = (void*)hooked_visit;
  TVMFFIByteArray attr = check_ba("__s_visit__");
  CHECK(TVMFFITypeRegisterAttr(g_hooked_index, &attr, &hook) == 0);
}

static void test_native_hook_regions(void) {
  TVMFFIAny items[2] = {any_int(1), any_int(2)};
  TVMFFIAny arr = make_container("ffi.Array", items, 2);
  TVMFFIAny hooked = make_hooked(arr);
  WalkLog log = {0};
  TVMFFIAny r;
  CHECK(walk(hooked, kTVMFFIInt, &log, 1, 0, &r) == 0 && r.type_index == kTVMFFINone);
  CHECK_EQ_INT(log.num_ints, 3);
  CHECK(log.ints[0] == 1 && log.ints[1] == 2 && log.ints[2] == 4);
  CHECK(log.regions[0] == kTVMFFIDefRegionKindSimple && log.regions[1] == kTVMFFIDefRegionKindSimple);
  CHECK_EQ_INT(log.regions[2], kTVMFFIDefRegionKindNone);

  WalkLog stop = {.stop_at = 2};
  CHECK(walk(hooked, kTVMFFIInt, &stop, 0, 1, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIVisitInterrupt); /* passed up through the hook */
  release(&r);
  WalkLog fail = {.fail_at = 4};
  CHECK(walk(hooked, kTVMFFIInt, &fail, 0, 1, &r) != 0);
  CHECK_RAISED("ValueError", "callback refused the value");
  release(&hooked);
  release(&arr);
}

/* ---- structural_visit: a callback owning descent through the visitor globals ---- */

static int own_descent(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  WalkLog* log = (WalkLog*)self;
  CHECK_EQ_INT(num_args, 2);
  log->num_values++;
  TVMFFIAny region;
  CHECK(call_global("ffi.StructuralVisitorDefRegionKind", (TVMFFIAny*)&args[1], 1, &region) == 0);
  if (args[0].type_index == kTVMFFIInt && log->num_ints < 64) {
    log->regions[log->num_ints] = region.v_int64;
    log->ints[log->num_ints++] = args[0].v_int64;
  }
  TVMFFIAny visit_args[2] = {args[1], args[0]};
  return call_global("ffi.StructuralVisitorDefaultVisit", visit_args, 2, result);
}

static void test_visit_with_default_descent(void) {
  TVMFFIAny items[2] = {any_int(1), any_int(2)};
  TVMFFIAny arr = make_container("ffi.Array", items, 2);
  TVMFFIAny hooked = make_hooked(arr);
  WalkLog log = {0};
  void* f = NULL;
  CHECK(TVMFFIFunctionCreate(&log, own_descent, NULL, &f) == 0);
  TVMFFIAny fn = any_obj(f);
  TVMFFIAny cbs = entries(-1, fn);
  TVMFFIAny args[2] = {hooked, cbs};
  TVMFFIAny r;
  CHECK(call_global("ffi.StructuralVisit", args, 2, &r) == 0 && r.type_index == kTVMFFINone);
  CHECK(check_no_error_pending());
  CHECK_EQ_INT(log.num_values, 5); /* hooked, arr, 1, 2, 4 */
  CHECK(log.num_ints == 3 && log.regions[0] == kTVMFFIDefRegionKindSimple &&
        log.regions[2] == kTVMFFIDefRegionKindNone);
  release(&cbs);
  release(&fn);
  release(&hooked);
  release(&arr);
}

static void test_no_leaks(void) {
  int64_t before = live_objects();
  test_orders_skip_and_interrupt();
  test_native_hook_regions();
  test_cycles_and_depth();
  CHECK_EQ_INT(live_objects(), before);
}

int main(void) {
  register_hooked_type();
  RUN(test_orders_skip_and_interrupt);
  RUN(test_bad_arguments);
  RUN(test_cycles_and_depth);
  RUN(test_native_hook_regions);
  RUN(test_visit_with_default_descent);
  RUN(test_no_leaks);
  return CHECK_MAIN_RESULT();
}
