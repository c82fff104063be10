// kelp-bench-krylov: time per iteration and time to solution of Jacobi-preconditioned CG (standard,
// single-reduction, flexible), GMRES(m) (CGS2 and MGS, right; CGS2 left) and BiCGStab on the 7-point 3D Laplacian and the 3D upwinded
// convection-diffusion problem, with the STREAM triad measured in the same run for scale.
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}      the STREAM triad (apps/bench/triad.hpp)
//   {"kind":"config", ...}     problem, sizes, threads, execution space
//   {"kind":"iteration", ...}  per solver: a fixed iteration count (tolerance 0), median seconds
//                              per iteration over the repeats
//   {"kind":"solve", ...}      per solver: to --tolerance from x = 0, median seconds to solution,
//                              iterations, stop reason, true relative residual
//
// Usage: kelp-bench-krylov [--problem convdiff3d|laplace3d] [--n 64] [--restart 30]
//                          [--iterations 60] [--repeats 5] [--tolerance 1e-8]
//                          [--solvers cg,cg_single,gmres,gmres_mgs,bicgstab] [--velocity 100]
//   solver names: cg, cg_single (single-reduction), cg_flexible, gmres, gmres_mgs, gmres_left,
//   gmres_cgs (one classical Gram-Schmidt pass), gmres_cgs_ifneeded (second pass when needed),
//   bicgstab

#include <algorithm>
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/bicgstab/bicgstab.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/cg/cg_single_reduction.hpp"
#include "kelp/solvers/cg/flexible_cg.hpp"
#include "kelp/solvers/gmres/gmres.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using Vector = kelp::VectorView<double>;
using Solve = std::function<kelp::solvers::SolveResult(const Vector&, const Vector&)>;

struct Options {
  std::string problem = "convdiff3d";
  int n = 64;
  int restart = 30;
  int iterations = 60;
  int repeats = 5;
  double tolerance = 1e-8;
  double velocity = 100;
  std::string solvers = "cg,cg_single,gmres,gmres_mgs,bicgstab";
};

/// The solver `name` with the given stopping rules (cg on the nonsymmetric problem is skipped).
Solve make_solver(const std::string& name, const Options& options,
                  std::shared_ptr<const kelp::Operator<double>> A,
                  std::shared_ptr<const kelp::Operator<double>> M, int max_iterations,
                  double tolerance) {
  using namespace kelp::solvers;
  if (name == "cg" || name == "cg_single" || name == "cg_flexible") {
    CgParams p;
    p.max_iterations = max_iterations;
    p.relative_tolerance = tolerance;
    if (name == "cg_single") {
      auto s = std::make_shared<CgSingleReduction<double>>(A, M, p);
      return [s](const Vector& b, const Vector& x) { return s->solve(b, x, kelp::InitialGuess::zero); };
    }
    if (name == "cg_flexible") {
      auto s = std::make_shared<FlexibleCg<double>>(A, M, p);
      return [s](const Vector& b, const Vector& x) { return s->solve(b, x, kelp::InitialGuess::zero); };
    }
    auto s = std::make_shared<Cg<double>>(A, M, p);
    return [s](const Vector& b, const Vector& x) { return s->solve(b, x, kelp::InitialGuess::zero); };
  }
  if (name == "gmres" || name == "gmres_mgs" || name == "gmres_left" || name == "gmres_cgs" ||
      name == "gmres_cgs_ifneeded") {
    GmresParams p;
    p.max_iterations = max_iterations;
    p.relative_tolerance = tolerance;
    p.restart = options.restart;
    p.orthogonalization = name == "gmres_mgs" ? Orthogonalization::mgs : Orthogonalization::cgs2;
    if (name == "gmres_cgs") p.orthogonalization = Orthogonalization::cgs;
    if (name == "gmres_cgs_ifneeded") p.orthogonalization = Orthogonalization::cgs_refine_if_needed;
    if (name == "gmres_left") p.side = PreconditionerSide::left;
    auto s = std::make_shared<Gmres<double>>(A, M, p);
    return [s](const Vector& b, const Vector& x) { return s->solve(b, x, kelp::InitialGuess::zero); };
  }
  // The command line admits only the names above and "bicgstab" (comma_list_of).
  BicgstabParams p;
  p.max_iterations = max_iterations;
  p.relative_tolerance = tolerance;
  auto s = std::make_shared<Bicgstab<double>>(A, M, p);
  return [s](const Vector& b, const Vector& x) { return s->solve(b, x, kelp::InitialGuess::zero); };
}

