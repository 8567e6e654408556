/*
 * objects_cxx.c -- the `TestCxx*` binding fixtures and the auto-init / kw_only fixtures
 * (TESTING_FIXTURES.md 3.3, 3.4, 3.9): all fields rw, constructed by the auto-generated
 * KWARGS __ffi_init__ unless noted.
 */
#include "testing_objects.h"

#define RW kTVMFFIFieldFlagBitMaskWritable
#define T_FLOAT "{\"type\":\"float\"}"
#define INIT_OFF kTVMFFIFieldFlagBitMaskInitOff
#define KW_ONLY kTVMFFIFieldFlagBitMaskKwOnly

#define I64(n, off, ...) {.name = n, .kind = TF_I64, .offset = off, .schema = T_INT, __VA_ARGS__}

#define AUTO_TYPE(var, key_str, parent_ptr, size, table)                                    \
  static TestingTypeDef var = {.key = key_str, .parent = parent_ptr, .total_size = size,      \
                               .fields = table,                                                \
                               .num_fields = (int)(sizeof(table) / sizeof(table[0])),        \
                               .has_creator = true, .copyable = true, .init = TI_AUTO,          \
                               .reflect = true}

/* ---- _TestCxxClass* hierarchy ---- */

static const TestingFieldDef kClassBaseFields[] = {
    I64("v_i64", 24, .flags = RW | kTVMFFIFieldFlagBitMaskReprOff),
    {.name = "v_i32", .kind = TF_I32, .offset = 32, .flags = RW | kTVMFFIFieldFlagBitMaskReprOff,
     .schema = T_INT},
};
static const TestingFieldDef kClassDerivedFields[] = {
    {.name = "v_f64", .kind = TF_F64, .offset = 40, .flags = RW, .schema = T_FLOAT},
    {.name = "v_f32", .kind = TF_F32, .offset = 48, .flags = RW, .schema = T_FLOAT,
     .dkind = TD_FLOAT, .dfloat = 8.0},
};
static const TestingFieldDef kClassDerivedDerivedFields[] = {
    {.name = "v_str", .kind = TF_STR, .offset = 56, .flags = RW, .schema = T_STR,
     .dkind = TD_STR, .dstr = "default"},
    {.name = "v_bool", .kind = TF_BOOL, .offset = 72, .flags = RW, .schema = T_BOOL},
};
AUTO_TYPE(kClassBase, "testing.TestCxxClassBase", NULL, 40, kClassBaseFields);
AUTO_TYPE(kClassDerived, "testing.TestCxxClassDerived", &kClassBase, 56, kClassDerivedFields);
AUTO_TYPE(kClassDerivedDerived, "testing.TestCxxClassDerivedDerived", &kClassDerived, 80,
          kClassDerivedDerivedFields);

static const TestingFieldDef kHiddenFieldFields[] = {
    I64("v_i64", 24, .flags = RW),
    {.name = "v_i32", .kind = TF_I32, .offset = 40, .flags = RW, .schema = T_INT},
};
AUTO_TYPE(kHiddenField, "testing.TestCxxClassHiddenField", NULL, 48, kHiddenFieldFields);
static const TestingFieldDef kPolymorphicFields[] = {I64("v_i64", 24, .flags = RW)};
AUTO_TYPE(kPolymorphic, "testing.TestCxxClassPolymorphic", NULL, 40, kPolymorphicFields);

/* ---- init / kw_only fixtures ---- */

static const TestingFieldDef kInitSubsetFields[] = {
    I64("required_field", 24, .flags = RW),
    I64("optional_field", 32, .flags = RW | INIT_OFF, .dkind = TD_INT, .dint = -1),
    {.name = "note", .kind = TF_STR, .offset = 40, .flags = RW | INIT_OFF, .schema = T_STR,
     .dkind = TD_STR, .dstr = "default"},
};
AUTO_TYPE(kInitSubset, "testing.TestCxxInitSubset", NULL, 56, kInitSubsetFields);

static const TestingFieldDef kKwOnlyFields[] = {
    I64("x", 24, .flags = RW | KW_ONLY), I64("y", 32, .flags = RW | KW_ONLY),
    I64("z", 40, .flags = RW | KW_ONLY),
    I64("w", 48, .flags = RW | KW_ONLY, .dkind = TD_INT, .dint = 100),
};
AUTO_TYPE(kKwOnly, "testing.TestCxxKwOnly", NULL, 56, kKwOnlyFields);

static const TestingFieldDef kAutoInitFields[] = {
    I64("a", 24, .flags = RW),
    I64("b", 32, .flags = RW | INIT_OFF, .dkind = TD_INT, .dint = 42),
    I64("c", 40, .flags = RW | KW_ONLY),
    I64("d", 48, .flags = RW, .dkind = TD_INT, .dint = 99),
};
AUTO_TYPE(kAutoInit, "testing.TestCxxAutoInit", NULL, 56, kAutoInitFields);

static const TestingFieldDef kAutoInitSimpleFields[] = {I64("x", 24, .flags = RW),
                                                        I64("y", 32, .flags = RW)};
