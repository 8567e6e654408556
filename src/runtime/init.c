/*
 * init.c -- brings the runtime up once, when the library is loaded, in dependency order: the
 * type table first (kernels' static initialisers query it as soon as they are loaded), then
 * the built-in global functions of each area.
 */
#include "container/container_internal.h"
#include "enum_internal.h"
#include "internal.h"
#include "reflection_internal.h"
#include "type_members_internal.h"
#include "type_registry_globals_internal.h"
#include "type_registry_internal.h"

__attribute__((constructor)) static void ffi_runtime_init(void) {
  ffi_type_registry_init();
  ffi_type_members_init();
  ffi_register_type_globals();
  ffi_register_function_globals();
  ffi_register_string_globals();
  ffi_register_object_globals();
  ffi_register_array_globals();
  ffi_register_list_globals();
  ffi_register_map_globals();
  ffi_register_content_globals();
  ffi_register_device_scan_globals();
  ffi_register_tensor_globals();
  ffi_register_module_globals();
  ffi_register_reflection_globals();
  ffi_register_reflection_init_globals();
  ffi_register_structural_globals();
  ffi_register_enum_types();
  ffi_register_py_class_globals();
  ffi_register_object_convert_attrs();
  ffi_register_type_final_attrs();
}
