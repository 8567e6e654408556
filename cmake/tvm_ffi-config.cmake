# tvm_ffi-config.cmake -- CMake package of TVM-FFI (installed at tvm_ffi/share/cmake/tvm_ffi).
#
#   find_package(tvm_ffi CONFIG REQUIRED)     # tvm_ffi_ROOT or CMAKE_PREFIX_PATH from
#                                             # `tvm-ffi-config --cmakedir`
#   add_library(my_kernels SHARED kernels.cc)
#   tvm_ffi_configure_target(my_kernels)      # C++17, headers, link libtvm_ffi.so
#   tvm_ffi_install(my_kernels DESTINATION my_package)
#
# Imported targets:
#   tvm_ffi::header   include directories (tvm/ffi/*.h, dlpack/dlpack.h) and C++17
#   tvm_ffi::shared   libtvm_ffi.so, plus the headers
# Variables: tvm_ffi_INCLUDE_DIR, tvm_ffi_DLPACK_INCLUDE_DIR, tvm_ffi_LIB_FILES, tvm_ffi_VERSION.

cmake_minimum_required(VERSION 3.18)

# In the wheel this file sits in <pkg>/share/cmake/tvm_ffi, so the package is three levels up.
get_filename_component(_tvm_ffi_pkg_dir "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(tvm_ffi_INCLUDE_DIR "${_tvm_ffi_pkg_dir}/include")
set(tvm_ffi_LIB_FILES "${_tvm_ffi_pkg_dir}/lib/libtvm_ffi.so")

# Elsewhere (e.g. an editable install), ask the Python package where its files are.
if (NOT EXISTS "${tvm_ffi_INCLUDE_DIR}/tvm/ffi/c_api.h" OR NOT EXISTS "${tvm_ffi_LIB_FILES}")
  find_package(Python COMPONENTS Interpreter QUIET)
  if (NOT Python_Interpreter_FOUND)
    set(tvm_ffi_FOUND FALSE)
    set(tvm_ffi_NOT_FOUND_MESSAGE "tvm_ffi: headers are not next to ${CMAKE_CURRENT_LIST_FILE} and no Python interpreter was found to ask tvm_ffi.config")
    return()
  endif ()
  foreach (_tvm_ffi_query IN ITEMS includedir libfiles)
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m tvm_ffi.config --${_tvm_ffi_query}
      OUTPUT_VARIABLE _tvm_ffi_answer
      OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _tvm_ffi_rc)
    if (NOT _tvm_ffi_rc EQUAL 0)
      set(tvm_ffi_FOUND FALSE)
      set(tvm_ffi_NOT_FOUND_MESSAGE "tvm_ffi: `${Python_EXECUTABLE} -m tvm_ffi.config --${_tvm_ffi_query}` failed")
      return()
    endif ()
    if (_tvm_ffi_query STREQUAL "includedir")
      set(tvm_ffi_INCLUDE_DIR "${_tvm_ffi_answer}")
    else ()
      set(tvm_ffi_LIB_FILES "${_tvm_ffi_answer}")
    endif ()
  endforeach ()
endif ()
# Our dlpack.h ships inside the same include directory.
set(tvm_ffi_DLPACK_INCLUDE_DIR "${tvm_ffi_INCLUDE_DIR}")

# The version is the one the C header declares.
file(STRINGS "${tvm_ffi_INCLUDE_DIR}/tvm/ffi/c_api.h" _tvm_ffi_version_lines
     REGEX "^#define TVM_FFI_VERSION_(MAJOR|MINOR|PATCH) [0-9]+")
foreach (_tvm_ffi_line IN LISTS _tvm_ffi_version_lines)
  string(REGEX REPLACE "^#define TVM_FFI_VERSION_([A-Z]+) ([0-9]+).*" "\\1;\\2" _tvm_ffi_pair "${_tvm_ffi_line}")
  list(GET _tvm_ffi_pair 0 _tvm_ffi_part)
  list(GET _tvm_ffi_pair 1 tvm_ffi_VERSION_${_tvm_ffi_part})
endforeach ()
set(tvm_ffi_VERSION "${tvm_ffi_VERSION_MAJOR}.${tvm_ffi_VERSION_MINOR}.${tvm_ffi_VERSION_PATCH}")

