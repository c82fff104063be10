#pragma once
/// What the run tasks (solve, eigen, dos) share: wall-clock timing that waits for the device,
/// number formatting for the text report, and the scalar dispatch of tasks that run in double
/// precision only.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

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

/// The bound the solver's tolerances put on ||b - A x||: max(relative_tolerance * reference,
/// absolute_tolerance), the reference being ||b|| or ||b - A x0|| as relative_to says; read from
/// the solver's effective configuration (every solver type writes these keys).
inline double true_residual_target(const ComponentSpec& solver, double rhs_norm, double initial_norm) {
  const YAML::Node written = solver.write();
  const auto number = [&](const char* key) { return written[key] ? written[key].as<double>() : 0.0; };
  const bool from_initial =
      written["relative_to"] && written["relative_to"].as<std::string>() == "initial_residual";
  return std::max(number("relative_tolerance") * (from_initial ? initial_norm : rhs_norm),
                  number("absolute_tolerance"));
}

/// A solve that converged in the preconditioned norm (left-preconditioned GMRES) bounds
/// ||M^-1 (b - A x)||, not ||b - A x||: the true residual can be far larger (mhd1280b: 1.78
/// relative, worse than x = 0, reported as converged). The driver holds such a result to the
/// same tolerance on the true residual; true when it misses it.
inline bool converged_in_preconditioned_norm_only(const ComponentSpec& solver, const SolveResult& solve,
                                                  double true_residual, double rhs_norm, double initial_norm) {
  return solve.converged() && solve.stopping_norm == ResidualNorm::preconditioned &&
         !(true_residual <= true_residual_target(solver, rhs_norm, initial_norm));
}

/// A solve that stopped as converged in the true-residual norm whose ||b - A x||, recomputed by
/// the driver, exceeds the tolerance bound by more than rounding (factor 1.1). A float solve
/// checks its residuals in float, which cannot confirm tolerances near its epsilon: sherman5
/// with fgmres stopped at 9.4e-8 against 1e-7, and b - A x in double was 2.3e-7.
inline bool true_residual_misses_tolerance(const ComponentSpec& solver, const SolveResult& solve,
                                           double true_residual, double rhs_norm, double initial_norm) {
  return solve.converged() && solve.stopping_norm != ResidualNorm::preconditioned &&
         !(true_residual <= 1.1 * true_residual_target(solver, rhs_norm, initial_norm));
}

/// The warning a run prints when true_residual_misses_tolerance.
inline const char* true_residual_warning() {
  return "  warning: the solver stopped as converged, but ||b - A x||, recomputed, misses the tolerance "
         "(its own residuals are rounded: a float solve cannot confirm a tolerance near float's epsilon; "
         "use scalar: double or a larger tolerance)\n";
}

/// The header comment of task eigen's eigenvector file: what the columns are.
inline std::string eigenvector_comment(const ProblemDescription& problem, const std::vector<double>& eigenvalues,
                                       int ranks) {
  std::string text = "kelp eigenvectors of " + problem.matrix + ", scalar " + to_string(problem.scalar) +
                     (ranks > 1 ? ", " + std::to_string(ranks) + " ranks" : std::string()) +
                     "; column j belongs to eigenvalue j:";
  for (const double lambda : eigenvalues) text += " " + sci(lambda, 16);
  return text;
}

/// Writes X (a vector or the columns of a multi-vector, any memory space) to `path` as a
/// Matrix Market array file and prints "LABEL: path". A solve that stopped on nan leaves
/// non-finite entries, which a Matrix Market file cannot hold (the writer refuses them): the
/// file is then not written and a warning names the first such entry; the run's own outcome
/// (its exit code and report) stands.
template <class View>
void write_vectors(const std::string& path, const View& X, const std::string& comment, const char* label,
                   std::ostream& out) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
  const std::size_t rows = host.extent(0), cols = View::rank == 2 ? host.extent(1) : 1;
  for (std::size_t j = 0; j < cols; ++j) {
    for (std::size_t i = 0; i < rows; ++i) {
      typename View::non_const_value_type v;
      if constexpr (View::rank == 2) {
        v = host(i, j);
      } else {
        v = host(i);
      }
      if (!ScalarTraits<decltype(v)>::is_finite(v)) {
        out << "  warning: " << label << " not written to " << path << ": entry " << i;
        if (cols > 1) out << " of column " << j;
        out << " is " << v << ", and Matrix Market files hold finite numbers only\n";
        return;
      }
    }
  }
  io::write_dense_matrix_market(path, host, comment);
  out << label << ": " << path << "\n";
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
