/*
 * builtin_signatures.c -- the signature and type schema of each of the runtime's built-in
 * global functions, as the reference's typed C++ functions carry them.
 *
 * Two uses: registration gives each built-in its `{"type_schema": "..."}` metadata (what
 * `get_global_func_metadata` and stub generators read), and argument errors render the
 * signature and the parameter's type text ("Mismatched type on argument #1 when calling:
 * `ffi.ModuleGetFunction(0: ffi.Module, 1: str, 2: bool) -> Optional<ffi.Function>`. Expected
 * `str` but got `DataType`"). Both texts are the reference's facts (measured with its 0.1.15
 * package): a C++ parameter `const ArrayObj*` reads `ffi.Array`, `Array<Any>` reads `Array<Any>`,
 * an `AnyView` parameter has schema `Any`. Packed functions (variadic constructors) have the
 * bare function schema and no signature. The table is sorted by name (binary search).
 */
#include "builtin_signatures_internal.h"

#include <stdlib.h>
#include <string.h>

/* The metadata is JSON holding the schema as a JSON string, so the schema's own quotes are
 * written escaped (Q is \" in the metadata text): the registration copies it as it stands. */
#define Q "\\\""
#define TY(name) "{" Q "type" Q ":" Q name Q "}"
#define TY_ARGS(name, args) "{" Q "type" Q ":" Q name Q "," Q "args" Q ":[" args "]}"
#define META(schema) "{\"type_schema\":\"" schema "\"}"
#define FN(ret, params)                                                                   \
  META("{" Q "type" Q ":" Q "ffi.Function" Q "," Q "named_args" Q ":{" Q "return" Q ":[" ret \
       "]," Q "params" Q ":[" params "]}}")
#define PACKED META("{" Q "type" Q ":" Q "ffi.Function" Q "}")
#define AP "ffi.reflection.AccessPath"
/* A method of AccessPath taking self and one parameter of type text `param` (schema `ps`). */
#define AP_METHOD(name, param, ps, ret, rs) \
  {AP "." name, AP "." name "(0: " AP ", 1: " param ") -> " ret, FN(rs, TY(AP) "," ps)}