if (NOT TARGET tvm_ffi::header)
  add_library(tvm_ffi::header INTERFACE IMPORTED)
  target_compile_features(tvm_ffi::header INTERFACE cxx_std_17)
  target_include_directories(tvm_ffi::header INTERFACE "${tvm_ffi_INCLUDE_DIR}")
endif ()
if (NOT TARGET tvm_ffi::shared)
  add_library(tvm_ffi::shared SHARED IMPORTED)
  set_target_properties(tvm_ffi::shared PROPERTIES
    IMPORTED_LOCATION "${tvm_ffi_LIB_FILES}"
    IMPORTED_SONAME "libtvm_ffi.so"
    INTERFACE_INCLUDE_DIRECTORIES "${tvm_ffi_INCLUDE_DIR}")
  target_compile_features(tvm_ffi::shared INTERFACE cxx_std_17)
endif ()

# tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF]
#                          [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF])
# Makes <target> a TVM-FFI library or program: C++17, our headers, linked with libtvm_ffi.so
# (both ON by default), and source paths in backtraces relative to the project.
function (tvm_ffi_configure_target target)
  if (NOT TARGET "${target}")
    message(FATAL_ERROR "tvm_ffi_configure_target: '${target}' is not an existing CMake target.")
  endif ()
  cmake_parse_arguments(_arg "" "LINK_SHARED;LINK_HEADER;DEBUG_SYMBOL;MSVC_FLAGS;STUB_INIT;STUB_DIR;STUB_PKG;STUB_PREFIX;STUB_TARGET" "" ${ARGN})
  if (_arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): unknown arguments ${_arg_UNPARSED_ARGUMENTS}. "
                        "Usage: tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF] [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF])")
  endif ()
  foreach (_opt IN ITEMS LINK_SHARED LINK_HEADER DEBUG_SYMBOL MSVC_FLAGS)
    if (NOT DEFINED _arg_${_opt})
      set(_arg_${_opt} ON)
    endif ()
  endforeach ()
  if (_arg_STUB_DIR)
    message(WARNING "tvm_ffi_configure_target(${target}): stub generation (STUB_DIR) is not available in this package; skipped.")
  endif ()
  if (_arg_LINK_HEADER)
    target_link_libraries("${target}" PRIVATE tvm_ffi::header)
  endif ()
  if (_arg_LINK_SHARED)
    target_link_libraries("${target}" PRIVATE tvm_ffi::shared)
  endif ()
  target_compile_features("${target}" PRIVATE cxx_std_17)
  if (CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options("${target}" PRIVATE "-ffile-prefix-map=${CMAKE_CURRENT_SOURCE_DIR}/=")
  endif ()
  if (MSVC AND _arg_MSVC_FLAGS)
    target_compile_definitions("${target}" PUBLIC WIN32_LEAN_AND_MEAN NOMINMAX _CRT_SECURE_NO_WARNINGS)
    target_compile_options("${target}" PRIVATE /bigobj /Zc:inline)
  endif ()
  if (APPLE AND _arg_DEBUG_SYMBOL)
    find_program(_tvm_ffi_dsymutil dsymutil)
    if (_tvm_ffi_dsymutil)
      add_custom_command(TARGET "${target}" POST_BUILD
                         COMMAND "${_tvm_ffi_dsymutil}" "$<TARGET_FILE:${target}>")
    endif ()
  endif ()
endfunction ()

# tvm_ffi_install(<target> DESTINATION <dir>)
# Installs a library or program built with tvm_ffi_configure_target, e.g. into the Python
# package directory of a scikit-build-core project. It finds libtvm_ffi.so at run time through
# the process that imported tvm_ffi, so no rpath into the build tree is kept.
function (tvm_ffi_install target)
  cmake_parse_arguments(_arg "" "DESTINATION" "" ${ARGN})
  if (NOT TARGET "${target}")
    message(FATAL_ERROR "tvm_ffi_install: '${target}' is not an existing CMake target.")
  endif ()
  if (NOT _arg_DESTINATION)
    message(FATAL_ERROR "tvm_ffi_install(${target}): DESTINATION <dir> is required.")
  endif ()
  install(TARGETS "${target}" LIBRARY DESTINATION "${_arg_DESTINATION}"
                              RUNTIME DESTINATION "${_arg_DESTINATION}"
                              ARCHIVE DESTINATION "${_arg_DESTINATION}")
endfunction ()

set(tvm_ffi_FOUND TRUE)
