// Times Map lookups and loops written with the C++ headers, no Python in the loop.
// Built once per header set by benchmarks/cpp_containers.py; prints "<case> <ns per op>" lines.
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/string.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ffi = tvm::ffi;

template <typename F>
static double NanosPerOp(int64_t ops, F&& body) {
  auto start = std::chrono::steady_clock::now();
  body();
  auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() / static_cast<double>(ops);
}

int main(int argc, char** argv) {
  const int64_t ops = argc > 1 ? std::atoll(argv[1]) : 1000000;
  int64_t sink = 0;
  // 3 keys stay in the small layout (a scan); 100 make the dense hash table.
  for (int n : {3, 100}) {
    ffi::Map<ffi::String, int64_t> m;
    std::vector<ffi::String> keys;
    for (int i = 0; i < n; ++i) {
      keys.push_back(ffi::String("key number " + std::to_string(i)));
      m.Set(keys.back(), i);
    }
    std::string size = std::to_string(n);
    std::printf("map.at(str), %s keys %.2f\n", size.c_str(), NanosPerOp(ops, [&] {
                  for (int64_t r = 0; r < ops; ++r) sink += m.at(keys[r % n]);
                }));
    std::printf("map.count(str), %s keys %.2f\n", size.c_str(), NanosPerOp(ops, [&] {
                  for (int64_t r = 0; r < ops; ++r) sink += static_cast<int64_t>(m.count(keys[r % n]));
                }));
    int64_t loops = ops / n;
    std::printf("for (kv : map) per item, %s keys %.2f\n", size.c_str(), NanosPerOp(loops * n, [&] {
                  for (int64_t r = 0; r < loops; ++r) {
                    for (auto kv : m) sink += kv.second;
                  }
                }));
  }
  return sink == 42 ? 1 : 0;  // keeps the loops from being optimised away
}
