/*
 * map_walk.h -- the entries of a Map or Dict in insertion order, read straight from the map's
 * memory as the ABI lays it out (ABI.md 4.4), and the iterator Map/Dict loops use (map_walk.c).
 */
#ifndef TVM_FFI_PYTHON_MAP_WALK_H_
#define TVM_FFI_PYTHON_MAP_WALK_H_

#include "base.h"

/* What a walk hands out per entry. */
typedef enum { kMapWalkKeys = 0, kMapWalkValues = 1, kMapWalkItems = 2 } CoreMapWalk;

/* The entry count of the Map/Dict behind `h` (map_walk.c reads the layout). */
Py_ssize_t core_map_size(TVMFFIObjectHandle h);

/* A new list of the entries of `map` (a MapBase instance holding a Map or Dict handle): keys,
 * values or (key, value) tuples as `what` says, in the map's framework when it has one. */
PyObject* core_map_entry_list(PyObject* map, CoreMapWalk what);

/* An iterator over such a list, taken when the loop starts, that raises RuntimeError ("<class>
 * changed size during iteration") when the map's size changes meanwhile, as dict's does. */
PyObject* core_map_iter(PyObject* map, CoreMapWalk what);

/* Readies the iterator type. 0, or -1 with exception. */
int core_map_walk_init(void);

#endif /* TVM_FFI_PYTHON_MAP_WALK_H_ */
