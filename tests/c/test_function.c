/* Function objects, calls, and the global function registry. */
#include <pthread.h>
#include <stdio.h>

#include "check.h"

typedef struct {
  int64_t addend;
  int released;
} AdderState;

static int adder_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  AdderState* state = (AdderState*)self;
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "adder expects one int");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + state->addend;
  return 0;
}

static void adder_release(void* self) { ((AdderState*)self)->released++; }

static TVMFFIAny int_arg(int64_t v) {
  TVMFFIAny a = {0};
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

static void test_function_create_and_call_forward_the_resource(void) {
  AdderState state = {10, 0};
  void* f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(&state, adder_call, adder_release, &f), 0);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(f), kTVMFFIFunction);
  CHECK(TVMFFIFunctionGetCellPtr(f)->cpp_call == NULL);
  TVMFFIAny arg = int_arg(5), result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(f, &arg, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  CHECK_EQ_INT(result.v_int64, 15);
  /* Errors travel through the thread-local slot. */
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(f, NULL, 0, &result), -1);
  CHECK_RAISED("TypeError", "adder expects one int");
  CHECK_EQ_INT(state.released, 0);
  TVMFFIObjectDecRef(f);
  CHECK_EQ_INT(state.released, 1);
}

static void test_function_create_rejects_null_arguments(void) {
  void* f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, NULL, NULL, &f), -1);
  CHECK_RAISED("ValueError", "safe_call");
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, adder_call, NULL, NULL), -1);
  CHECK_RAISED("ValueError", "out");
}

static void* global(const char* name) {
  void* f = NULL;
  TVMFFIByteArray n = check_ba(name);
  CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&n, &f), 0);
  return f;
}

static void test_global_registry_set_get_override(void) {
  AdderState one = {1, 0}, two = {2, 0};
  void *f1 = NULL, *f2 = NULL;
  TVMFFIFunctionCreate(&one, adder_call, adder_release, &f1);
  TVMFFIFunctionCreate(&two, adder_call, adder_release, &f2);
  TVMFFIByteArray name = check_ba("test.adder");
  CHECK(global("test.adder") == NULL); /* missing: NULL with return 0 */
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&name, f1, 0), 0);
  CHECK_EQ_INT(check_strong_count(f1), 2); /* the registry holds its own reference */
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&name, f2, 0), -1);
  CHECK_RAISED("RuntimeError", "Global Function `test.adder` is already registered");
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&name, f2, 1), 0);
  CHECK_EQ_INT(check_strong_count(f1), 1); /* the overridden entry was released */
  void* got = global("test.adder");
  CHECK(got == f2);
  TVMFFIAny arg = int_arg(40), result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(got, &arg, 1, &result), 0);
  CHECK_EQ_INT(result.v_int64, 42);
  TVMFFIObjectDecRef(got);
  TVMFFIObjectDecRef(f1);
  TVMFFIObjectDecRef(f2);
  CHECK_EQ_INT(one.released, 1);
  CHECK_EQ_INT(two.released, 0); /* still registered */

  void* remove = global("ffi.FunctionRemoveGlobal");
  TVMFFIAny name_arg = {0};
  name_arg.type_index = kTVMFFIRawStr;
  name_arg.v_c_str = "test.adder";
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(remove, &name_arg, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIBool);
  CHECK_EQ_INT(result.v_int64, 1);
  CHECK_EQ_INT(two.released, 1);
  CHECK(global("test.adder") == NULL);
  CHECK_EQ_INT(TVMFFIFunctionCall(remove, &name_arg, 1, &result), 0);
  CHECK_EQ_INT(result.v_int64, 0);
  TVMFFIObjectDecRef(remove);
}

static void test_set_global_rejects_non_functions(void) {
  TVMFFIByteArray name = check_ba("test.not_a_function");
  TVMFFIByteArray text = check_ba("a heap string object");
  TVMFFIAny str;
  TVMFFIStringFromByteArray(&text, &str);
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&name, str.v_obj, 0), -1);
  CHECK_RAISED("TypeError", "ffi.Function");
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&name, NULL, 0), -1);
  CHECK_RAISED("TypeError", "test.not_a_function");
  TVMFFIObjectDecRef(str.v_obj);
}

