# tvm_ffi-copy-device-binaries.cmake -- run by the <target>_bin step of add_tvm_ffi_cubin and
# add_tvm_ffi_fatbin (tvm_ffi-device-binaries.cmake):
#
#   cmake -DOBJECTS=<object>[;<object>...] -DEXTENSION=cubin|fatbin -P <this file>
#
# Each object compiled with --cubin or --fatbin already is the image; it is copied next to itself
# under the source's name (CMake names objects <source>.o: kernel.cu.o -> kernel.cubin).
# copy_if_different leaves an unchanged image's time stamp alone, so nothing downstream rebuilds.
if (NOT DEFINED OBJECTS OR NOT DEFINED EXTENSION)
  message(FATAL_ERROR "usage: cmake -DOBJECTS=<objects> -DEXTENSION=<cubin|fatbin> -P ${CMAKE_CURRENT_LIST_FILE}")
endif ()
foreach (_object IN LISTS OBJECTS)
  get_filename_component(_dir "${_object}" DIRECTORY)
  get_filename_component(_name "${_object}" NAME)
  # Drop the object suffix, then the source's: kernel.cu.o -> kernel.cu -> kernel.
  string(REGEX REPLACE "\\.[^.]*$" "" _name "${_name}")
  string(REGEX REPLACE "\\.[^.]*$" "" _name "${_name}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_object}"
                          "${_dir}/${_name}.${EXTENSION}"
                  RESULT_VARIABLE _rc)
  if (NOT _rc EQUAL 0)
    message(FATAL_ERROR "could not copy ${_object} to ${_dir}/${_name}.${EXTENSION}")
  endif ()
endforeach ()
