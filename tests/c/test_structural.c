/*
 * test_structural.c -- the structural services through their C entry points (the ffi.* global
 * functions): ReprPrint, StructuralEqual/Hash, GetFirstStructuralMismatch, DeepCopy, the JSON
 * graph, on containers and on object types registered through the C API (plugin
 * structural_types_lib). Run plain and under ASan/UBSan; deep inputs check that nothing
 * recurses on the C stack.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "structural_helpers.h"

static const char* g_plugin_dir = ".";
static void* g_types_lib = NULL;

/* st.make(key, a[, b]): one field value when b is NULL. */
static TVMFFIAny st_make(const char* key, TVMFFIAny a, const TVMFFIAny* b) {
  TVMFFIAny args[3] = {any_str(key), a, b != NULL ? *b : a};
  TVMFFIAny r;
  if (call_global("st.make", args, b != NULL ? 3 : 2, &r) != 0) {
    check_no_error_pending();
    memset(&r, 0, sizeof(r));
  }
  return r;
}

static void test_repr_print(void) {
  TVMFFIAny items[3] = {any_int(1), any_str("a"), any_float(2.5)};
  TVMFFIAny arr = make_container("ffi.Array", items, 3);
  CHECK_TEXT_RESULT("ffi.ReprPrint", &arr, 1, "(1, \"a\", 2.5)");
  TVMFFIAny lst = make_container("ffi.List", &arr, 1);
  CHECK_TEXT_RESULT("ffi.ReprPrint", &lst, 1, "[(1, \"a\", 2.5)]");
  TVMFFIAny node = st_make("st.Node", any_int(1), &lst);
  CHECK_TEXT_RESULT("ffi.ReprPrint", &node, 1, "st.Node(val=1, next=[(1, \"a\", 2.5)])");
  release(&node);
  release(&lst);
  release(&arr);
}

static void test_hash_and_equal(void) {
  TVMFFIAny items[3] = {any_int(1), any_int(2), any_int(3)};
  TVMFFIAny a = make_container("ffi.Array", items, 3), b = make_container("ffi.Array", items, 3);
  TVMFFIAny args[4] = {a, any_bool(0), any_bool(0)};
  TVMFFIAny r;
  CHECK(call_global("ffi.StructuralHash", args, 3, &r) == 0);
  CHECK(r.type_index == kTVMFFIInt && (uint64_t)r.v_int64 == 17457834911281713904ULL);
  TVMFFIAny eq_args[4] = {a, b, any_bool(0), any_bool(0)};
  CHECK(call_global("ffi.StructuralEqual", eq_args, 4, &r) == 0);
  CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
  TVMFFIAny other_items[2] = {any_int(1), any_int(5)};
  TVMFFIAny c = make_container("ffi.Array", other_items, 2);
  TVMFFIAny mm_args[4] = {a, c, any_bool(0), any_bool(0)};
  CHECK(call_global("ffi.GetFirstStructuralMismatch", mm_args, 4, &r) == 0);
  CHECK(r.type_index == kTVMFFIArray);
  CHECK_TEXT_RESULT("ffi.ReprPrint", &r, 1, "(<root>[1], <root>[1])");
  release(&r);
  TVMFFIAny two = any_int(2);
  TVMFFIAny pair = st_make("st.Pair", any_int(1), &two);
  args[0] = pair;
  CHECK(call_global("ffi.StructuralHash", args, 3, &r) != 0);
  CHECK_RAISED("TypeError", "_type_s_eq_hash_kind is not set for type `st.Pair`");
  release(&pair);
  release(&a);
  release(&b);
  release(&c);
}

static void test_deep_copy_keeps_cycles(void) {
  TVMFFIAny lst = make_container("ffi.List", NULL, 0);
  TVMFFIAny args[2] = {lst, lst};
  TVMFFIAny r;
  CHECK(call_global("ffi.ListAppend", args, 2, &r) == 0);
  release(&r);
  CHECK_TEXT_RESULT("ffi.ReprPrint", &lst, 1, "[...]");
  TVMFFIAny copy;
  CHECK(call_global("ffi.DeepCopy", &lst, 1, &copy) == 0);
  CHECK(copy.v_obj != lst.v_obj && seq(copy.v_obj)->size == 1);
  if (seq(copy.v_obj)->size == 1) CHECK(((TVMFFIAny*)seq(copy.v_obj)->data)[0].v_obj == copy.v_obj);
  TVMFFIAny clear_args[1] = {lst};
  CHECK(call_global("ffi.ListClear", clear_args, 1, &r) == 0);
  clear_args[0] = copy;
  CHECK(call_global("ffi.ListClear", clear_args, 1, &r) == 0);
  release(&copy);
  release(&lst);
}

static void test_json_graph_round_trip(void) {
  TVMFFIAny inner = st_make("st.Int", any_int(5), NULL);
  TVMFFIAny items[3] = {inner, inner, any_str("x")};
  TVMFFIAny arr = make_container("ffi.Array", items, 3);
  TVMFFIAny args[2] = {arr, {0}};
  TVMFFIAny doc;
  CHECK(call_global("ffi.ToJSONGraphString", args, 2, &doc) == 0);
  CHECK_BYTES_EQ(text_of(&doc),
                 "{\"root_index\":2,\"nodes\":[{\"type\":\"st.Int\",\"data\":{\"value\":5}},"
                 "{\"type\":\"ffi.String\",\"data\":\"x\"},{\"type\":\"ffi.Array\",\"data\":[0,0,1]}]}");
  TVMFFIAny back;
  CHECK(call_global("ffi.FromJSONGraphString", &doc, 1, &back) == 0);
  CHECK(back.type_index == kTVMFFIArray);
  if (back.type_index == kTVMFFIArray) {
    TVMFFIAny* got = (TVMFFIAny*)seq(back.v_obj)->data;
    CHECK(got[0].v_obj == got[1].v_obj && got[0].v_obj != inner.v_obj);
  }
  TVMFFIAny bad = any_str("{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Array\",\"data\":[0]}]}");
  TVMFFIAny r;
  CHECK(call_global("ffi.FromJSONGraphString", &bad, 1, &r) != 0);
  CHECK_RAISED("ValueError", "cycle");
  release(&back);
  release(&doc);
  release(&arr);
  release(&inner);
}

