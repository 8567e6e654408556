/*
 * container_map.h -- MapBase, the C base of Map and Dict (container_map.c).
 */
#ifndef TVM_FFI_PYTHON_CONTAINER_MAP_H_
#define TVM_FFI_PYTHON_CONTAINER_MAP_H_

#include "base.h"

/* NotAMappingError and MapBase (after core_container_init: MapBase derives from CContainerBase). */
int core_container_map_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CONTAINER_MAP_H_ */
