// kelp-bench-lobpcg: LOBPCG for the k smallest eigenpairs of the 7-point 3D Laplacian, without
// a preconditioner, with Jacobi or with a Chebyshev polynomial: iterations, time to solution, time per iteration and the
// share of each part of the iteration (SpMMV, Gram reductions, combinations, dense step).
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}   STREAM triad of the same run (context for the bandwidth numbers)
//   {"kind":"config", ...}  problem, block size, threads, execution space
//   {"kind":"solve", ...}   one per timed solve setting: median seconds over the repeats of the
//                           solve, per iteration, and per part (apply_a, preconditioner, gram,
//                           combine, rayleigh_ritz), the eigenvalues and the largest relative
//                           error against the analytic eigenvalues of the Laplacian
//
// Usage: kelp-bench-lobpcg [--n 64] [--k 5] [--guard 0] [--preconditioner none|jacobi|chebyshev]
//                          [--degree 8] [--ratio 1000] [--tolerance 1e-6] [--absolute]
//                          [--max-iterations 1000] [--repeats 3] [--seed 1]
// --absolute uses ||r|| <= tolerance (scipy's criterion) instead of ||r|| <= tolerance |lambda|.
// chebyshev: the degree-d Chebyshev polynomial of D^{-1} A on [lambda_max / ratio, lambda_max],
// lambda_max its Gershgorin bound: the setting of the scipy peer (the peer harness's lobpcg_bench.py
// "cheb8": degree 8 on [lmax / 1000, lmax] of A, the same polynomial on a constant diagonal).

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/chebyshev/chebyshev.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/lobpcg/lobpcg.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;

struct Options {
  int n = 64;
  int k = 5;
  int guard = 0;
  std::string preconditioner = "none";
  int degree = 8;
  double ratio = 1000.0;
  double tolerance = 1e-6;
  bool absolute = false;
  int max_iterations = 1000;
  int repeats = 3;
  int seed = 1;
};

/// The k smallest eigenvalues of the n^3 7-point Laplacian (sums of three 1D eigenvalues).
std::vector<double> analytic_eigenvalues(int n, int k) {
  const double pi = std::acos(-1.0);
  std::vector<double> mu, all;
  for (int j = 1; j <= std::min(n, k + 2); ++j) mu.push_back(2 - 2 * std::cos(j * pi / (n + 1)));
  for (double a : mu)
    for (double b : mu)
      for (double c : mu) all.push_back(a + b + c);
  std::sort(all.begin(), all.end());
  all.resize(static_cast<std::size_t>(k));
  return all;
}

/// Gershgorin bound on the eigenvalues of D^{-1} A: max_i sum_j |a_ij| / |a_ii| (host pass).
double gershgorin_of_jacobi_scaled(const Matrix& A) {
  const auto h = kelp::to_host(A);
  double bound = 0;
  for (int i = 0; i < h.num_rows(); ++i) {
    double sum = 0, diagonal = 0;
    for (auto k = h.row_map()(i); k < h.row_map()(i + 1); ++k) {
      sum += std::abs(h.values()(k));
      if (h.entries()(k) == i) diagonal = std::abs(h.values()(k));
    }
    bound = std::max(bound, sum / diagonal);
  }
  return bound;
}

std::shared_ptr<const kelp::Operator<double>> make_preconditioner(const Options& options,
                                                                  const Matrix& A) {
  if (options.preconditioner == "jacobi") {
    auto jacobi = std::make_shared<kelp::precond::Jacobi<Matrix>>();
    jacobi->setup(A);
    return jacobi;
  }
  if (options.preconditioner == "chebyshev") {
    kelp::precond::ChebyshevParams p;
    p.degree = options.degree;
    p.eigenvalue_ratio = options.ratio;
    p.lambda_max = gershgorin_of_jacobi_scaled(A);
    auto chebyshev = std::make_shared<kelp::precond::Chebyshev<Matrix>>(p);
    chebyshev->setup(A);
    return chebyshev;
  }
  return nullptr;
}

