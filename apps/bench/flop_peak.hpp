// The measured double-precision flop peak of the default execution space, so that a benchmark
// can judge a kernel against min(memory roof, flop peak) with both roofs measured on the machine
// it runs on (issue 12's "80 % of min(roofline from B_min(R) and the triad, measured flop peak)").
//
// Kernel: every work item runs kFlopPeakChains independent chains a_k <- a_k * x + y in
// registers (one FMA, or a multiply and an add without FMA, = 2 flops per update); the chains are
// independent so that the pipelines stay full, and there are enough work items to fill the device
// (8 per hardware thread on GPUs, 16 per thread on CPUs). The iteration count doubles until one
// run takes at least 20 ms; then `repeats` timed runs give the best and the median GFLOP/s.
// This is the peak of this build's instruction set (reported as "instruction_set"): a generic
// x86-64 build has SSE2 and no FMA; `-march=native` may raise it.
#pragma once

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::bench {

namespace flop_peak_detail {
using Device = kelp::DefaultDevice;
using Exec = Device::execution_space;

/// 24 chains: enough to cover the multiply + add latency with 2-wide SSE2 on a CPU core (12 of
/// the 16 vector registers) and the FMA latency on a GPU (24 registers per thread).
constexpr int kFlopPeakChains = 24;

struct FmaChains {
  Kokkos::View<double*, Device> out;
  double x = 0, y = 0;
  int iterations = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    double a[kFlopPeakChains];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int k = 0; k < kFlopPeakChains; ++k) a[k] = 1e-3 * static_cast<double>((i + k) % 7);
    for (int it = 0; it < iterations; ++it) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
      for (int k = 0; k < kFlopPeakChains; ++k) a[k] = a[k] * x + y;
    }
    double sum = 0;
    for (int k = 0; k < kFlopPeakChains; ++k) sum += a[k];
    out(i) = sum;  // keeps every chain live
  }
};

/// What this build computes doubles with.
inline std::string instruction_set() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) {
    cudaDeviceProp properties;
    if (cudaGetDeviceProperties(&properties, Kokkos::Cuda().cuda_device()) == cudaSuccess) {
      return "CUDA sm_" + std::to_string(properties.major) + std::to_string(properties.minor) +
             " FP64 FMA";
    }
    return "CUDA FP64 FMA";
  }
#endif
#if defined(__AVX512F__)
  return "x86-64 AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
  return "x86-64 AVX2 + FMA";
#elif defined(__AVX__)
  return "x86-64 AVX (no FMA)";
#elif defined(__SSE2__)
  return "x86-64 SSE2 (no FMA)";
#elif defined(__aarch64__)
  return "AArch64 NEON";
#else
  return "unknown";
#endif
}
}  // namespace flop_peak_detail

struct FlopPeakResult {
  double best_gflops = 0;
  double median_gflops = 0;
};

/// Measures the flop peak, prints {"kind":"flop_peak", ...} and returns it.
inline FlopPeakResult measure_flop_peak(const std::string& bench, int repeats) {
  using flop_peak_detail::Exec;
  constexpr bool gpu = !std::is_same<Exec::memory_space, Kokkos::HostSpace>::value;
  const std::size_t items = static_cast<std::size_t>(Exec().concurrency()) * (gpu ? 8 : 16);
  flop_peak_detail::FmaChains f;
  f.out = Kokkos::View<double*, flop_peak_detail::Device>("kelp-bench::flop_peak", items);
  f.x = 0.999999;  // |x| < 1: every chain converges to y / (1 - x), no overflow or denormals
  f.y = 1e-7;
  const auto policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::size_t>>(0, items);
  auto run = [&]() {
    Kokkos::fence();
    const auto start = Clock::now();
    Kokkos::parallel_for("kelp-bench::flop_peak", policy, f);
    Kokkos::fence();
    return seconds_since(start);
  };
  f.iterations = 64;
  run();  // warm-up: thread start-up and first-touch must not end the calibration early
  while (run() < 0.02 && f.iterations < (1 << 26)) f.iterations *= 2;
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) seconds.push_back(run());
  double check = 0;
  Kokkos::deep_copy(check, Kokkos::subview(f.out, items / 2));
  KELP_REQUIRE(std::isfinite(check) && check > 0, NumericalError,
               "kelp-bench-" << bench << ": flop peak kernel produced " << check);
  const double flops = 2.0 * flop_peak_detail::kFlopPeakChains * static_cast<double>(f.iterations) *
                       static_cast<double>(items);
  FlopPeakResult result;
  result.best_gflops = flops / minimum(seconds) / 1e9;
  result.median_gflops = flops / median(seconds) / 1e9;
  print_json_line(Json{{"bench", bench},
                       {"kind", "flop_peak"},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"instruction_set", flop_peak_detail::instruction_set()},
                       {"precision", "double"},
                       {"chains_per_item", flop_peak_detail::kFlopPeakChains},
                       {"work_items", static_cast<long long>(items)},
                       {"iterations", f.iterations},
                       {"repeats", repeats},
                       {"best_gflops", number_or_null(result.best_gflops)},
                       {"median_gflops", number_or_null(result.median_gflops)}});
  return result;
}

}  // namespace kelp::bench
