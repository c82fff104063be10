// The STREAM triad every kelp-bench-* app measures as its roof: a(i) = b(i) + s*c(i) on arrays well
// beyond the last-level cache, in the default execution space, so that "fraction of triad" means
// the same in every benchmark.
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::bench {

namespace triad_detail {
namespace fs = std::filesystem;
using Device = kelp::DefaultDevice;
using Exec = Device::execution_space;

using TriadOut = Kokkos::View<double*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Restrict>>;
using TriadIn = Kokkos::View<const double*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Restrict>>;

/// a(j) = b(j) + s c(j) for the `Width` consecutive elements j = Width i, ..., Width i + Width - 1
/// of index i. On CUDA devices Width 2 and 4 move 16-byte (double2) words, so that a thread keeps
/// more bytes in flight per load (the one-element form left the H100 at 2.5 TB/s, against 3.07
/// TB/s for a plain CUDA triad in issue 7).
template <int Width>
struct TriadFunctor {
  TriadOut a;
  TriadIn b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const std::size_t j = Width * i;
#if defined(__CUDA_ARCH__)
    if constexpr (Width % 2 == 0) {
      for (int k = 0; k < Width; k += 2) {
        const double2 x = *reinterpret_cast<const double2*>(&b(j + k));
        const double2 y = *reinterpret_cast<const double2*>(&c(j + k));
        *reinterpret_cast<double2*>(&a(j + k)) = make_double2(x.x + s * y.x, x.y + s * y.y);
      }
    } else  // NOLINT(readability-misleading-indentation): the else of the CUDA branch
#endif
    {
      for (int k = 0; k < Width; ++k) a(j + k) = b(j + k) + s * c(j + k);
    }
  }
};

/// "32768K", "32M" (sysfs cache sizes) in bytes; 0 when unreadable.
inline long long parse_cache_size(const std::string& text) {
  std::size_t end = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &end);
  } catch (const std::exception&) {
    return 0;
  }
  const std::string unit = text.substr(end, 1);
  if (unit == "K") return value << 10;
  if (unit == "M") return value << 20;
  if (unit == "G") return value << 30;
  return value;
}

inline std::string read_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// The last-level cache of the device the triad runs on, summed over its instances (one per
/// socket or core complex on CPUs), and where the figure comes from; 0 and "unknown" when
/// unreadable.
inline std::pair<long long, std::string> last_level_cache_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) {
    cudaDeviceProp properties;
    if (cudaGetDeviceProperties(&properties, Kokkos::Cuda().cuda_device()) == cudaSuccess) {
      return {static_cast<long long>(properties.l2CacheSize), "cuda l2CacheSize"};
    }
    return {0, "unknown"};
  }
#endif
  // Highest cache level of any CPU; each distinct shared_cpu_list is one instance.
  int top_level = 0;
  long long instance_bytes = 0;
  std::set<std::string> instances;
  std::error_code ec;
  for (const auto& cpu : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
    const std::string name = cpu.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos) {
      continue;
    }
    std::error_code cache_ec;
    for (const auto& index : fs::directory_iterator(cpu.path() / "cache", cache_ec)) {
      if (read_line(index.path() / "type") == "Instruction") continue;
      int level = 0;
      try {
        level = std::stoi(read_line(index.path() / "level"));
      } catch (const std::exception&) {
        continue;
      }
      const long long bytes = parse_cache_size(read_line(index.path() / "size"));
      const std::string shared = read_line(index.path() / "shared_cpu_list");
      if (level > top_level) {
        top_level = level;
        instances.clear();
      }
      if (level == top_level && bytes > 0) {
        instance_bytes = bytes;
        instances.insert(shared);
      }
    }
  }
  if (instances.empty()) return {0, "unknown"};
  return {instance_bytes * static_cast<long long>(instances.size()),
          "sysfs L" + std::to_string(top_level) + " x " + std::to_string(instances.size())};
}
}  // namespace triad_detail

struct TriadResult {
  double best_gbs = 0;
  double median_gbs = 0;
};

