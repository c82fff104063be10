// kelp-bench-cg: time per iteration of Jacobi-preconditioned CG on a model problem, against the
// bytes an iteration must move divided by the STREAM triad bandwidth measured in the same run,
// with a breakdown into the kernels of one iteration (each timed alone, back to back).
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}      a(i) = b(i) + s*c(i) on arrays of max(256 MB CPU / 1 GB GPU, 4 x LLC)
//   {"kind":"config", ...}     problem, sizes, threads, execution space, the byte model
//   {"kind":"kernel", ...}     one per kernel of the iteration: median seconds per call, GB/s
//   {"kind":"iteration", ...}  CG with a fixed iteration count (tolerance 0): median seconds per
//                              iteration over the repeats, bytes per iteration, the floor
//                              bytes / triad, and time / floor (the target: <= 1.3)
//
// Bytes of one iteration with a diagonal preconditioner (n rows, nnz nonzeros, 8-byte scalars,
// 4-byte column indices, 8-byte row offsets; each vector read or written once per kernel):
//   q = A p                 12 nnz + 8 (n + 1) + 16 n    (values + indices, offsets, p, q)
//   p^H q                   16 n
//   x, r, z update + dots   64 n     (read x p r q D^-1, write x r z: the fused step)
//   p = z + beta p          24 n
// Unfused (a preconditioner CG cannot see into) the update is 88 n: x, r axpby (48 n), z = M r
// (24 n), r^H z and r^H r (16 n).
//
// Usage: kelp-bench-cg [--generator laplace3d|laplace3d_27pt|laplace2d] [--n 100]
//                      [--iterations 100] [--repeats 5] [--kernel-repeats 50]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using Vector = kelp::VectorView<double>;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  int iterations = 100;
  int repeats = 5;
  int kernel_repeats = 50;
};

Matrix generate(const std::string& generator, long long n) {
  if (generator == "laplace3d") return kelp::generators::laplace3d<double>(n, n, n);
  if (generator == "laplace3d_27pt") return kelp::generators::laplace3d_27pt<double>(n, n, n);
  return kelp::generators::laplace2d<double>(n, n);
}

/// Median seconds per call of `f`, run back to back `repeats` times after a warm-up.
template <class F>
double seconds_per_call(int repeats, const F& f) {
  f();
  Kokkos::fence();
  std::vector<double> samples;
  for (int r = 0; r < 5; ++r) {
    const auto start = kelp::bench::Clock::now();
    for (int c = 0; c < repeats; ++c) f();
    Kokkos::fence();
    samples.push_back(kelp::bench::seconds_since(start) / repeats);
  }
  return median(samples);
}

int run(const Options& options) {
  const double triad = kelp::bench::measure_triad("cg", 0, 10).median_gbs;

  const Matrix A = generate(options.generator, options.n);
  const double n = A.num_rows(), nnz = A.nnz();
  const double spmv_bytes = 12 * nnz + 8 * (n + 1) + 16 * n;
  const double fused_bytes = spmv_bytes + 16 * n + 64 * n + 24 * n;
  const double unfused_bytes = spmv_bytes + 16 * n + 88 * n + 24 * n;
  print_json_line(Json{{"bench", "cg"},
                       {"kind", "config"},
                       {"matrix", options.generator + "_" + std::to_string(options.n)},
                       {"num_rows", static_cast<long long>(n)},
                       {"nnz", static_cast<long long>(nnz)},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()},
                       {"bytes_per_iteration_fused", fused_bytes},
                       {"bytes_per_iteration_unfused", unfused_bytes}});

  auto Aop = std::make_shared<kelp::MatrixOperator<Matrix>>(A);
  auto M = std::make_shared<kelp::precond::Jacobi<Matrix>>();
  M->setup(A);
  Vector b("b", A.num_rows()), x("x", A.num_rows()), p("p", A.num_rows()), q("q", A.num_rows()),
      r("r", A.num_rows()), z("z", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(p, 1.0);
  Kokkos::deep_copy(r, 1.0);
  const auto inverse_diagonal = M->pointwise_diagonal();

  const auto kernel = [&](const std::string& name, double bytes, auto f) {
    const double s = seconds_per_call(options.kernel_repeats, f);
    print_json_line(Json{{"bench", "cg"}, {"kind", "kernel"}, {"kernel", name},
                         {"median_s", number_or_null(s)}, {"bytes", bytes},
                         {"gbytes_per_s", number_or_null(bytes / s / 1e9)},
                         {"fraction_of_triad", number_or_null(bytes / s / 1e9 / triad)}});
  };
  kernel("spmv q = A p", spmv_bytes, [&] { Aop->apply(p, q); });
  kernel("dot p^H q (result on the host)", 16 * n, [&] { (void)kelp::kernels::dot(p, q); });
  const kelp::ConstVectorView<double> p_in = p, q_in = q;
  kernel("fused x, r, z update + 2 dots", 64 * n, [&] {
    (void)kelp::solvers::impl::fused_cg_update(1e-30, p_in, q_in, inverse_diagonal, x, r, z);
  });
  kernel("axpby p = z + beta p", 24 * n, [&] { kelp::kernels::axpby(1.0, z, 1e-30, p); });
  kernel("jacobi z = D^-1 r (unfused)", 24 * n, [&] { M->apply(r, z); });
  kernel("dots r^H z, r^H r (unfused)", 16 * n, [&] { (void)kelp::kernels::dots(r, z, r, r); });

  kelp::solvers::CgParams params;
  params.max_iterations = options.iterations;
  params.relative_tolerance = 0;  // a fixed number of iterations
  kelp::solvers::Cg<double> cg(Aop, M, params);
  std::vector<double> per_iteration;
  int iterations = 0;
  for (int rep = 0; rep < options.repeats + 1; ++rep) {
    Kokkos::deep_copy(x, 0.0);
    Kokkos::fence();
    const auto start = kelp::bench::Clock::now();
    const auto result = cg.solve(b, x, kelp::InitialGuess::zero);
    Kokkos::fence();
    iterations = result.iterations;
    if (rep > 0 && result.iterations > 0) {  // the first solve warms up
      per_iteration.push_back(kelp::bench::seconds_since(start) / result.iterations);
    }
  }
  const double t = median(per_iteration);
  const double floor = fused_bytes / (triad * 1e9);
  print_json_line(Json{{"bench", "cg"},
                       {"kind", "iteration"},
                       {"iterations", iterations},
                       {"median_s_per_iteration", number_or_null(t)},
                       {"bytes_per_iteration", fused_bytes},
                       {"floor_s", number_or_null(floor)},
                       {"time_over_floor", number_or_null(t / floor)},
                       {"note", "solve time includes the initial and final true residuals"}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "cg",
      "kelp-bench-cg: Jacobi-CG time per iteration against bytes / triad",
      [&](CLI::App& app) {
        app.add_option("--generator", options.generator, "laplace3d, laplace3d_27pt or laplace2d")
            ->check(CLI::IsMember({"laplace3d", "laplace3d_27pt", "laplace2d"}))
            ->capture_default_str();
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(1, 2000))->capture_default_str();
        app.add_option("--iterations", options.iterations, "CG iterations per solve")
            ->check(CLI::Range(1, 100000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed solves")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--kernel-repeats", options.kernel_repeats, "calls per kernel sample")
            ->check(CLI::Range(1, 100000))->capture_default_str();
      },
      [&] { return run(options); });
}