static void test_set_global_from_method_info_keeps_metadata(void) {
  AdderState state = {3, 0};
  void* f = NULL;
  TVMFFIFunctionCreate(&state, adder_call, adder_release, &f);
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = check_ba("test.with_metadata");
  info.doc = check_ba("adds three");
  info.metadata = check_ba("{\"type_schema\":\"{}\"}");
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = (TVMFFIObject*)f;
  CHECK_EQ_INT(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), 0);
  TVMFFIObjectDecRef(f);

  void* get_metadata = global("ffi.GetGlobalFuncMetadata");
  TVMFFIAny arg = {0}, result = {0};
  arg.type_index = kTVMFFIRawStr;
  arg.v_c_str = "test.with_metadata";
  CHECK_EQ_INT(TVMFFIFunctionCall(get_metadata, &arg, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIStr);
  CHECK_BYTES_EQ(*TVMFFIBytesGetByteArrayPtr(result.v_obj), "{\"type_schema\":\"{}\"}");
  TVMFFIObjectDecRef(result.v_obj);
  arg.v_c_str = "ffi.LiveObjectCount"; /* a built-in of ours alone: no metadata */
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(get_metadata, &arg, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFISmallStr);
  CHECK_BYTES_EQ(TVMFFISmallBytesGetContentByteArray(&result), "{}");
  arg.v_c_str = "ffi.String"; /* the reference's built-ins carry their type schema */
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(get_metadata, &arg, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIStr);
  CHECK_BYTES_EQ(*TVMFFIBytesGetByteArrayPtr(result.v_obj),
                 "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{"
                 "\\\"return\\\":[{\\\"type\\\":\\\"ffi.String\\\"}],\\\"params\\\":[{"
                 "\\\"type\\\":\\\"ffi.String\\\"}]}}\"}");
  TVMFFIObjectDecRef(result.v_obj);
  arg.v_c_str = "test.no_such_function";
  CHECK_EQ_INT(TVMFFIFunctionCall(get_metadata, &arg, 1, &result), -1);
  CHECK_RAISED("RuntimeError", "Global Function is not found: test.no_such_function");
  TVMFFIObjectDecRef(get_metadata);

  info.method.type_index = kTVMFFIInt;
  CHECK_EQ_INT(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 1), -1);
  CHECK_RAISED("TypeError", "ffi.Function");
}

static void test_list_global_names_functor(void) {
  void* list_functor = global("ffi.FunctionListGlobalNamesFunctor");
  TVMFFIAny result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(list_functor, NULL, 0, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  void* names = result.v_obj;
  TVMFFIAny arg = int_arg(-1), count = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(names, &arg, 1, &count), 0);
  CHECK(count.v_int64 >= 4);
  int found_self = 0;
  for (int64_t i = 0; i < count.v_int64; ++i) {
    TVMFFIAny idx = int_arg(i), name = {0};
    CHECK_EQ_INT(TVMFFIFunctionCall(names, &idx, 1, &name), 0);
    TVMFFIByteArray view = name.type_index == kTVMFFISmallStr ? TVMFFISmallBytesGetContentByteArray(&name)
                                                              : *TVMFFIBytesGetByteArrayPtr(name.v_obj);
    if (view.size == strlen("ffi.FunctionListGlobalNamesFunctor") &&
        memcmp(view.data, "ffi.FunctionListGlobalNamesFunctor", view.size) == 0) {
      found_self = 1;
    }
    if (name.type_index == kTVMFFIStr) TVMFFIObjectDecRef(name.v_obj);
  }
  CHECK(found_self);
  TVMFFIAny bad = int_arg(count.v_int64), out = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(names, &bad, 1, &out), -1);
  CHECK_RAISED("IndexError", "out of range");
  TVMFFIObjectDecRef(names);
  TVMFFIObjectDecRef(list_functor);
}

static void test_builtins_check_their_arguments(void) {
  void* remove = global("ffi.FunctionRemoveGlobal");
  TVMFFIAny arg = int_arg(1), result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(remove, &arg, 1, &result), -1);
  CHECK_RAISED("TypeError",
               "Mismatched type on argument #0 when calling: `ffi.FunctionRemoveGlobal(0: str) -> bool`. "
               "Expected `str` but got `int`");
  CHECK_EQ_INT(TVMFFIFunctionCall(remove, NULL, 0, &result), -1);
  CHECK_RAISED("TypeError", "Expected 1 but got 0 arguments");
  TVMFFIObjectDecRef(remove);
}

