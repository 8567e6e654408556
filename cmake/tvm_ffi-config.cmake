# tvm_ffi-config.cmake -- CMake package of TVM-FFI (installed at tvm_ffi/share/cmake/tvm_ffi).
#
#   find_package(tvm_ffi CONFIG REQUIRED)     # tvm_ffi_ROOT or CMAKE_PREFIX_PATH from
#                                             # `tvm-ffi-config --cmakedir`
#   add_library(my_kernels SHARED kernels.cc)
#   tvm_ffi_configure_target(my_kernels)      # C++17, headers, link libtvm_ffi.so
#   install(TARGETS my_kernels LIBRARY DESTINATION my_package)
#   tvm_ffi_install(my_kernels DESTINATION my_package)   # debug symbols, where kept apart
#
# Functions: tvm_ffi_configure_target, tvm_ffi_install, tvm_ffi_add_prefix_map,
# tvm_ffi_add_apple_dsymutil, tvm_ffi_add_msvc_flags, tvm_ffi_hide_static_linked_lib_symbols,
# tvm_ffi_embed_bin_into, and for CUDA device code add_tvm_ffi_cubin / add_tvm_ffi_fatbin
# (tvm_ffi-device-binaries.cmake), as the reference package names them.
#
# Imported targets:
#   tvm_ffi::header   include directories (tvm/ffi/*.h, dlpack/dlpack.h) and C++17
#   tvm_ffi::shared   libtvm_ffi.so, plus the headers
#   tvm_ffi_header, tvm_ffi_shared   the same, by the names of the reference's own build tree
#                     and of its earlier packages, which projects and its quickstart link
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
# The unnamespaced spellings are aliases: properties read through them are the targets' own.
foreach (_tvm_ffi_kind IN ITEMS header shared)
  if (NOT TARGET tvm_ffi_${_tvm_ffi_kind})
    add_library(tvm_ffi_${_tvm_ffi_kind} ALIAS tvm_ffi::${_tvm_ffi_kind})
  endif ()
endforeach ()

# tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF]
#                          [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF]
#                          [STUB_DIR <dir>] [STUB_INIT ON|OFF] [STUB_PKG <pkg>]
#                          [STUB_PREFIX <prefix>] [STUB_TARGET python|rust])
# Makes <target> a TVM-FFI library or program: C++17, our headers, linked with libtvm_ffi.so
# (both ON by default), and source paths in backtraces relative to the project.
# With STUB_DIR (relative paths resolve against the current source directory), each build
# regenerates the Python stubs under that directory from what the library registers
# (`python -m tvm_ffi.stub.cli <dir> --dlls <library>`); STUB_INIT ON also lets it create the
# package's files, for package STUB_PKG (default: the scikit-build project name, else the
# target name) and global-function prefix STUB_PREFIX (default: "<STUB_PKG>.").
# Argument rules of the STUB_* options (macros: they read the caller's parsed _arg_* values).
macro (_tvm_ffi_check_stub_arguments target)
  if (NOT DEFINED _arg_STUB_INIT)
    set(_arg_STUB_INIT OFF)
  endif ()
  if (NOT _arg_STUB_DIR AND (DEFINED _arg_STUB_PKG OR DEFINED _arg_STUB_PREFIX))
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX require STUB_DIR to be set.")
  endif ()
  if (NOT _arg_STUB_INIT AND (DEFINED _arg_STUB_PKG OR DEFINED _arg_STUB_PREFIX))
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): STUB_PKG/STUB_PREFIX cannot be set when STUB_INIT is OFF.")
  endif ()
  if (_arg_STUB_INIT AND NOT _arg_STUB_DIR)
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): STUB_INIT=ON requires STUB_DIR to be set.")
  endif ()
endmacro ()

