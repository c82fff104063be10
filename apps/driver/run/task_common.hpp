#pragma once
/// What the run tasks (solve, eigen, dos) share: wall-clock timing that waits for the device,
/// number formatting for the text report, and the scalar dispatch of tasks that run in double
/// precision only.

#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "kelp/kernels/core/error.hpp"

namespace kelp::solvers::task {

using Clock = std::chrono::steady_clock;

/// Seconds since `start`, after the device has finished what was launched (kernels are asynchronous).
inline double seconds_since(Clock::time_point start) {
  Kokkos::fence();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `value` in scientific notation with `digits` digits after the point.
inline std::string sci(double value, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", digits, value);
  return buffer;
}

/// Calls f(ScalarTag<S>{}) for problem.scalar double or complex; float is refused with a message
/// naming the task (`where` is the entry point, `task` the config's task name).
template <class F>
RunResult dispatch_double_scalar(const RunConfig& config, const char* where, const char* task, F&& f) {
  KELP_REQUIRE(config.problem.scalar != ScalarKind::real_float, NotSupported,
               where << ": task " << task << " runs in problem.scalar double or complex; problem.scalar is float");
  return dispatch_scalar(config.problem.scalar, [&](auto tag) {
    using Scalar = typename decltype(tag)::type;
    if constexpr (std::is_same<Scalar, float>::value) {
      return RunResult{};  // refused above
    } else {
      return f(tag);
    }
  });
}

}  // namespace kelp::solvers::task