/* Every service walks 10^5 nested containers without growing the C stack. */
static void test_deep_inputs(void) {
  TVMFFIAny deep = nested_lists(100000);
  TVMFFIAny r, args[4] = {deep, deep, any_bool(0), any_bool(0)};
  CHECK(call_global("ffi.StructuralHash", args, 1, &r) == 0);
  release(&r);
  CHECK(call_global("ffi.StructuralEqual", args, 2, &r) == 0 && r.v_int64 == 1);
  CHECK(call_global("ffi.ReprPrint", args, 1, &r) == 0 && text_of(&r).size == 200001);
  release(&r);
  CHECK(call_global("ffi.DeepCopy", args, 1, &r) == 0);
  release(&r);
  CHECK(call_global("ffi.RecursiveHash", args, 1, &r) == 0);
  CHECK(call_global("ffi.RecursiveEq", args, 2, &r) == 0 && r.v_int64 == 1);
  TVMFFIAny doc, none = {0};
  TVMFFIAny write_args[2] = {deep, none};
  CHECK(call_global("ffi.ToJSONGraphString", write_args, 2, &doc) == 0);
  CHECK(call_global("ffi.FromJSONGraphString", &doc, 1, &r) == 0);
  release(&r);
  release(&doc);
  check_no_error_pending();
  release(&deep);
}

/* Wide containers (more children than the walks' stack buffers hold) through every service, so
 * each walk moves from its stack buffer to the heap mid-walk; ASan checks the move. */
static void test_wide_inputs(void) {
  TVMFFIAny rows[100];
  for (int i = 0; i < 100; ++i) {
    TVMFFIAny cells[3] = {any_int(i), any_int(i + 1), any_str("cell")};
    rows[i] = make_container("ffi.Array", cells, 3);
  }
  TVMFFIAny wide = make_container("ffi.Array", rows, 100);
  TVMFFIAny r, args[4] = {wide, wide, any_bool(0), any_bool(0)};
  CHECK(call_global("ffi.StructuralHash", args, 1, &r) == 0);
  CHECK(call_global("ffi.StructuralEqual", args, 2, &r) == 0 && r.v_int64 == 1);
  CHECK(call_global("ffi.RecursiveHash", args, 1, &r) == 0);
  CHECK(call_global("ffi.RecursiveEq", args, 2, &r) == 0 && r.v_int64 == 1);
  TVMFFIAny copy;
  CHECK(call_global("ffi.DeepCopy", args, 1, &copy) == 0);
  TVMFFIAny same_args[2] = {wide, copy};
  CHECK(call_global("ffi.RecursiveEq", same_args, 2, &r) == 0 && r.v_int64 == 1);
  release(&copy);
  TVMFFIAny doc, back, none = {0};
  TVMFFIAny write_args[2] = {wide, none};
  CHECK(call_global("ffi.ToJSONGraphString", write_args, 2, &doc) == 0);
  CHECK(call_global("ffi.FromJSONGraphString", &doc, 1, &back) == 0);
  TVMFFIAny back_args[4] = {wide, back, any_bool(0), any_bool(0)};
  CHECK(call_global("ffi.StructuralEqual", back_args, 2, &r) == 0 && r.v_int64 == 1);
  release(&back);
  CHECK(call_global("ffi.json.Parse", &doc, 1, &r) == 0 && r.type_index == kTVMFFIMap);
  TVMFFIAny text;
  CHECK(call_global("ffi.json.Stringify", &r, 1, &text) == 0);
  release(&text);
  release(&r);
  release(&doc);
  char nested[81]; /* 40 levels of JSON arrays: deeper than the writer's and parser's buffers */
  for (int i = 0; i < 40; ++i) nested[i] = '[', nested[40 + i] = ']';
  nested[80] = '\0';
  TVMFFIAny nested_text = any_str(nested);
  CHECK(call_global("ffi.json.Parse", &nested_text, 1, &r) == 0 && r.type_index == kTVMFFIArray);
  CHECK(call_global("ffi.json.Stringify", &r, 1, &text) == 0);
  CHECK_BYTES_EQ(text_of(&text), nested);
  release(&text);
  release(&r);
  check_no_error_pending();
  release(&wide);
  for (int i = 0; i < 100; ++i) release(&rows[i]);
}

static void test_no_leaks(void) {
  int64_t before = live_objects();
  test_repr_print();
  test_hash_and_equal();
  test_json_graph_round_trip();
  test_wide_inputs();
  CHECK_EQ_INT(live_objects(), before);
}

int main(int argc, char** argv) {
  if (argc > 1) g_plugin_dir = argv[1];
  char path[4096];
  snprintf(path, sizeof(path), "%s/structural_types_lib.so", g_plugin_dir);
  g_types_lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (g_types_lib == NULL) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  RUN(test_repr_print);
  RUN(test_hash_and_equal);
  RUN(test_deep_copy_keeps_cycles);
  RUN(test_json_graph_round_trip);
  RUN(test_deep_inputs);
  RUN(test_wide_inputs);
  RUN(test_no_leaks);
  return CHECK_MAIN_RESULT();
}