int run(const Options& options) {
  const double triad = kelp::bench::measure_triad("lobpcg", 0, 10).median_gbs;
  const Matrix A = kelp::generators::laplace3d<double>(options.n, options.n, options.n);
  print_json_line(Json{{"bench", "lobpcg"},
                       {"kind", "config"},
                       {"matrix", "laplace3d_" + std::to_string(options.n)},
                       {"num_rows", A.num_rows()},
                       {"nnz", static_cast<long long>(A.nnz())},
                       {"num_eigenpairs", options.k},
                       {"guard_vectors", options.guard},
                       {"preconditioner", options.preconditioner},
                       {"chebyshev_degree", options.degree},
                       {"chebyshev_ratio", options.ratio},
                       {"tolerance", options.tolerance},
                       {"seed", options.seed},
                       {"criterion", options.absolute ? "absolute" : "relative"},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()},
                       {"triad_gbytes_per_s", triad}});

  auto Aop = std::make_shared<kelp::MatrixOperator<Matrix>>(A);
  const auto setup_start = kelp::bench::Clock::now();
  const std::shared_ptr<const kelp::Operator<double>> M = make_preconditioner(options, A);
  const double setup_s = kelp::bench::seconds_since(setup_start);
  kelp::solvers::LobpcgParams params;
  params.num_eigenpairs = options.k;
  params.guard_vectors = options.guard;
  params.max_iterations = options.max_iterations;
  params.seed = options.seed;
  params.relative_tolerance = options.absolute ? 0.0 : options.tolerance;
  params.absolute_tolerance = options.absolute ? options.tolerance : 0.0;
  kelp::solvers::Lobpcg<double> lobpcg(Aop, M, nullptr, params);
  kelp::MultiVectorView<double> X("X", A.num_rows(), options.k);

  std::vector<double> total, per_iteration, apply_a, precond, gram, combine, rr;
  kelp::solvers::LobpcgResult result;
  for (int rep = 0; rep < options.repeats; ++rep) {
    Kokkos::fence();
    const auto start = kelp::bench::Clock::now();
    result = lobpcg.solve(X);
    Kokkos::fence();
    const double s = kelp::bench::seconds_since(start);
    const double it = std::max(1, result.iterations);
    total.push_back(s);
    per_iteration.push_back(s / it);
    apply_a.push_back(result.timings.apply_a / it);
    precond.push_back(result.timings.preconditioner / it);
    gram.push_back(result.timings.gram / it);
    combine.push_back(result.timings.combine / it);
    rr.push_back(result.timings.rayleigh_ritz / it);
  }
  const auto exact = analytic_eigenvalues(options.n, options.k);
  double worst = 0;
  for (int j = 0; j < options.k && j < static_cast<int>(result.eigenvalues.size()); ++j) {
    worst = std::max(worst, std::abs(result.eigenvalues[j] - exact[j]) / exact[j]);
  }
  print_json_line(Json{{"bench", "lobpcg"},
                       {"kind", "solve"},
                       {"preconditioner", options.preconditioner},
                       {"reason", kelp::solvers::to_string(result.reason)},
                       {"iterations", result.iterations},
                       {"restarts", result.restarts},
                       {"setup_s", setup_s},
                       {"median_s", number_or_null(median(total))},
                       {"median_s_per_iteration", number_or_null(median(per_iteration))},
                       {"s_per_iteration_apply_a", number_or_null(median(apply_a))},
                       {"s_per_iteration_preconditioner", number_or_null(median(precond))},
                       {"s_per_iteration_gram", number_or_null(median(gram))},
                       {"s_per_iteration_combine", number_or_null(median(combine))},
                       {"s_per_iteration_rayleigh_ritz", number_or_null(median(rr))},
                       {"eigenvalues", result.eigenvalues},
                       {"residual_norms", result.residual_norms},
                       {"max_relative_eigenvalue_error", number_or_null(worst)}});
  return result.converged() ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "lobpcg",
      "kelp-bench-lobpcg: LOBPCG on the 3D Laplacian, time per iteration and per part",
      [&](CLI::App& app) {
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(3, 2000))->capture_default_str();
        app.add_option("--k", options.k, "eigenpairs")->check(CLI::Range(1, 64))->capture_default_str();
        app.add_option("--guard", options.guard, "guard vectors")->check(CLI::Range(0, 64))->capture_default_str();
        app.add_option("--preconditioner", options.preconditioner, "none, jacobi or chebyshev")
            ->check(CLI::IsMember({"none", "jacobi", "chebyshev"}))->capture_default_str();
        app.add_option("--degree", options.degree, "Chebyshev degree")->check(CLI::Range(1, 100))->capture_default_str();
        app.add_option("--ratio", options.ratio, "Chebyshev interval ratio lambda_max / lambda_min")
            ->check(CLI::Range(1.000001, 1e12))->capture_default_str();
        app.add_option("--tolerance", options.tolerance, "residual tolerance")->capture_default_str();
        app.add_flag("--absolute", options.absolute, "absolute residual criterion (scipy's)");
        app.add_option("--max-iterations", options.max_iterations, "iteration limit")
            ->check(CLI::Range(1, 1000000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed solves")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--seed", options.seed, "seed of the random start block")->capture_default_str();
      },
      [&] { return run(options); });
}