/// Median over `repeats` timed solves (after one warm-up) of seconds and of seconds / iteration,
/// and the best seconds / iteration (on a shared machine the least disturbed solve).
struct Timing {
  double seconds = 0, per_iteration = 0, best_per_iteration = 0;
  kelp::solvers::SolveResult last;
};
Timing time_solves(const Solve& solve, const Vector& b, const Vector& x, int repeats) {
  std::vector<double> seconds, per_iteration;
  Timing t;
  for (int rep = 0; rep < repeats + 1; ++rep) {
    Kokkos::fence();
    const auto start = kelp::bench::Clock::now();
    t.last = solve(b, x);
    Kokkos::fence();
    const double s = kelp::bench::seconds_since(start);
    if (rep == 0) continue;  // warm-up
    seconds.push_back(s);
    if (t.last.iterations > 0) per_iteration.push_back(s / t.last.iterations);
  }
  t.seconds = median(seconds);
  t.per_iteration = per_iteration.empty() ? 0 : median(per_iteration);
  t.best_per_iteration =
      per_iteration.empty() ? 0 : *std::min_element(per_iteration.begin(), per_iteration.end());
  return t;
}

int run(const Options& options) {
  const double triad = kelp::bench::measure_triad("krylov", 0, 10).median_gbs;
  const bool convdiff = options.problem == "convdiff3d";
  const Matrix A = convdiff ? kelp::generators::convection_diffusion<double>(
                                  options.n, options.n, options.n, options.velocity,
                                  options.velocity / 2, options.velocity / 4)
                            : kelp::generators::laplace3d<double>(options.n, options.n, options.n);
  print_json_line(Json{{"bench", "krylov"},
                       {"kind", "config"},
                       {"matrix", options.problem + "_" + std::to_string(options.n)},
                       {"num_rows", static_cast<long long>(A.num_rows())},
                       {"nnz", static_cast<long long>(A.nnz())},
                       {"restart", options.restart},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()},
                       {"triad_gbytes_per_s", number_or_null(triad)}});
  auto Aop = std::make_shared<kelp::MatrixOperator<Matrix>>(A);
  auto M = std::make_shared<kelp::precond::Jacobi<Matrix>>();
  M->setup(A);
  Vector b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);

  std::stringstream list(options.solvers);
  for (std::string name; std::getline(list, name, ',');) {
    if (name.rfind("cg", 0) == 0 && convdiff) {  // CG needs a symmetric positive definite A
      print_json_line(Json{{"bench", "krylov"}, {"kind", "skipped"}, {"solver", name},
                           {"reason", "the convdiff3d problem is nonsymmetric; cg needs a symmetric positive definite A"}});
      continue;
    }
    // Time per iteration: a fixed count (tolerance 0).
    const auto fixed = time_solves(make_solver(name, options, Aop, M, options.iterations, 0.0), b, x,
                                   options.repeats);
    print_json_line(Json{{"bench", "krylov"}, {"kind", "iteration"}, {"solver", name},
                         {"iterations", fixed.last.iterations},
                         {"median_s_per_iteration", number_or_null(fixed.per_iteration)},
                         {"min_s_per_iteration", number_or_null(fixed.best_per_iteration)},
                         {"note", "includes the initial and final true residuals"}});
    // Time to solution.
    const auto solved = time_solves(make_solver(name, options, Aop, M, 100000, options.tolerance),
                                    b, x, options.repeats);
    print_json_line(Json{{"bench", "krylov"}, {"kind", "solve"}, {"solver", name},
                         {"tolerance", options.tolerance},
                         {"iterations", solved.last.iterations},
                         {"stop_reason", kelp::solvers::to_string(solved.last.reason)},
                         {"relative_residual", number_or_null(solved.last.relative_residual())},
                         {"median_s", number_or_null(solved.seconds)},
                         {"median_s_per_iteration", number_or_null(solved.per_iteration)}});
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "krylov",
      "kelp-bench-krylov: CG, GMRES(m) and BiCGStab time per iteration and to solution",
      [&](CLI::App& app) {
        app.add_option("--problem", options.problem, "convdiff3d or laplace3d")
            ->check(CLI::IsMember({"convdiff3d", "laplace3d"}))
            ->capture_default_str();
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(1, 2000))->capture_default_str();
        app.add_option("--restart", options.restart, "GMRES restart length m")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--iterations", options.iterations, "iterations of the fixed-count solves")
            ->check(CLI::Range(1, 100000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed solves")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--tolerance", options.tolerance, "relative tolerance of the timed-to-solution solves")
            ->check(kelp::bench::finite_range(0.0, 1.0))->capture_default_str();
        app.add_option("--velocity", options.velocity, "convection velocity (wx; wy = wx/2, wz = wx/4)")
            ->check(kelp::bench::finite_range(-1e6, 1e6))->capture_default_str();
        app.add_option("--solvers", options.solvers, "comma-separated: cg, cg_single, cg_flexible, gmres, gmres_mgs, gmres_left, gmres_cgs, gmres_cgs_ifneeded, bicgstab")
            ->check(kelp::bench::comma_list_of({"cg", "cg_single", "cg_flexible", "gmres", "gmres_mgs", "gmres_left",
                                                "gmres_cgs", "gmres_cgs_ifneeded", "bicgstab"}))
            ->capture_default_str();
      },
      [&] { return run(options); });
}
