/*
 * fixtures_visit.c -- structural-visit fixtures (TESTING_FIXTURES.md 3.9), registered through
 * the C API at load time as a C/C++ library would:
 *  - testing.TestVisitHook: one read-only object field `child`, no creator, and a native
 *    `__s_visit__` hook that visits `child` inside a Simple def region, then the int 4 in the
 *    region it was called in;
 *  - testing.make_visit_region_graph(with_hook: bool): a testing.TestVisitRegions (fields
 *    simple=1, pattern=2, ordinary=3, flagged def-simple / def-pattern / none; see
 *    objects_cxx.c), or a TestVisitHook whose child is one.
 *
 * The hook reads the visitor through the ABI prefix the reference's C++ StructuralVisitorObj
 * has (vtable at 24, def-region kind at 32), exactly what compiled C++ hooks do inline.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_internal.h"
#include "testing_objects.h"

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
  TVMFFIObject* child; /* owned, may be NULL */
} VisitHookObject;

_Static_assert(sizeof(VisitHookObject) == 32, "TestVisitHook total size");

static int32_t g_hook_index = -1;

static TVMFFIAny object_view(TVMFFIObject* obj) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  if (obj != NULL) {
    v.type_index = obj->type_index;
    v.v_obj = obj;
  }
  return v;
}

static TVMFFIAny visit_hook(TVMFFIObject* visitor, TVMFFIAny value) {
  VisitorPrefix* v = (VisitorPrefix*)visitor;
  VisitHookObject* self = (VisitHookObject*)value.v_obj;
  int32_t saved = v->def_region;
  if (saved != kTVMFFIDefRegionKindPattern) v->def_region = kTVMFFIDefRegionKindSimple;
  TVMFFIAny result = v->vtable->visit(visitor, object_view(self->child));
  v->def_region = saved;
  if (result.type_index != kTVMFFINone) return result; /* an interrupt or an error */
  return v->vtable->visit(visitor, testing_view_int(4));
}

static void hook_deleter(void* self, int flags) {
  VisitHookObject* obj = (VisitHookObject*)self;
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && obj->child != NULL) {
    TVMFFIObjectDecRef(obj->child);
    obj->child = NULL;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(obj);
}

static int child_getter(void* field, TVMFFIAny* result) {
  TVMFFIObject* child = *(TVMFFIObject**)field;
  if (child != NULL) TVMFFIObjectIncRef(child);
  *result = object_view(child);
  return 0;
}

static const TestingFixture kMakeGraph = {
    "testing.make_visit_region_graph", "testing.make_visit_region_graph(0: bool) -> Any", NULL, 1,
    NULL, NULL};

static int make_graph(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 1) return testing_arity_mismatch(&kMakeGraph, num_args);
  if (args[0].type_index != kTVMFFIBool && args[0].type_index != kTVMFFIInt) {
    return testing_type_mismatch(&kMakeGraph, 0, "bool", args[0].type_index);
  }
  /* As C++ make_object does: the member initialisers, not reflection creation (which would
   * demand the fields, having no reflected defaults). */
  TVMFFIObject* made = testing_object_new(kTestingVisitRegions);
  if (made == NULL) return -1;
  TVMFFIAny regions;
  memset(&regions, 0, sizeof(regions));
  regions.type_index = made->type_index;
  regions.v_obj = made;
  if (args[0].v_int64 == 0) {
    *result = regions;
    return 0;
  }
  VisitHookObject* hook = (VisitHookObject*)calloc(1, sizeof(VisitHookObject));
  if (hook == NULL) {
    TVMFFIObjectDecRef(regions.v_obj);
    return testing_raise("MemoryError", "cannot allocate a testing.TestVisitHook");
  }
  hook->header.combined_ref_count = ((uint64_t)1 << 32) | 1; /* one strong + the shared weak */
  hook->header.type_index = g_hook_index;
  hook->header.deleter = hook_deleter;
  hook->child = regions.v_obj; /* takes the reference */
  *result = object_view(&hook->header);
  return 0;
}

static TVMFFIByteArray bytes_of(const char* s) {
  TVMFFIByteArray b = {s, strlen(s)};
  return b;
}

static int register_hook_type(void) {
  TVMFFIByteArray key = bytes_of("testing.TestVisitHook");
  g_hook_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  if (g_hook_index < 0) return -1;
  TVMFFIFieldInfo field;
  memset(&field, 0, sizeof(field));
  field.name = bytes_of("child");
  field.doc = bytes_of("");
  field.metadata = bytes_of("{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Object\\\"}\"}");
  field.size = 8;
  field.alignment = 8;
  field.offset = (int64_t)offsetof(VisitHookObject, child);
  field.getter = child_getter;
  field.field_static_type_index = kTVMFFIObject;
  if (TVMFFITypeRegisterField(g_hook_index, &field) != 0) return -1;
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.total_size = (int32_t)sizeof(VisitHookObject);
  if (TVMFFITypeRegisterMetadata(g_hook_index, &meta) != 0) return -1;
  TVMFFIAny hook;
  memset(&hook, 0, sizeof(hook));
  hook.type_index = kTVMFFIOpaquePtr;
  hook.v_ptr = (void*)visit_hook;
  TVMFFIByteArray attr = bytes_of("__s_visit__");
  return TVMFFITypeRegisterAttr(g_hook_index, &attr, &hook);
}

static int register_make_graph(void) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(NULL, make_graph, NULL, &func) != 0) return -1;
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = bytes_of(kMakeGraph.name);
  info.doc = bytes_of("");
  info.metadata = bytes_of(
      "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{\\\"return\\\":"
      "[{\\\"type\\\":\\\"Any\\\"}],\\\"params\\\":[{\\\"type\\\":\\\"bool\\\"}]}}\"}");
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = (TVMFFIObject*)func;
  int rc = TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0);
  TVMFFIObjectDecRef(func);
  return rc;
}

__attribute__((constructor)) static void testing_register_visit_fixtures(void) {
  if (register_hook_type() != 0 || register_make_graph() != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    fprintf(stderr, "libtvm_ffi_testing: registering the structural-visit fixtures failed\n");
  }
}
