# tvm_ffi-device-binaries.cmake -- CUDA device code compiled to a CUBIN or FATBIN file, for
# kernels that load it at run time (TVM_FFI_EMBED_CUBIN, CubinModule). Included by
# tvm_ffi-config.cmake; the functions carry the reference package's names and arguments.
#
#   project(my_kernels LANGUAGES CXX CUDA)
#   find_package(tvm_ffi CONFIG REQUIRED)
#   add_tvm_ffi_fatbin(kernel_fatbin CUDA src/kernel.cu)            # or add_tvm_ffi_cubin
#   add_library(my_kernels SHARED src/launcher.cc)                   # TVM_FFI_EMBED_CUBIN(env)
#   target_link_libraries(my_kernels PRIVATE tvm_ffi::header tvm_ffi::shared CUDA::cudart)
#   tvm_ffi_embed_bin_into(my_kernels SYMBOL env BIN "$<TARGET_OBJECTS:kernel_fatbin>")
#
# CMake 3.27 has the same as target properties (CUDA_CUBIN_COMPILATION, CUDA_FATBIN_COMPILATION);
# these functions give older CMake versions, and projects written for the reference, the same.

# CUDA targets link the shared CUDA runtime unless the project chose otherwise: a statically
# linked cudart must match the driver exactly, which a kernel library loaded into someone else's
# process cannot promise. Set CMAKE_CUDA_RUNTIME_LIBRARY to None for driver-API-only kernels.
if (NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  message(STATUS "tvm_ffi: CMAKE_CUDA_RUNTIME_LIBRARY defaults to Shared "
                 "(set it to None to use only the CUDA driver API)")
endif ()

# The script the build runs to give each compiled object its binary's name (a function's
# CMAKE_CURRENT_LIST_DIR is its caller's, so the path is kept where the functions can read it).
set_property(GLOBAL PROPERTY _TVM_FFI_COPY_DEVICE_BINARIES
             "${CMAKE_CURRENT_LIST_DIR}/tvm_ffi-copy-device-binaries.cmake")

# add_tvm_ffi_cubin(<target> CUDA <source>...)
# An OBJECT library <target> whose objects are CUBIN images of the sources, for the one
# architecture in CMAKE_CUDA_ARCHITECTURES (a CUBIN holds machine code of a single one).
# A target <target>_bin, built by default, copies each to <name>.cubin next to its object
# (src/kernel.cu -> kernel.cubin), for code that loads the file by name.
function (add_tvm_ffi_cubin target)
  _tvm_ffi_add_device_binary(cubin "${target}" ${ARGN})
endfunction ()

# add_tvm_ffi_fatbin(<target> CUDA <source>...)
# As add_tvm_ffi_cubin, with FATBIN images (every architecture of CMAKE_CUDA_ARCHITECTURES in
# one file, plus PTX where the architectures ask for it) copied to <name>.fatbin.
function (add_tvm_ffi_fatbin target)
  _tvm_ffi_add_device_binary(fatbin "${target}" ${ARGN})
endfunction ()

function (_tvm_ffi_add_device_binary kind target)
  set(_caller "add_tvm_ffi_${kind}(${target})")
  cmake_parse_arguments(_arg "" "" "CUDA" ${ARGN})
  if (_arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_caller}: unknown arguments ${_arg_UNPARSED_ARGUMENTS}. "
                        "Usage: add_tvm_ffi_${kind}(<target> CUDA <source>...)")
  endif ()
  if (NOT _arg_CUDA)
    message(FATAL_ERROR "${_caller}: CUDA source is required. "
                        "Usage: add_tvm_ffi_${kind}(<target> CUDA <source>...)")
  endif ()
  # Without the CUDA language CMake would not compile the .cu files at all, and the object
  # library would build nothing; say so at configure time instead.
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if (NOT "CUDA" IN_LIST _languages)
    message(FATAL_ERROR "${_caller}: the CUDA language is not enabled; use "
                        "project(<name> LANGUAGES CXX CUDA) or enable_language(CUDA) first.")
  endif ()
  add_library("${target}" OBJECT ${_arg_CUDA})
  target_compile_options("${target}" PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--${kind}>")
  # A CUBIN holds machine code of one architecture and no PTX, and nvcc refuses --cubin when a
  # plain "80" asks for both; one such architecture is compiled as "80-real". More than one
  # remains nvcc's error to report.
  get_target_property(_architectures "${target}" CUDA_ARCHITECTURES)
  if (kind STREQUAL "cubin" AND _architectures MATCHES "^[0-9]+[af]?$")
    set_target_properties("${target}" PROPERTIES CUDA_ARCHITECTURES "${_architectures}-real")
  endif ()
  get_property(_copy_script GLOBAL PROPERTY _TVM_FFI_COPY_DEVICE_BINARIES)
  add_custom_target(
    "${target}_bin" ALL
    COMMAND "${CMAKE_COMMAND}" "-DOBJECTS=$<TARGET_OBJECTS:${target}>" "-DEXTENSION=${kind}"
            -P "${_copy_script}"
    DEPENDS "${target}"
    COMMENT "Copying the .${kind} images of ${target}"
    VERBATIM)
endfunction ()
