/*
 * tvm/ffi/extra/serialization.h -- object graphs <-> JSON values (the format of
 * tvm_ffi.serialization.to_json_graph_str): shared nodes stay shared, objects are rebuilt
 * through reflection.
 */
#ifndef TVM_FFI_EXTRA_SERIALIZATION_H_
#define TVM_FFI_EXTRA_SERIALIZATION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>

namespace tvm {
namespace ffi {

/*!
 * \brief Serializes a value into a JSON graph.
 * \param value The value (object graph) to serialize.
 * \param metadata Extra JSON value stored under "metadata"; None for none.
 * \return The JSON graph as a json::Object.
 */
TVM_FFI_EXTRA_CXX_API json::Value ToJSONGraph(const Any& value, const Any& metadata = Any(nullptr));

/*!
 * \brief Rebuilds a value from a JSON graph made by ToJSONGraph.
 * \param value The JSON graph.
 * \return The value.
 */
TVM_FFI_EXTRA_CXX_API Any FromJSONGraph(const json::Value& value);

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_SERIALIZATION_H_