static const FfiBuiltinSignature kSignatures[] = {
    {"ffi.Array", NULL, PACKED},
    {"ffi.ArrayContains", "ffi.ArrayContains(0: ffi.Array, 1: Any) -> bool",
     FN(TY("bool"), TY("ffi.Array") "," TY("Any"))},
    {"ffi.ArrayGetItem", "ffi.ArrayGetItem(0: ffi.Array, 1: int) -> Any",
     FN(TY("Any"), TY("ffi.Array") "," TY("int"))},
    {"ffi.ArraySize", "ffi.ArraySize(0: ffi.Array) -> int",
     FN(TY("int"), TY("ffi.Array"))},
    {"ffi.Bytes", "ffi.Bytes(0: bytes) -> bytes",
     FN(TY("ffi.Bytes"), TY("ffi.Bytes"))},
    {"ffi.ContainerFindFirstNonCPUDevice", "ffi.ContainerFindFirstNonCPUDevice(0: Any) -> Device",
     FN(TY("Device"), TY("Any"))},
    {"ffi.DeepCopy", "ffi.DeepCopy(0: Any) -> Any",
     FN(TY("Any"), TY("Any"))},
    {"ffi.Dict", NULL, PACKED},
    {"ffi.DictClear", "ffi.DictClear(0: Dict<Any, Any>) -> void",
     FN(TY("None"), TY_ARGS("ffi.Dict", TY("Any") "," TY("Any")))},
    {"ffi.DictCount", "ffi.DictCount(0: ffi.Dict, 1: Any) -> int",
     FN(TY("int"), TY("ffi.Dict") "," TY("Any"))},
    {"ffi.DictErase", "ffi.DictErase(0: Dict<Any, Any>, 1: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.Dict", TY("Any") "," TY("Any")) "," TY("Any"))},
    {"ffi.DictForwardIterFunctor", "ffi.DictForwardIterFunctor(0: ffi.Dict) -> ffi.Function",
     FN(TY("ffi.Function"), TY("ffi.Dict"))},
    {"ffi.DictGetItem", "ffi.DictGetItem(0: ffi.Dict, 1: Any) -> Any",
     FN(TY("Any"), TY("ffi.Dict") "," TY("Any"))},
    {"ffi.DictGetItemOrMissing", "ffi.DictGetItemOrMissing(0: ffi.Dict, 1: Any) -> Any",
     FN(TY("Any"), TY("ffi.Dict") "," TY("Any"))},
    {"ffi.DictSetItem", "ffi.DictSetItem(0: Dict<Any, Any>, 1: Any, 2: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.Dict", TY("Any") "," TY("Any")) "," TY("Any") "," TY("Any"))},
    {"ffi.DictSize", "ffi.DictSize(0: ffi.Dict) -> int",
     FN(TY("int"), TY("ffi.Dict"))},
    {"ffi.EnumState.__ffi_init__", "ffi.EnumState.__ffi_init__() -> ffi.Object",
     FN(TY("ffi.Object"), "")},
    {"ffi.FromJSONGraph", "ffi.FromJSONGraph(0: Any) -> Any",
     FN(TY("Any"), TY("Any"))},
    {"ffi.FromJSONGraphString", "ffi.FromJSONGraphString(0: str) -> Any",
     FN(TY("Any"), TY("ffi.String"))},
    {"ffi.FunctionFromExternC", "ffi.FunctionFromExternC(0: void*, 1: void*, "
     "2: void*) -> ffi.Function",
     FN(TY("ffi.Function"), TY("void*") "," TY("void*") "," TY("void*"))},
    {"ffi.FunctionListGlobalNamesFunctor", "ffi.FunctionListGlobalNamesFunctor() -> ffi.Function",
     FN(TY("ffi.Function"), "")},
    {"ffi.FunctionRemoveGlobal", "ffi.FunctionRemoveGlobal(0: str) -> bool",
     FN(TY("bool"), TY("ffi.String"))},
    {"ffi.GetFirstStructuralMismatch", "ffi.GetFirstStructuralMismatch(0: Any, 1: Any, 2: bool, "
     "3: bool) -> Optional<Tuple<ffi.reflection.AccessPath, ffi.reflection.AccessPath>>",
     FN(TY_ARGS("Optional", TY_ARGS("Tuple", TY("ffi.reflection.AccessPath") ","
                                          TY("ffi.reflection.AccessPath"))),
        TY("Any") "," TY("Any") "," TY("bool") "," TY("bool"))},
    {"ffi.GetGlobalFuncMetadata", "ffi.GetGlobalFuncMetadata(0: str) -> str",
     FN(TY("ffi.String"), TY("ffi.String"))},
    {"ffi.GetInvalidObject", "ffi.GetInvalidObject() -> ffi.Object",
     FN(TY("ffi.Object"), "")},
    {"ffi.GetKwargsObject", "ffi.GetKwargsObject() -> ffi.Object",
     FN(TY("ffi.Object"), "")},
    {"ffi.GetRegisteredTypeKeys", "ffi.GetRegisteredTypeKeys() -> Array<str>",
     FN(TY_ARGS("ffi.Array", TY("ffi.String")), "")},
    {"ffi.List", NULL, PACKED},
    {"ffi.ListAppend", "ffi.ListAppend(0: List<Any>, 1: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("Any"))},
    {"ffi.ListClear", "ffi.ListClear(0: List<Any>) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")))},
    {"ffi.ListContains", "ffi.ListContains(0: ffi.List, 1: Any) -> bool",
     FN(TY("bool"), TY("ffi.List") "," TY("Any"))},
    {"ffi.ListErase", "ffi.ListErase(0: List<Any>, 1: int) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int"))},
    {"ffi.ListEraseRange", "ffi.ListEraseRange(0: List<Any>, 1: int, 2: int) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int") "," TY("int"))},
    {"ffi.ListGetItem", "ffi.ListGetItem(0: ffi.List, 1: int) -> Any",
     FN(TY("Any"), TY("ffi.List") "," TY("int"))},
    {"ffi.ListInsert", "ffi.ListInsert(0: List<Any>, 1: int, 2: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int") "," TY("Any"))},
    {"ffi.ListPop", "ffi.ListPop(0: List<Any>, 1: int) -> Any",
     FN(TY("Any"), TY_ARGS("ffi.List", TY("Any")) "," TY("int"))},
    {"ffi.ListReplaceSlice", "ffi.ListReplaceSlice(0: List<Any>, 1: int, 2: int, "
     "3: List<Any>) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int") "," TY("int") ","
        TY_ARGS("ffi.List", TY("Any")))},
    {"ffi.ListReserve", "ffi.ListReserve(0: List<Any>, 1: int) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int"))},
    {"ffi.ListReverse", "ffi.ListReverse(0: List<Any>) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")))},
    {"ffi.ListSetItem", "ffi.ListSetItem(0: List<Any>, 1: int, 2: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.List", TY("Any")) "," TY("int") "," TY("Any"))},
    {"ffi.ListSize", "ffi.ListSize(0: ffi.List) -> int",
     FN(TY("int"), TY("ffi.List"))},
    {"ffi.MakeFieldGetter", "ffi.MakeFieldGetter(0: int) -> int",
     FN(TY("int"), TY("int"))},
    {"ffi.MakeFieldSetter", "ffi.MakeFieldSetter(0: int, 1: int, 2: int) -> ffi.Function",
     FN(TY("ffi.Function"), TY("int") "," TY("int") "," TY("int"))},
    {"ffi.MakeObjectFromPackedArgs", NULL, PACKED},
    {"ffi.Map", NULL, PACKED},
    {"ffi.MapCount", "ffi.MapCount(0: ffi.Map, 1: Any) -> int",
     FN(TY("int"), TY("ffi.Map") "," TY("Any"))},
    {"ffi.MapForwardIterFunctor", "ffi.MapForwardIterFunctor(0: ffi.Map) -> ffi.Function",
     FN(TY("ffi.Function"), TY("ffi.Map"))},
    {"ffi.MapGetItem", "ffi.MapGetItem(0: ffi.Map, 1: Any) -> Any",
     FN(TY("Any"), TY("ffi.Map") "," TY("Any"))},
    {"ffi.MapGetItemOrMissing", "ffi.MapGetItemOrMissing(0: ffi.Map, 1: Any) -> Any",
     FN(TY("Any"), TY("ffi.Map") "," TY("Any"))},
    {"ffi.MapSize", "ffi.MapSize(0: ffi.Map) -> int",
     FN(TY("int"), TY("ffi.Map"))},
    {"ffi.Module.load_from_file.so", "ffi.Module.load_from_file.so(0: str, 1: str) -> ffi.Module",
     FN(TY("ffi.Module"), TY("ffi.String") "," TY("ffi.String"))},
    {"ffi.ModuleClearImports", "ffi.ModuleClearImports(0: ffi.Module) -> void",
     FN(TY("None"), TY("ffi.Module"))},
    {"ffi.ModuleGetFunction", "ffi.ModuleGetFunction(0: ffi.Module, 1: str, "
     "2: bool) -> Optional<ffi.Function>",
     FN(TY_ARGS("Optional", TY("ffi.Function")), TY("ffi.Module") "," TY("ffi.String") ","
        TY("bool"))},
    {"ffi.ModuleGetFunctionDoc", "ffi.ModuleGetFunctionDoc(0: ffi.Module, 1: str, "
     "2: bool) -> Optional<str>",
     FN(TY_ARGS("Optional", TY("ffi.String")), TY("ffi.Module") "," TY("ffi.String") ","
        TY("bool"))},
    {"ffi.ModuleGetFunctionMetadata", "ffi.ModuleGetFunctionMetadata(0: ffi.Module, 1: str, "
     "2: bool) -> Optional<str>",
     FN(TY_ARGS("Optional", TY("ffi.String")), TY("ffi.Module") "," TY("ffi.String") ","
        TY("bool"))},
    {"ffi.ModuleGetKind", "ffi.ModuleGetKind(0: ffi.Module) -> str",
     FN(TY("ffi.String"), TY("ffi.Module"))},
    {"ffi.ModuleGetPropertyMask", "ffi.ModuleGetPropertyMask(0: ffi.Module) -> int",
     FN(TY("int"), TY("ffi.Module"))},
    {"ffi.ModuleGetWriteFormats", "ffi.ModuleGetWriteFormats(0: ffi.Module) -> Array<str>",
     FN(TY_ARGS("ffi.Array", TY("ffi.String")), TY("ffi.Module"))},
    {"ffi.ModuleGlobalsAdd", "ffi.ModuleGlobalsAdd(0: ffi.Module) -> void",
     FN(TY("None"), TY("ffi.Module"))},
    {"ffi.ModuleGlobalsRemove", "ffi.ModuleGlobalsRemove(0: ffi.Module) -> void",
     FN(TY("None"), TY("ffi.Module"))},
    {"ffi.ModuleImplementsFunction", "ffi.ModuleImplementsFunction(0: ffi.Module, 1: str, "
     "2: bool) -> bool",
     FN(TY("bool"), TY("ffi.Module") "," TY("ffi.String") "," TY("bool"))},
    {"ffi.ModuleImportModule", "ffi.ModuleImportModule(0: ffi.Module, 1: ffi.Module) -> void",
     FN(TY("None"), TY("ffi.Module") "," TY("ffi.Module"))},
    {"ffi.ModuleInspectSource", "ffi.ModuleInspectSource(0: ffi.Module, 1: str) -> str",
     FN(TY("ffi.String"), TY("ffi.Module") "," TY("ffi.String"))},
    {"ffi.ModuleLoadFromFile", "ffi.ModuleLoadFromFile(0: str) -> ffi.Module",
     FN(TY("ffi.Module"), TY("ffi.String"))},
    {"ffi.ModuleWriteToFile", "ffi.ModuleWriteToFile(0: ffi.Module, 1: str, 2: str) -> void",
     FN(TY("None"), TY("ffi.Module") "," TY("ffi.String") "," TY("ffi.String"))},
    {"ffi.RecursiveEq", "ffi.RecursiveEq(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.RecursiveGe", "ffi.RecursiveGe(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.RecursiveGt", "ffi.RecursiveGt(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.RecursiveHash", "ffi.RecursiveHash(0: Any) -> int",
     FN(TY("int"), TY("Any"))},
    {"ffi.RecursiveLe", "ffi.RecursiveLe(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.RecursiveLt", "ffi.RecursiveLt(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.ReprPrint", "ffi.ReprPrint(0: Any) -> str",
     FN(TY("ffi.String"), TY("Any"))},
    {"ffi.Shape", NULL, PACKED},
    {"ffi.String", "ffi.String(0: str) -> str",
     FN(TY("ffi.String"), TY("ffi.String"))},
    {"ffi.StructuralEqual", "ffi.StructuralEqual(0: Any, 1: Any, 2: bool, 3: bool) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any") "," TY("bool") "," TY("bool"))},
    {"ffi.StructuralHash", "ffi.StructuralHash(0: Any, 1: bool, 2: bool) -> int",
     FN(TY("int"), TY("Any") "," TY("bool") "," TY("bool"))},
    {"ffi.StructuralKey", "ffi.StructuralKey(0: Any) -> ffi.StructuralKey",
     FN(TY("ffi.StructuralKey"), TY("Any"))},
    {"ffi.StructuralKey.__ffi_init__", "ffi.StructuralKey.__ffi_init__(0: Any) -> ffi.Object",
     FN(TY("ffi.Object"), TY("Any"))},
    {"ffi.StructuralKeyEqual", "ffi.StructuralKeyEqual(0: Any, 1: Any) -> bool",
     FN(TY("bool"), TY("Any") "," TY("Any"))},
    {"ffi.StructuralMap", "ffi.StructuralMap(0: Any, 1: Array<Tuple<int, ffi.Function>>, "
     "2: Array<Tuple<int, ffi.Function>>, 3: int) -> Any",
     FN(TY("Any"), TY("Any") ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function"))) ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function"))) "," TY("int"))},
    {"ffi.StructuralMutate", "ffi.StructuralMutate(0: Any, 1: Array<Tuple<int, ffi.Function, "
     "bool>>) -> Any",
     FN(TY("Any"), TY("Any") ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function") "," TY("bool"))))},
    {"ffi.StructuralMutatorDefRegionKind",
     "ffi.StructuralMutatorDefRegionKind(0: ffi.StructuralMutator) -> int",
     FN(TY("int"), TY("ffi.StructuralMutator"))},
    {"ffi.StructuralMutatorDefaultMutate",
     "ffi.StructuralMutatorDefaultMutate(0: ffi.StructuralMutator, 1: AnyView) -> Any",
     FN(TY("Any"), TY("ffi.StructuralMutator") "," TY("Any"))},
    {"ffi.StructuralMutatorMutate", "ffi.StructuralMutatorMutate(0: ffi.StructuralMutator, "
     "1: AnyView) -> Any",
     FN(TY("Any"), TY("ffi.StructuralMutator") "," TY("Any"))},
    {"ffi.StructuralMutatorVarRemapGet",
     "ffi.StructuralMutatorVarRemapGet(0: ffi.StructuralMutator, 1: AnyView) -> Any",
     FN(TY("Any"), TY("ffi.StructuralMutator") "," TY("Any"))},
    {"ffi.StructuralMutatorVarRemapSet",
     "ffi.StructuralMutatorVarRemapSet(0: ffi.StructuralMutator, 1: AnyView, 2: AnyView) -> void",
     FN(TY("None"), TY("ffi.StructuralMutator") "," TY("Any") "," TY("Any"))},
    {"ffi.StructuralMutatorWithDefRegionKind",
     "ffi.StructuralMutatorWithDefRegionKind(0: ffi.StructuralMutator, 1: int, "
     "2: ffi.Function) -> Any",
     FN(TY("Any"), TY("ffi.StructuralMutator") "," TY("int") "," TY("ffi.Function"))},
    {"ffi.StructuralVisit", "ffi.StructuralVisit(0: AnyView, 1: Array<Tuple<int, "
     "ffi.Function>>) -> Optional<ffi.VisitInterrupt>",
     FN(TY_ARGS("Optional", TY("ffi.VisitInterrupt")), TY("Any") ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function"))))},
    {"ffi.StructuralVisitorDefRegionKind",
     "ffi.StructuralVisitorDefRegionKind(0: ffi.StructuralVisitor) -> int",
     FN(TY("int"), TY("ffi.StructuralVisitor"))},
    {"ffi.StructuralVisitorDefaultVisit",
     "ffi.StructuralVisitorDefaultVisit(0: ffi.StructuralVisitor, "
     "1: AnyView) -> Optional<ffi.VisitInterrupt>",
     FN(TY_ARGS("Optional", TY("ffi.VisitInterrupt")), TY("ffi.StructuralVisitor") "," TY("Any"))},
    {"ffi.StructuralVisitorVisit", "ffi.StructuralVisitorVisit(0: ffi.StructuralVisitor, "
     "1: AnyView) -> Optional<ffi.VisitInterrupt>",
     FN(TY_ARGS("Optional", TY("ffi.VisitInterrupt")), TY("ffi.StructuralVisitor") "," TY("Any"))},
    {"ffi.StructuralVisitorWithDefRegionKind",
     "ffi.StructuralVisitorWithDefRegionKind(0: ffi.StructuralVisitor, 1: int, "
     "2: ffi.Function) -> Any",
     FN(TY("Any"), TY("ffi.StructuralVisitor") "," TY("int") "," TY("ffi.Function"))},
    {"ffi.StructuralWalk", "ffi.StructuralWalk(0: AnyView, 1: Array<Tuple<int, ffi.Function>>, "
     "2: Array<Tuple<int, ffi.Function>>, 3: int) -> Optional<ffi.VisitInterrupt>",
     FN(TY_ARGS("Optional", TY("ffi.VisitInterrupt")), TY("Any") ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function"))) ","
        TY_ARGS("ffi.Array", TY_ARGS("Tuple", TY("int") "," TY("ffi.Function"))) "," TY("int"))},
    {"ffi.SystemLib", NULL, PACKED},
    {"ffi.ToJSONGraph", "ffi.ToJSONGraph(0: Any, 1: Any) -> Any",
     FN(TY("Any"), TY("Any") "," TY("Any"))},
    {"ffi.ToJSONGraphString", "ffi.ToJSONGraphString(0: Any, 1: Any) -> str",
     FN(TY("ffi.String"), TY("Any") "," TY("Any"))},
    {"ffi.VisitErrorContext.FindAccessPaths",
     "ffi.VisitErrorContext.FindAccessPaths(0: ffi.Object, 1: ffi.VisitErrorContext, "
     "2: bool) -> Array<ffi.reflection.AccessPath>",
     FN(TY_ARGS("ffi.Array", TY("ffi.reflection.AccessPath")), TY("ffi.Object") ","
        TY("ffi.VisitErrorContext") "," TY("bool"))},
    {"ffi.VisitInterrupt", "ffi.VisitInterrupt(0: Any) -> ffi.VisitInterrupt",
     FN(TY("ffi.VisitInterrupt"), TY("Any"))},
    {"ffi._MapEraseInPlace", "ffi._MapEraseInPlace(0: Map<Any, Any>, 1: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.Map", TY("Any") "," TY("Any")) "," TY("Any"))},
    {"ffi._MapSetItemInPlace", "ffi._MapSetItemInPlace(0: Map<Any, Any>, 1: Any, 2: Any) -> void",
     FN(TY("None"), TY_ARGS("ffi.Map", TY("Any") "," TY("Any")) "," TY("Any") "," TY("Any"))},
    {"ffi._PyClassRegisterTypeAttrColumns", "ffi._PyClassRegisterTypeAttrColumns(0: int, "
     "1: int) -> void",
     FN(TY("None"), TY("int") "," TY("int"))},
    {"ffi._RegisterFFIInit", "ffi._RegisterFFIInit(0: int) -> void",
     FN(TY("None"), TY("int"))},
    {"ffi.json.Parse", "ffi.json.Parse(0: str) -> Any",
     FN(TY("Any"), TY("ffi.String"))},
    {"ffi.json.Stringify", "ffi.json.Stringify(0: Any, 1: Optional<int>) -> str",
     FN(TY("ffi.String"), TY("Any") "," TY_ARGS("Optional", TY("int")))},
    /* Type methods of ffi.reflection.AccessPath: self and one parameter (AP_METHOD), or none. */
    AP_METHOD("_array_item", "int", TY("int"), AP, TY(AP)),
    AP_METHOD("_array_item_missing", "int", TY("int"), AP, TY(AP)),
    AP_METHOD("_attr", "str", TY("ffi.String"), AP, TY(AP)),
    AP_METHOD("_attr_missing", "str", TY("ffi.String"), AP, TY(AP)),
    AP_METHOD("_extend", "ffi.reflection.AccessStep", TY("ffi.reflection.AccessStep"), AP, TY(AP)),
    AP_METHOD("_is_prefix_of", AP, TY(AP), "bool", TY("bool")),
    AP_METHOD("_map_item", "Any", TY("Any"), AP, TY(AP)),
    AP_METHOD("_map_item_missing", "Any", TY("Any"), AP, TY(AP)),
    AP_METHOD("_path_equal", AP, TY(AP), "bool", TY("bool")),
    {AP "._root", AP "._root() -> " AP, FN(TY(AP), "")},
    {AP "._to_steps", AP "._to_steps(0: " AP ") -> Array<ffi.reflection.AccessStep>",
     FN(TY_ARGS("ffi.Array", TY("ffi.reflection.AccessStep")), TY(AP))},
};

static int compare_name(const void* key, const void* entry) {
  return strcmp((const char*)key, ((const FfiBuiltinSignature*)entry)->name);
}

const FfiBuiltinSignature* ffi_builtin_signature(const char* name) {
  return (const FfiBuiltinSignature*)bsearch(name, kSignatures,
                                             sizeof(kSignatures) / sizeof(kSignatures[0]),
                                             sizeof(kSignatures[0]), compare_name);
}

const char* ffi_builtin_display_name(const char* name) {
  const FfiBuiltinSignature* sig = ffi_builtin_signature(name);
  return sig != NULL && sig->signature != NULL ? sig->signature : name;
}

bool ffi_builtin_param_text(const char* signature, int32_t i, char* buf, size_t size) {
  /* "name(0: A, 1: B<C, D>) -> R": parameter i starts after "<i>: " at nesting depth 1. */
  const char* p = strchr(signature, '(');
  if (p == NULL || size == 0) return false;
  int depth = 1;
  int32_t index = 0;
  const char* start = NULL;
  for (++p; *p != '\0' && depth > 0; ++p) {
    if (start == NULL && index == i && depth == 1 && p[0] == ':' && p[1] == ' ') start = p + 2;
    if (*p == '(' || *p == '<') ++depth;
    if (*p == ')' || *p == '>') --depth;
    bool param_end = (depth == 1 && p[0] == ',' && p[1] == ' ') || depth == 0;
    if (param_end && start != NULL) {
      size_t n = (size_t)(p - start);
      if (n >= size) n = size - 1;
      memcpy(buf, start, n);
      buf[n] = '\0';
      return true;
    }
    if (param_end && depth == 1) ++index;
  }
  return false;
}
