/*
 * structural/register.c -- registers the structural services' global functions at start-up.
 */
#include "json_graph.h"
#include "structural.h"
#include "mutate.h"
#include "visit.h"

void ffi_register_structural_globals(void) {
  ffi_register_bigint_any_hooks();
  ffi_register_access_path_types();
  ffi_register_structural_key();
  ffi_register_repr_globals();
  ffi_register_structural_eq_globals();
  ffi_register_deep_copy_globals();
  ffi_register_json_text_globals();
  ffi_register_json_graph_write_globals();
  ffi_register_json_graph_read_globals();
  ffi_register_recursive_compare_globals();
  ffi_register_recursive_hash_globals();
  ffi_register_visit_types();
  ffi_register_walk_globals();
  ffi_register_visitor_globals();
  ffi_register_mutate_types();
  ffi_register_mutator_globals();
}
