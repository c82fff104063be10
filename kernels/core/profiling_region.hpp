#pragma once
/// A named Kokkos profiling region for the lifetime of a scope.

#include <Kokkos_Core.hpp>
#include <string>

namespace kelp {

/// Pushes a Kokkos profiling region on construction and pops it on destruction, so that the
/// region is closed on every path out of the scope, exceptions included.
///
///   {
///     ProfilingRegion region("kelp::run::solve");
///     result = solver.solve(b, x);
///   }
///
/// Names follow the Kokkos label convention (qualified function name, docs/conventions.md §3).
/// Regions nest; tools (Kokkos Tools space-time-stack, nsys with the NVTX connector) show them as
/// a tree. Without a loaded tool, push and pop cost a branch each.
/// Host code only; not copyable or movable (the pop must match exactly one push).
class ProfilingRegion {
 public:
  /// @param[in] name  region name, e.g. "kelp::run::setup"
  explicit ProfilingRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ProfilingRegion() { Kokkos::Profiling::popRegion(); }
  ProfilingRegion(const ProfilingRegion&) = delete;
  ProfilingRegion& operator=(const ProfilingRegion&) = delete;
  ProfilingRegion(ProfilingRegion&&) = delete;
  ProfilingRegion& operator=(ProfilingRegion&&) = delete;
};

}  // namespace kelp
