/*
 * torch_c_dlpack_addon.cc -- a DLPackExchangeAPI table for PyTorch releases that publish none.
 *
 * PyTorch 2.10 and newer put a C table of DLPack conversions on torch.Tensor
 * (`__dlpack_c_exchange_api__`), so an FFI call converts a torch tensor argument without going
 * through Python's `__dlpack__`. For older releases, _build_optional_torch_c_dlpack.py compiles
 * this file against the installed PyTorch, and tvm_ffi._optional_torch_c_dlpack publishes the
 * table it returns (TorchDLPackExchangeAPIPtr) on torch.Tensor.
 *
 * Only ATen's long-standing DLPack entry points are used (the legacy toDLPack / fromDLPack and
 * the dtype conversions), so the file compiles against every PyTorch 2.x; DLPack 1.x
 * (versioned) tensors are adapted to and from them here. Every function is called with the GIL
 * held. Failures set a Python exception (the py-object functions) or report through SetError
 * (the allocator), and return -1.
 *
 * Our dlpack.h comes first: it uses DLPack's standard include guard, so ATen's own copy (older
 * in old releases, without the versioned structs) is skipped and both sides share one set of
 * definitions.
 */
#include <dlpack/dlpack.h>

#include <Python.h>

#include <ATen/DLConvertor.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_strided.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/python_variable.h>

#if defined(BUILD_WITH_CUDA)
#include <c10/cuda/CUDAStream.h>
#elif defined(BUILD_WITH_ROCM)
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#endif

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

// ---- errors ----

std::string message_of(const std::exception& e) {
  if (const auto* c10_error = dynamic_cast<const c10::Error*>(&e)) {
    return c10_error->what_without_backtrace();
  }
  return e.what();
}

int set_python_error(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  return -1;
}

// ---- devices: the DLPack view of a torch device and back ----

// A CUDA device of a ROCm build is a HIP device under another name.
constexpr DLDeviceType kGpuDeviceType =
#if defined(BUILD_WITH_ROCM)
    kDLROCM;
#else
    kDLCUDA;
#endif

bool to_dl_device(const at::Device& device, DLDevice* out) {
  int32_t index = device.has_index() ? static_cast<int32_t>(device.index()) : 0;
  switch (device.type()) {
    case c10::DeviceType::CPU:
      *out = DLDevice{kDLCPU, 0};
      return true;
    case c10::DeviceType::CUDA:
      *out = DLDevice{kGpuDeviceType, index};
      return true;
    case c10::DeviceType::MPS:
      *out = DLDevice{kDLMetal, index};
      return true;
    case c10::DeviceType::XPU:
      *out = DLDevice{kDLOneAPI, index};
      return true;
    default:
      return false;
  }
}

at::Device to_torch_device(const DLDevice& device) {
  auto index = static_cast<c10::DeviceIndex>(device.device_id);
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
    case kDLROCMHost:
      return at::Device(c10::DeviceType::CPU);
    case kDLCUDA:
    case kDLCUDAManaged:
    case kDLROCM:
      return at::Device(c10::DeviceType::CUDA, index);
    case kDLMetal:
      return at::Device(c10::DeviceType::MPS, index);
    case kDLOneAPI:
      return at::Device(c10::DeviceType::XPU, index);
    default:
      TORCH_CHECK(false, "PyTorch has no device for DLPack device type ",
                  static_cast<int>(device.device_type));
  }
}

// ---- versioned (DLPack 1.x) tensors over ATen's legacy export ----

// Owns the legacy tensor ATen made; the versioned header borrows its shape and strides.
struct VersionedOverLegacy {
  DLManagedTensorVersioned versioned;
  DLManagedTensor* legacy;
};

void delete_versioned_over_legacy(DLManagedTensorVersioned* self) {
  auto* box = reinterpret_cast<VersionedOverLegacy*>(self);
  if (box->legacy->deleter != nullptr) box->legacy->deleter(box->legacy);
  delete box;
}

DLManagedTensorVersioned* export_versioned(const at::Tensor& tensor) {
  DLManagedTensor* legacy = at::toDLPack(tensor);
  auto* box = new (std::nothrow) VersionedOverLegacy();
  if (box == nullptr) {
    if (legacy->deleter != nullptr) legacy->deleter(legacy);
    throw std::bad_alloc();
  }
  box->legacy = legacy;
  box->versioned.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  box->versioned.manager_ctx = nullptr;
  box->versioned.deleter = delete_versioned_over_legacy;
  box->versioned.flags = 0;
  box->versioned.dl_tensor = legacy->dl_tensor;
  // ATen's legacy export names a ROCm build's GPU kDLROCM already; keep what it says.
  return &box->versioned;
}

at::Tensor checked_tensor(PyObject* obj) {
  TORCH_CHECK_TYPE(THPVariable_Check(obj), "expected a torch.Tensor, got ", Py_TYPE(obj)->tp_name);
  return THPVariable_Unpack(obj);
}

// ---- the table's functions ----

int managed_tensor_from_py_object(void* py_object, DLManagedTensorVersioned** out) {
  try {
    *out = export_versioned(checked_tensor(static_cast<PyObject*>(py_object)));
    return 0;
  } catch (const c10::TypeError& e) {
    return set_python_error(PyExc_TypeError, message_of(e));
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
    return -1;
  } catch (const std::exception& e) {
    return set_python_error(PyExc_RuntimeError, message_of(e));
  }
}

