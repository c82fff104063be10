#pragma once
/// How many teams of a team kernel fit on an NVIDIA GPU at once, and the L1 / shared-memory split
/// that keeps them there with the most L1.
///
/// Why the split: Kokkos 3.4.1 launches every TeamPolicy kernel with cudaFuncCachePreferShared
/// (core/src/Cuda/Kokkos_Cuda_Parallel.hpp, ParallelFor<TeamPolicy>::execute passes
/// prefer_shmem = true), whatever scratch the kernel asks for. On an H100 that gives shared memory
/// 228 KiB of the 256 KiB each SM splits between the two and leaves about 28 KiB of L1, so a team
/// kernel that gathers (KPM's rows of V) misses L1 where a plain CUDA kernel left at the driver's
/// default hits. (KPM's team kernel at R = 1 on an H100: 0.33 -> 0.53 of its roof with the split
/// below; docs/performance.md, "Issue 12: the team kernel's L1, rows interleaved over one wave".)
///
/// Why the count: a kernel that interleaves its rows over all teams (each team sweeps the whole
/// matrix) must launch no more teams than are resident at once, or the rows are swept once per
/// wave. Exec::concurrency() counts threads per SM, not the teams that the kernel's registers let
/// in (an H100 holds 8 teams of 256 threads by threads, 4 at 64 registers per thread).
///
/// Both use Kokkos::Impl names (the launch wrapper of ParallelFor), one reason Kelp pins Kokkos
/// 3.4.1: an upgrade has to recheck them. On other execution spaces nothing is queried or set.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

namespace kelp::impl {

/// Shared-memory carveout in percent (1-100) for `blocks` teams per SM of `per_block` bytes each
/// (static and dynamic shared memory plus the driver's reserve), out of an SM's `per_sm` bytes of
/// shared memory at most; rounded up (the driver takes a configuration at least this large).
inline int shared_carveout_percent(int blocks, std::size_t per_block, std::size_t per_sm) {
  if (per_sm == 0) return 100;
  const std::size_t need = static_cast<std::size_t>(blocks < 1 ? 1 : blocks) * per_block;
  const std::size_t percent = (100 * need + per_sm - 1) / per_sm;
  return percent < 1 ? 1 : percent > 100 ? 100 : static_cast<int>(percent);
}

/// A team kernel's residency on the device (TeamKernelOccupancy::known false off CUDA or where a
/// CUDA query failed; then the caller keeps its own estimate and Kokkos' carveout).
struct TeamKernelOccupancy {
  bool known = false;
  int teams_per_multiprocessor = 0;  ///< at the largest shared-memory carveout
  int multiprocessors = 0;
  int carveout_percent = 100;        ///< smallest carveout that still holds those teams
  long long resident_teams() const { return static_cast<long long>(teams_per_multiprocessor) * multiprocessors; }
};

#ifdef KOKKOS_ENABLE_CUDA
template <class Functor, class Policy>
auto team_kernel_function() {
  using Driver = Kokkos::Impl::ParallelFor<Functor, Policy, Kokkos::Cuda>;
  return Kokkos::Impl::CudaParallelLaunch<Driver, typename Policy::launch_bounds>::get_kernel_func();
}
#endif

/// Residency of `Functor` launched with `policy` (team_size * vector_length threads per team,
/// `scratch_bytes` of level-0 scratch per team). The occupancy calculator honours the kernel's
/// current carveout, so this first sets it to 100 % (Kokkos' own choice): the answer does not
/// depend on an earlier call for another shape of the same kernel.
template <class Functor, class Policy>
TeamKernelOccupancy team_kernel_occupancy(const Policy& policy, std::size_t scratch_bytes) {
  TeamKernelOccupancy o;
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<typename Policy::execution_space, Kokkos::Cuda>::value) {
    const auto func = team_kernel_function<Functor, Policy>();
    const int threads = policy.team_size() * policy.impl_vector_length();
    // Kokkos' own per-team shared memory in front of the scratch: team_size + 2 doubles
    // (ParallelFor<TeamPolicy>::m_shmem_begin in Kokkos 3.4.1).
    const std::size_t dynamic = sizeof(double) * (policy.team_size() + 2) + scratch_bytes;
    cudaFuncAttributes attributes;
    int device = 0, reserved = 0, per_sm = 0;
    if (cudaFuncSetAttribute(func, cudaFuncAttributePreferredSharedMemoryCarveout, 100) != cudaSuccess ||
        cudaFuncGetAttributes(&attributes, func) != cudaSuccess || cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&o.multiprocessors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.teams_per_multiprocessor, func, threads, dynamic) !=
            cudaSuccess ||
        o.teams_per_multiprocessor < 1) {
      cudaGetLastError();  // cleared: the caller falls back to its own estimate
      return TeamKernelOccupancy{};
    }
    const std::size_t per_block = dynamic + attributes.sharedSizeBytes + static_cast<std::size_t>(reserved);
    o.carveout_percent = shared_carveout_percent(o.teams_per_multiprocessor, per_block, static_cast<std::size_t>(per_sm));
    o.known = true;
  }
#endif
  (void)policy;
  (void)scratch_bytes;
  return o;
}

/// Sets the carveout of `Functor` launched with `Policy` to o.carveout_percent (more L1, the same
/// teams per SM). Kokkos sets its preference at the kernel's first launch in the process, so call
/// this after a launch; it lasts until it is set again (another shape: call it again).
template <class Functor, class Policy>
void team_kernel_prefer_l1(const TeamKernelOccupancy& o) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<typename Policy::execution_space, Kokkos::Cuda>::value) {
    if (o.known &&
        cudaFuncSetAttribute(team_kernel_function<Functor, Policy>(), cudaFuncAttributePreferredSharedMemoryCarveout,
                             o.carveout_percent) != cudaSuccess) {
      cudaGetLastError();  // Kokkos' carveout stays: correct, only slower
    }
  }
#endif
  (void)o;
}

}  // namespace kelp::impl