/// STREAM triad a(i) = b(i) + s*c(i) with three arrays of `triad_mb` MB each (<= 0: max(256 MB on
/// CPUs / 1 GB on GPUs, 4 x the last-level cache)) in the default execution space, `repeats`
/// timed runs; prints its JSON line (with "bench": `bench`) and returns best and median GB/s;
/// 3 words per element counted (as STREAM: the write-allocate read of a is not counted).
inline TriadResult measure_triad(const std::string& bench, double triad_mb, int repeats) {
  const auto [llc_bytes, llc_source] = triad_detail::last_level_cache_bytes();
  // GPUs: 1 GB per array at least. 256 MB arrays (5 x the H100's L2) still gave 2.26 TB/s
  // against 3.07 TB/s for a plain CUDA triad on 1 GB arrays (issue 7): too low a roof.
  constexpr bool gpu = !Kokkos::SpaceAccessibility<triad_detail::Exec, Kokkos::HostSpace>::accessible;
  const double floor_mb = gpu ? 1024.0 : 256.0;
  const double auto_mb = std::max(floor_mb, 4.0 * static_cast<double>(llc_bytes) / 1e6);
  const double array_mb = triad_mb > 0 ? triad_mb : auto_mb;
  // A multiple of 4 elements, so that every variant covers the arrays exactly.
  const std::size_t n = std::max<std::size_t>(4, static_cast<std::size_t>(array_mb * 1e6 / sizeof(double)) / 4 * 4);
  // Allocated and initialized by Exec, so on CPUs the pages are first touched by the threads
  // (and with the static schedule) the triad uses.
  Kokkos::View<double*, triad_detail::Device> a("triad_a", n), b("triad_b", n), c("triad_c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const triad_detail::TriadOut out(a.data(), n);
  const triad_detail::TriadIn in_b(b.data(), n), in_c(c.data(), n);
  // Each width is timed in turn; the roof is the fastest (by median): the machine's bandwidth,
  // not one loop form's.
  std::vector<std::pair<int, std::vector<double>>> runs;
  auto time_width = [&](auto width_tag) {
    constexpr int width = decltype(width_tag)::value;
    const triad_detail::TriadFunctor<width> triad{out, in_b, in_c, 3.0};
    const auto policy = Kokkos::RangePolicy<triad_detail::Exec, Kokkos::IndexType<std::size_t>>(0, n / width);
    Kokkos::deep_copy(a, -1.0);  // poisoned: a run that misses elements fails the check below
    for (int w = 0; w < 2; ++w) Kokkos::parallel_for("kelp-bench::triad", policy, triad);
    Kokkos::fence();
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
      const auto start = kelp::bench::Clock::now();
      Kokkos::parallel_for("kelp-bench::triad", policy, triad);
      Kokkos::fence();
      seconds.push_back(kelp::bench::seconds_since(start));
    }
    for (const std::size_t at : {std::size_t{0}, n / 2 + 1, n - 1}) {
      double check = 0;
      Kokkos::deep_copy(check, Kokkos::subview(a, at));
      KELP_REQUIRE(check == 7.0, NumericalError,
                   "kelp-bench-" << bench << ": triad (" << width << " elements per index) produced a(" << at
                                 << ") = " << check << ", expected 7");
    }
    runs.emplace_back(width, std::move(seconds));
  };
  time_width(std::integral_constant<int, 1>{});
  // The 16-byte words need 16-byte aligned arrays (Kokkos allocations are; a misaligned word
  // would fault on a GPU), so the wider forms are skipped otherwise.
  const auto aligned16 = [](const double* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (aligned16(a.data()) && aligned16(b.data()) && aligned16(c.data())) {
    time_width(std::integral_constant<int, 2>{});
    time_width(std::integral_constant<int, 4>{});
  }
  const auto fastest = std::min_element(runs.begin(), runs.end(), [](const auto& x, const auto& y) {
    return median(x.second) < median(y.second);
  });
  const std::vector<double>& seconds = fastest->second;
  const double bytes = 3.0 * sizeof(double) * static_cast<double>(n);
  Json widths = Json::object();
  for (const auto& [width, times] : runs) widths[std::to_string(width)] = number_or_null(bytes / median(times) / 1e9);
  TriadResult result;
  result.best_gbs = bytes / minimum(seconds) / 1e9;
  result.median_gbs = bytes / median(seconds) / 1e9;
  print_json_line(Json{
      {"bench", bench},
      {"kind", "triad"},
      {"array_mb", array_mb},
      {"array_mb_auto", triad_mb <= 0},
      {"elements", static_cast<long long>(n)},
      {"llc_bytes", llc_bytes},
      {"llc_source", llc_source},
      {"beyond_4x_llc", llc_bytes > 0 ? Json(array_mb * 1e6 >= 4.0 * llc_bytes) : Json(nullptr)},
      {"execution_space", triad_detail::Exec::name()},
      {"threads", triad_detail::Exec().concurrency()},
      {"repeats", repeats},
      {"elements_per_index", fastest->first},
      {"median_gbytes_per_s_by_elements_per_index", widths},
      {"best_gbytes_per_s", number_or_null(result.best_gbs)},
      {"median_gbytes_per_s", number_or_null(result.median_gbs)},
      {"median_s", number_or_null(median(seconds))},
      {"min_s", number_or_null(minimum(seconds))}});
  return result;
}

}  // namespace kelp::bench