AUTO_TYPE(kAutoInitSimple, "testing.TestCxxAutoInitSimple", NULL, 40, kAutoInitSimpleFields);

static const TestingFieldDef kAllInitOffFields[] = {
    I64("x", 24, .flags = RW | INIT_OFF, .dkind = TD_INT, .dint = 7),
    I64("y", 32, .flags = RW | INIT_OFF, .dkind = TD_INT, .dint = 9),
    I64("z", 40, .flags = RW | INIT_OFF),
};
/* The C++ member initialisers: x = 7, y = 0, z = 1234. */
static void all_init_off_construct(TVMFFIObject* obj) {
  *TESTING_FIELD(obj, int64_t, 24) = 7;
  *TESTING_FIELD(obj, int64_t, 40) = 1234;
}
static TestingTypeDef kAllInitOff = {
    .key = "testing.TestCxxAutoInitAllInitOff", .total_size = 48, .fields = kAllInitOffFields,
    .num_fields = 3, .has_creator = true, .copyable = true, .init = TI_AUTO, .reflect = true,
    .construct = all_init_off_construct};

static const TestingFieldDef kKwOnlyDefaultsFields[] = {
    I64("p_required", 24, .flags = RW),
    I64("p_default", 32, .flags = RW, .dkind = TD_INT, .dint = 11),
    I64("k_required", 40, .flags = RW | KW_ONLY),
    I64("k_default", 48, .flags = RW | KW_ONLY, .dkind = TD_INT, .dint = 22),
    I64("hidden", 56, .flags = RW | INIT_OFF, .dkind = TD_INT, .dint = 33),
};
AUTO_TYPE(kKwOnlyDefaults, "testing.TestCxxAutoInitKwOnlyDefaults", NULL, 64,
          kKwOnlyDefaultsFields);

static const TestingFieldDef kAutoInitParentFields[] = {
    I64("parent_required", 24, .flags = RW),
    I64("parent_default", 32, .flags = RW, .dkind = TD_INT, .dint = 5),
};
static TestingTypeDef kAutoInitParent = {
    .key = "testing.TestCxxAutoInitParent", .num_child_slots = 1, .total_size = 40,
    .fields = kAutoInitParentFields, .num_fields = 2, .has_creator = true, .copyable = true,
    .init = TI_AUTO, .reflect = true};
static const TestingFieldDef kAutoInitChildFields[] = {
    I64("child_required", 40, .flags = RW),
    I64("child_kw_only", 48, .flags = RW | KW_ONLY),
};
AUTO_TYPE(kAutoInitChild, "testing.TestCxxAutoInitChild", &kAutoInitParent, 56,
          kAutoInitChildFields);

static const TestingFieldDef kNoAutoInitFields[] = {I64("x", 24, .flags = RW),
                                                    I64("y", 32, .flags = RW)};
static TestingTypeDef kNoAutoInit = {
    .key = "testing.TestCxxNoAutoInit", .total_size = 40, .fields = kNoAutoInitFields,
    .num_fields = 2, .has_creator = true, .copyable = true, .init = TI_NONE, .reflect = true};

/* The values 1, 2, 3 are C++ member initialisers, not reflected defaults (TESTING_FIXTURES.md
 * 3.9): the fields are read-only and carry no HasDefault flag. */
static const TestingFieldDef kVisitRegionsFields[] = {
    I64("simple", 24, .flags = kTVMFFIFieldFlagBitMaskSEqHashDefSimple),
    I64("pattern", 32, .flags = kTVMFFIFieldFlagBitMaskSEqHashDefPattern),
    I64("ordinary", 40),
};
static void visit_regions_construct(TVMFFIObject* obj) {
  *TESTING_FIELD(obj, int64_t, 24) = 1;
  *TESTING_FIELD(obj, int64_t, 32) = 2;
  *TESTING_FIELD(obj, int64_t, 40) = 3;
}
static TestingTypeDef kVisitRegions = {
    .key = "testing.TestVisitRegions", .total_size = 48, .fields = kVisitRegionsFields,
    .num_fields = (int)(sizeof(kVisitRegionsFields) / sizeof(kVisitRegionsFields[0])),
    .has_creator = true, .copyable = true, .init = TI_AUTO, .reflect = true,
    .construct = visit_regions_construct};
TestingTypeDef* const kTestingVisitRegions = &kVisitRegions;

TestingTypeDef* const kTestingCxxTypes[] = {
    &kClassBase,     &kClassDerived,    &kClassDerivedDerived, &kHiddenField,
    &kPolymorphic,   &kInitSubset,      &kKwOnly,              &kAutoInit,
    &kAutoInitSimple, &kAllInitOff,     &kKwOnlyDefaults,      &kAutoInitParent,
    &kAutoInitChild, &kNoAutoInit,      &kVisitRegions,
};
const int kTestingNumCxxTypes = (int)(sizeof(kTestingCxxTypes) / sizeof(kTestingCxxTypes[0]));
