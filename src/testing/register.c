/*
 * register.c -- puts every fixture into the global registry when the library is loaded.
 *
 * The runtime (a DT_NEEDED dependency) runs its own constructors first, so the registry and
 * the built-in globals such as ffi.Array exist by the time this constructor runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "testing_internal.h"

/* Link anchor with the reference's name and signature: C++ tests call it to force the link. */
TESTING_EXPORT int TVMFFITestingDummyTarget(void);
int TVMFFITestingDummyTarget(void) {
  return 0;
}

/* Safe call of every typed fixture: checks the count, then runs the body. */
static int typed_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const TestingFixture* fx = (const TestingFixture*)self;
  if (num_args != fx->num_params) return testing_arity_mismatch(fx, num_args);
  return fx->body(fx, args, result);
}

char* testing_schema_metadata(const char* schema, const char* extra) {
  static const char kPrefix[] = "{\"type_schema\":\"";
  size_t escaped = 0;
  for (const char* p = schema; *p; ++p) escaped += (*p == '"' || *p == '\\') ? 2 : 1;
  size_t extra_size = extra != NULL ? strlen(extra) + 1 : 0;
  char* out = (char*)malloc(sizeof(kPrefix) - 1 + escaped + extra_size + 3);
  if (out == NULL) return NULL;
  char* w = out;
  memcpy(w, kPrefix, sizeof(kPrefix) - 1);
  w += sizeof(kPrefix) - 1;
  for (const char* p = schema; *p; ++p) {
    if (*p == '"' || *p == '\\') *w++ = '\\';
    *w++ = *p;
  }
  *w++ = '"';
  if (extra != NULL) {
    *w++ = ',';
    memcpy(w, extra, extra_size - 1);
    w += extra_size - 1;
  }
  *w++ = '}';
  *w = '\0';
  return out;
}

/* A constructor cannot raise: report the pending error on stderr and carry on with the rest. */
static void report_failure(const char* what, const char* name) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    fprintf(stderr, "libtvm_ffi_testing: %s %s failed\n", what, name);
    return;
  }
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  fprintf(stderr, "libtvm_ffi_testing: %s %s failed: %.*s: %.*s\n", what, name,
          (int)cell->kind.size, cell->kind.data, (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
}

static void register_fixture(const TestingFixture* fx, const char* extra_metadata) {
  TVMFFISafeCallType call = fx->packed != NULL ? fx->packed : typed_call;
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate((void*)fx, call, NULL, &func) != 0) {
    report_failure("creating", fx->name);
    return;
  }
  char* metadata = testing_schema_metadata(fx->schema, extra_metadata);
  if (metadata == NULL) {
    fprintf(stderr, "libtvm_ffi_testing: out of memory registering %s\n", fx->name);
    TVMFFIObjectDecRef(func);
    return;
  }
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name.data = fx->name;
  info.name.size = strlen(fx->name);
  info.doc.data = "";
  info.metadata.data = metadata;
  info.metadata.size = strlen(metadata);
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = (TVMFFIObject*)func;
  /* The registry copies the strings and takes its own reference to the function. */
  if (TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0) != 0) report_failure("registering", fx->name);
  free(metadata);
  TVMFFIObjectDecRef(func);
}

__attribute__((constructor)) static void testing_register_all(void) {
  testing_register_object_types();
  if (testing_register_basic_hooks() != 0) report_failure("registering", "type attributes");
  if (testing_register_enum_fixtures() != 0) report_failure("registering", "enum fixtures");
  if (testing_register_type_final() != 0) report_failure("registering", "type finality");
  for (int i = 0; i < kTestingNumObjectFixtures; ++i) {
    register_fixture(&kTestingObjectFixtures[i], NULL);
  }
  for (int i = 0; i < kTestingNumSchemaFixtures; ++i) {
    register_fixture(testing_schema_fixture(i), testing_schema_fixture_extra_metadata(i));
  }
  for (int i = 0; i < kTestingNumCoreFixtures; ++i) register_fixture(&kTestingCoreFixtures[i], NULL);
  for (int i = 0; i < kTestingNumArrayFixtures; ++i) register_fixture(&kTestingArrayFixtures[i], NULL);
  for (int i = 0; i < kTestingNumContainerFixtures; ++i) {
    register_fixture(&kTestingContainerFixtures[i], NULL);
  }
  /* Statically linked style: reachable as system_lib("testing.")["add_one"]. */
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_testing.add_one",
                                      (void*)&testing_add_one_safe_call);
}