int dltensor_from_py_object(void* py_object, DLTensor* out) {
  try {
    at::Tensor tensor = checked_tensor(static_cast<PyObject*>(py_object));
    DLDevice device;
    TORCH_CHECK(to_dl_device(tensor.device(), &device), "DLPack has no device for torch device ",
                tensor.device().str());
    out->data = tensor.data_ptr();  // the storage offset is already applied
    out->device = device;
    out->ndim = static_cast<int32_t>(tensor.dim());
    out->dtype = at::getDLDataType(tensor);
    // Both arrays live in the TensorImpl, which the Python object keeps alive for the call.
    out->shape = const_cast<int64_t*>(tensor.sizes().data());
    out->strides = const_cast<int64_t*>(tensor.strides().data());
    out->byte_offset = 0;
    return 0;
  } catch (const c10::TypeError& e) {
    return set_python_error(PyExc_TypeError, message_of(e));
  } catch (const std::exception& e) {
    return set_python_error(PyExc_RuntimeError, message_of(e));
  }
}

// Takes ownership of `tensor` in every case: on failure its deleter has run.
int managed_tensor_to_py_object(DLManagedTensorVersioned* tensor, void** out_py_object) {
  bool handed_over = false;
  try {
    const DLTensor& dl = tensor->dl_tensor;
    // Checked first, so that a refusal leaves the deleter to us rather than to ATen.
    at::Device device = to_torch_device(dl.device);
    at::ScalarType scalar_type = at::toScalarType(dl.dtype);
    (void)device;
    (void)scalar_type;
    DLManagedTensor legacy{};
    legacy.dl_tensor = dl;
    // ATen's legacy import ignores byte_offset in older releases (2.9 does; 2.13 honors it):
    // fold it into the data pointer, which every release then reads the same way.
    if (dl.byte_offset != 0) {
      legacy.dl_tensor.data = static_cast<char*>(dl.data) + dl.byte_offset;
      legacy.dl_tensor.byte_offset = 0;
    }
    std::vector<int64_t> compact_strides;
    if (dl.strides == nullptr && dl.ndim > 0) {  // NULL strides: compact row-major
      compact_strides.resize(static_cast<size_t>(dl.ndim));
      int64_t stride = 1;
      for (int32_t i = dl.ndim - 1; i >= 0; --i) {
        compact_strides[static_cast<size_t>(i)] = stride;
        stride *= dl.shape[i];
      }
      legacy.dl_tensor.strides = compact_strides.data();
    }
    handed_over = true;
    at::Tensor result =
        at::fromDLPack(&legacy, [tensor](void*) {
          if (tensor->deleter != nullptr) tensor->deleter(tensor);
        });
    PyObject* wrapped = THPVariable_Wrap(std::move(result));
    if (wrapped == nullptr) return -1;
    *out_py_object = wrapped;
    return 0;
  } catch (const std::exception& e) {
    if (!handed_over && tensor->deleter != nullptr) tensor->deleter(tensor);
    return set_python_error(PyExc_RuntimeError, message_of(e));
  }
}

int managed_tensor_allocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                             void (*set_error)(void* error_ctx, const char* kind,
                                               const char* message)) {
  try {
    std::vector<int64_t> shape(prototype->shape, prototype->shape + prototype->ndim);
    std::vector<int64_t> strides(static_cast<size_t>(prototype->ndim));
    int64_t stride = 1;
    for (int32_t i = prototype->ndim - 1; i >= 0; --i) {
      strides[static_cast<size_t>(i)] = stride;
      stride *= shape[static_cast<size_t>(i)];
    }
    at::TensorOptions options = at::TensorOptions()
                                    .dtype(at::toScalarType(prototype->dtype))
                                    .device(to_torch_device(prototype->device));
    *out = export_versioned(at::empty_strided(shape, strides, options));
    return 0;
  } catch (const std::bad_alloc&) {
    set_error(error_ctx, "MemoryError", "out of memory allocating a torch tensor");
    return -1;
  } catch (const std::exception& e) {
    set_error(error_ctx, "RuntimeError", message_of(e).c_str());
    return -1;
  }
}

int current_work_stream(DLDeviceType device_type, int32_t device_id, void** out_stream) {
  *out_stream = nullptr;
#if defined(BUILD_WITH_CUDA)
  if (device_type == kDLCUDA || device_type == kDLCUDAManaged) {
    *out_stream = c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(device_id)).stream();
  }
#elif defined(BUILD_WITH_ROCM)
  if (device_type == kDLROCM) {
    *out_stream = c10::hip::getCurrentHIPStreamMasqueradingAsCUDA(
                      static_cast<c10::DeviceIndex>(device_id))
                      .stream();
  }
#else
  (void)device_type;
  (void)device_id;
#endif
  return 0;
}

const DLPackExchangeAPI kExchangeApi = [] {
  DLPackExchangeAPI api{};
  api.header.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  api.header.prev_api = nullptr;
  api.managed_tensor_allocator = managed_tensor_allocator;
  api.managed_tensor_from_py_object_no_sync = managed_tensor_from_py_object;
  api.managed_tensor_to_py_object_no_sync = managed_tensor_to_py_object;
  api.dltensor_from_py_object_no_sync = dltensor_from_py_object;
  api.current_work_stream = current_work_stream;
  return api;
}();

}  // namespace

// The address of the table, as an integer (what the loader publishes on torch.Tensor).
extern "C" __attribute__((visibility("default"))) int64_t TorchDLPackExchangeAPIPtr() {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(&kExchangeApi));
}