static int released_resource;
static void release_resource(void* self) {
  CHECK(self == (void*)&released_resource);
  released_resource++;
}

static void test_function_from_extern_c(void) {
  void* from_extern = global("ffi.FunctionFromExternC");
  AdderState state = {100, 0};
  TVMFFIAny args[3] = {{0}, {0}, {0}}, result = {0};
  args[0].type_index = kTVMFFIOpaquePtr;
  args[0].v_ptr = &state;
  args[1].type_index = kTVMFFIOpaquePtr;
  TVMFFISafeCallType call = adder_call;
  memcpy(&args[1].v_ptr, &call, sizeof(void*));
  args[2].type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(from_extern, args, 3, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIFunction);
  TVMFFIAny x = int_arg(1), y = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(result.v_obj, &x, 1, &y), 0);
  CHECK_EQ_INT(y.v_int64, 101);
  TVMFFIObjectDecRef(result.v_obj);

  args[0].v_ptr = &released_resource;
  void (*release)(void*) = release_resource;
  args[2].type_index = kTVMFFIOpaquePtr;
  memcpy(&args[2].v_ptr, &release, sizeof(void*));
  result.type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(from_extern, args, 3, &result), 0);
  TVMFFIObjectDecRef(result.v_obj);
  CHECK_EQ_INT(released_resource, 1);

  args[1].type_index = kTVMFFINone;
  CHECK_EQ_INT(TVMFFIFunctionCall(from_extern, args, 3, &result), -1);
  CHECK_RAISED("ValueError", "safe_call");
  TVMFFIObjectDecRef(from_extern);
}

/* Many threads registering, looking up, calling and removing at once. */
static void* registry_thread(void* p) {
  int id = (int)(intptr_t)p;
  AdderState state = {id, 0};
  char name[64];
  for (int round = 0; round < 200; ++round) {
    snprintf(name, sizeof(name), "test.thread.%d.%d", id, round % 7);
    void* f = NULL;
    TVMFFIFunctionCreate(&state, adder_call, NULL, &f);
    TVMFFIByteArray n = check_ba(name);
    CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&n, f, 1), 0);
    TVMFFIObjectDecRef(f);
    void* got = NULL;
    CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&n, &got), 0);
    CHECK(got != NULL);
    if (got != NULL) {
      TVMFFIAny arg = int_arg(round), result = {0};
      CHECK_EQ_INT(TVMFFIFunctionCall(got, &arg, 1, &result), 0);
      CHECK_EQ_INT(result.v_int64, round + id);
      TVMFFIObjectDecRef(got);
    }
  }
  void* remove = global("ffi.FunctionRemoveGlobal");
  for (int k = 0; k < 7; ++k) {
    snprintf(name, sizeof(name), "test.thread.%d.%d", id, k);
    TVMFFIAny arg = {0}, result = {0};
    arg.type_index = kTVMFFIRawStr;
    arg.v_c_str = name;
    CHECK_EQ_INT(TVMFFIFunctionCall(remove, &arg, 1, &result), 0);
  }
  TVMFFIObjectDecRef(remove);
  return NULL;
}

static void test_registry_is_thread_safe(void) {
  pthread_t threads[8];
  for (int i = 0; i < 8; ++i) pthread_create(&threads[i], NULL, registry_thread, (void*)(intptr_t)i);
  for (int i = 0; i < 8; ++i) pthread_join(threads[i], NULL);
  CHECK(global("test.thread.3.3") == NULL);
}

int main(void) {
  RUN(test_function_create_and_call_forward_the_resource);
  RUN(test_function_create_rejects_null_arguments);
  RUN(test_global_registry_set_get_override);
  RUN(test_set_global_rejects_non_functions);
  RUN(test_set_global_from_method_info_keeps_metadata);
  RUN(test_list_global_names_functor);
  RUN(test_builtins_check_their_arguments);
  RUN(test_function_from_extern_c);
  RUN(test_registry_is_thread_safe);
  return CHECK_MAIN_RESULT();
}