# The post-build step that regenerates the stubs under STUB_DIR from the built library.
macro (_tvm_ffi_add_stub_generation target)
  get_filename_component(_stub_dir "${_arg_STUB_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  set(_stub_args "${_stub_dir}" --dlls "$<TARGET_FILE:${target}>")
  if (_arg_STUB_TARGET)
    list(APPEND _stub_args --target "${_arg_STUB_TARGET}")
  endif ()
  if (_arg_STUB_INIT)
    if (NOT DEFINED _arg_STUB_PKG)
      if (DEFINED SKBUILD_PROJECT_NAME)
        set(_arg_STUB_PKG "${SKBUILD_PROJECT_NAME}")
      else ()
        set(_arg_STUB_PKG "${target}")
      endif ()
    endif ()
    if (NOT DEFINED _arg_STUB_PREFIX)
      set(_arg_STUB_PREFIX "${_arg_STUB_PKG}.")
    endif ()
    list(APPEND _stub_args --init-lib "${target}" --init-pypkg "${_arg_STUB_PKG}"
                           --init-prefix "${_arg_STUB_PREFIX}")
  endif ()
  add_custom_command(TARGET "${target}" POST_BUILD
                     COMMAND "${Python3_EXECUTABLE}" -m tvm_ffi.stub.cli ${_stub_args}
                     COMMENT "Generating TVM-FFI stubs for ${target} in ${_stub_dir}"
                     VERBATIM)
endmacro ()

function (tvm_ffi_configure_target target)
  if (NOT TARGET "${target}")
    message(FATAL_ERROR "tvm_ffi_configure_target: '${target}' is not an existing CMake target.")
  endif ()
  cmake_parse_arguments(_arg "" "LINK_SHARED;LINK_HEADER;DEBUG_SYMBOL;MSVC_FLAGS;STUB_INIT;STUB_DIR;STUB_PKG;STUB_PREFIX;STUB_TARGET" "" ${ARGN})
  if (_arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tvm_ffi_configure_target(${target}): unknown arguments ${_arg_UNPARSED_ARGUMENTS}. "
                        "Usage: tvm_ffi_configure_target(<target> [LINK_SHARED ON|OFF] [LINK_HEADER ON|OFF] [DEBUG_SYMBOL ON|OFF] [MSVC_FLAGS ON|OFF] [STUB_INIT ON|OFF] [STUB_DIR <dir>] [STUB_PKG <pkg>] [STUB_PREFIX <prefix>] [STUB_TARGET python|rust])")
  endif ()
  foreach (_opt IN ITEMS LINK_SHARED LINK_HEADER DEBUG_SYMBOL MSVC_FLAGS)
    if (NOT DEFINED _arg_${_opt})
      set(_arg_${_opt} ON)
    endif ()
  endforeach ()
  _tvm_ffi_check_stub_arguments("${target}")
  if (_arg_LINK_HEADER)
    target_link_libraries("${target}" PRIVATE tvm_ffi::header)
  endif ()
  if (_arg_LINK_SHARED)
    target_link_libraries("${target}" PRIVATE tvm_ffi::shared)
  endif ()
  target_compile_features("${target}" PRIVATE cxx_std_17)
  tvm_ffi_add_prefix_map("${target}" "${CMAKE_CURRENT_SOURCE_DIR}")
  if (_arg_MSVC_FLAGS)
    tvm_ffi_add_msvc_flags("${target}")
  endif ()
  if (_arg_STUB_DIR)
    _tvm_ffi_add_stub_generation("${target}")
  endif ()
  if (_arg_DEBUG_SYMBOL)
    tvm_ffi_add_apple_dsymutil("${target}")
  endif ()
endfunction ()

# tvm_ffi_add_prefix_map(<target> <prefix>)
# Source paths under <prefix> appear relative to it in the target's backtraces and assertions.
function (tvm_ffi_add_prefix_map target prefix)
  if (CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options("${target}" PRIVATE "-ffile-prefix-map=${prefix}/=")
  endif ()
endfunction ()

# tvm_ffi_add_apple_dsymutil(<target>)
# On macOS, runs dsymutil after each build so backtraces find the debug symbols.
function (tvm_ffi_add_apple_dsymutil target)
  if (APPLE)
    find_program(_tvm_ffi_dsymutil dsymutil)
    mark_as_advanced(_tvm_ffi_dsymutil)
    if (_tvm_ffi_dsymutil)
      add_custom_command(TARGET "${target}" POST_BUILD
                         COMMAND "${_tvm_ffi_dsymutil}" "$<TARGET_FILE:${target}>" VERBATIM)
    endif ()
  endif ()
endfunction ()

# tvm_ffi_hide_static_linked_lib_symbols(<target>)
# Keeps the symbols of static libraries linked into <target> out of its dynamic symbol table, so
# a kernel library that bundles, say, a static fmt or protobuf exports only its own API and
# cannot interpose on another copy loaded in the same process. GNU-style linkers
# (--exclude-libs,ALL); elsewhere nothing changes (this package targets ELF platforms).
function (tvm_ffi_hide_static_linked_lib_symbols target)
  if (NOT TARGET "${target}")
    message(FATAL_ERROR "tvm_ffi_hide_static_linked_lib_symbols: '${target}' is not an existing CMake target.")
  endif ()
  if (CMAKE_SYSTEM_NAME MATCHES "Linux|Android|FreeBSD|NetBSD|OpenBSD"
      AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_link_options("${target}" PRIVATE "LINKER:--exclude-libs,ALL")
  endif ()
endfunction ()

# tvm_ffi_add_msvc_flags(<target>)
# Under MSVC: the Windows header and CRT definitions the headers expect, debug info, /bigobj
# (the reflection templates exceed the default section count) and /Zc:inline.
function (tvm_ffi_add_msvc_flags target)
  if (MSVC)
    target_compile_definitions("${target}" PUBLIC WIN32_LEAN_AND_MEAN NOMINMAX
                               _CRT_SECURE_NO_WARNINGS _SCL_SECURE_NO_WARNINGS
                               _ENABLE_EXTENDED_ALIGNED_STORAGE)
    target_compile_options("${target}" PRIVATE /Zi /bigobj "$<$<COMPILE_LANGUAGE:C,CXX>:/Zc:inline>")
  endif ()
endfunction ()

# tvm_ffi_embed_bin_into(<target> SYMBOL <name> BIN <file>)
# Embeds the bytes of <file> (a CUBIN, or any blob) into the object of <target>'s one source
# before it is linked, for TVM_FFI_EMBED_CUBIN(<name>) in that source
# (`python -m tvm_ffi.utils.embed_cubin`).
function (tvm_ffi_embed_bin_into target)
  cmake_parse_arguments(_arg "" "SYMBOL;BIN" "" ${ARGN})
  if (NOT _arg_BIN)
    message(FATAL_ERROR "tvm_ffi_embed_bin_into: BIN is required")
  endif ()
  if (NOT _arg_SYMBOL)
    message(FATAL_ERROR "tvm_ffi_embed_bin_into: SYMBOL is required")
  endif ()
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  set(_unembedded "${CMAKE_CURRENT_BINARY_DIR}/${_arg_SYMBOL}_intermediate.o")
  add_custom_command(
    TARGET "${target}" PRE_LINK
    COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_OBJECTS:${target}>" "${_unembedded}"
    COMMAND "${Python3_EXECUTABLE}" -m tvm_ffi.utils.embed_cubin
            --output-obj "$<TARGET_OBJECTS:${target}>" --name "${_arg_SYMBOL}"
            --input-obj "${_unembedded}" --cubin "${_arg_BIN}"
    COMMENT "Embedding ${_arg_BIN} into ${target} as ${_arg_SYMBOL}"
    VERBATIM)
endfunction ()

# tvm_ffi_install(<target> [DESTINATION <dir>])
# Installs the debugging artifacts of a target built with tvm_ffi_configure_target next to it
# (the dSYM bundle on macOS, when there is one; nothing else on other platforms), as the
# reference's function does. The target itself is installed with CMake's install(TARGETS ...).
# The library finds libtvm_ffi.so at run time through the process that imported tvm_ffi, so it
# keeps no rpath into the build tree.
function (tvm_ffi_install target)
  cmake_parse_arguments(_arg "" "DESTINATION" "" ${ARGN})
  if (NOT TARGET "${target}")
    message(FATAL_ERROR "tvm_ffi_install: '${target}' is not an existing CMake target.")
  endif ()
  if (NOT _arg_DESTINATION)
    set(_arg_DESTINATION ".")
  endif ()
  if (APPLE)
    install(DIRECTORY "$<TARGET_FILE:${target}>.dSYM" DESTINATION "${_arg_DESTINATION}" OPTIONAL)
  endif ()
endfunction ()

include("${CMAKE_CURRENT_LIST_DIR}/tvm_ffi-device-binaries.cmake")

set(tvm_ffi_FOUND TRUE)
