#!/usr/bin/env bash
# Configures and builds the example with CMake against the installed tvm_ffi package:
# build/add_one_cpp.so (the kernels) and build/run_example (a C++ loader).
set -euo pipefail
cd "$(dirname "$0")"
if command -v tvm-ffi-config >/dev/null 2>&1; then
  CMAKE_DIR="$(tvm-ffi-config --cmakedir)"
else
  CMAKE_DIR="$("${PYTHON:-python3}" -m tvm_ffi.config --cmakedir)"
fi
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_DIR}" -DCMAKE_BUILD_TYPE=Release
cmake --build build
echo "built build/add_one_cpp.so and build/run_example"
