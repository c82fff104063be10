// kelp-bench-batched: batched LU factor + solve of many small systems (the Kokkos Kernels
// lecture's case: 16,384 systems of 5 x 5), in the three modes (serial, team, team_vector), the
// factorization and the solve as two kernels ("unfused") and as one ("fused"), against the STREAM
// triad of the same run and, as a peer, Eigen's PartialPivLU looping over the batch on one CPU
// thread.
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}    the triad of apps/bench/triad.hpp
//   {"kind":"config", ...}   execution space, threads, CPU
//   {"kind":"lu", ...}       one per (batch, n, implementation): median seconds over the repeats,
//                            GFLOP/s, GB/s and the fraction of the triad
// Model per system of size n (double): flops 2/3 n^3 + 2 n^2 (factor, then two triangular
// solves); bytes 16 n^2 + 16 n + 4 n fused or with Eigen (A read and written, b read and
// written, pivots written), and 8 n^2 + 4 n + 16 n more unfused (the solve reads A, the pivots
// and b again).
//
// Usage: kelp-bench-batched [--batches 16384,131072] [--sizes 3,5,8,16,32] [--repeats 10]
//                           [--triad-mb 0] [--no-eigen]

#include <CLI/CLI.hpp>
#include <Eigen/Dense>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <random>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/batched/batched_lu.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
namespace batched = kelp::kernels::batched;

struct Options {
  std::vector<int> batches = {16384, 131072};
  std::vector<int> sizes = {3, 5, 8, 16, 32};
  int repeats = 10;
  double triad_mb = 0;  // <= 0: the automatic size of apps/bench/triad.hpp
  bool eigen = true;
};

struct Problem {
  batched::BatchMatrices<double> A0, A;
  batched::BatchVectors<double> b0, b;
  batched::BatchPivots<> piv;
  batched::BatchStatus<> status;
};

/// A(q, i, i) += shift for every system q (a functor: no extended lambda in this file).
struct ShiftDiagonal {
  batched::BatchMatrices<double> A;
  double shift;
  KOKKOS_INLINE_FUNCTION void operator()(const int q) const {
    for (int i = 0; i < int(A.extent(1)); ++i) A(q, i, i) += shift;
  }
};

/// Random systems with a dominant diagonal (nonsingular, and pivoting still swaps rows).
Problem make_problem(int batch, int n) {
  Problem p{batched::BatchMatrices<double>("A0", batch, n, n), batched::BatchMatrices<double>("A", batch, n, n),
            batched::BatchVectors<double>("b0", batch, n), batched::BatchVectors<double>("b", batch, n),
            batched::BatchPivots<>("piv", batch, n), batched::BatchStatus<>("status", batch)};
  Kokkos::Random_XorShift64_Pool<Exec> pool(12345);
  Kokkos::fill_random(p.A0, pool, -1.0, 1.0);
  Kokkos::fill_random(p.b0, pool, -1.0, 1.0);
  Kokkos::parallel_for("kelp-bench-batched::diagonal", Kokkos::RangePolicy<Exec>(0, batch),
                       ShiftDiagonal{p.A0, 0.5 * n});
  Kokkos::fence();
  return p;
}

/// Median seconds of `run` over `repeats` timed calls, each after `reset` (untimed) and one
/// untimed warm-up.
template <class Reset, class Run>
double median_seconds(int repeats, const Reset& reset, const Run& run) {
  std::vector<double> samples;
  for (int r = 0; r <= repeats; ++r) {
    reset();
    Kokkos::fence();
    const auto start = kelp::bench::Clock::now();
    run();
    Kokkos::fence();
    if (r > 0) samples.push_back(kelp::bench::seconds_since(start));
  }
  return median(samples);
}

void print_lu(int batch, int n, const std::string& implementation, const std::string& mode, bool fused,
              double seconds, double triad, int threads) {
  const double flops = batch * (2.0 / 3.0 * n * n * n + 2.0 * n * n);
  const double bytes = batch * (16.0 * n * n + 20.0 * n + (fused ? 0.0 : 8.0 * n * n + 20.0 * n));
  print_json_line(Json{{"bench", "batched"},
                       {"kind", "lu"},
                       {"implementation", implementation},
                       {"mode", mode},
                       {"fused", fused},
                       {"batch", batch},
                       {"n", n},
                       {"threads", threads},
                       {"median_s", number_or_null(seconds)},
                       {"gflops", number_or_null(flops / seconds / 1e9)},
                       {"gbytes_per_s", number_or_null(bytes / seconds / 1e9)},
                       {"fraction_of_triad", number_or_null(bytes / seconds / 1e9 / triad)}});
}

/// Eigen's PartialPivLU over the batch on one thread, on host copies.
double eigen_seconds(const Problem& p, int repeats) {
  const auto A0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.A0);
  const auto b0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.b0);
  const int batch = int(A0.extent(0)), n = int(A0.extent(1));
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<double> x(std::size_t(batch) * n);
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(n);
  double check = 0;
  const double s = median_seconds(repeats, [] {}, [&] {
    for (int q = 0; q < batch; ++q) {
      lu.compute(Eigen::Map<const RowMajor>(&A0(q, 0, 0), n, n));
      Eigen::Map<Eigen::VectorXd>(&x[std::size_t(q) * n], n) =
          lu.solve(Eigen::Map<const Eigen::VectorXd>(&b0(q, 0), n));
    }
  });
  check += x[0];
  if (check != check) std::cerr << "kelp-bench-batched: Eigen produced NaN\n";
  return s;
}

int run(const Options& options) {
  const double triad = kelp::bench::measure_triad("batched", options.triad_mb, 10).median_gbs;
  const int threads = Exec().concurrency();
  print_json_line(Json{{"bench", "batched"},
                       {"kind", "config"},
                       {"execution_space", Exec::name()},
                       {"threads", threads},
                       {"cpu", kelp::bench::cpu_model()},
                       {"repeats", options.repeats},
                       {"scalar", "double"}});
  for (const int batch : options.batches) {
    for (const int n : options.sizes) {
      Problem p = make_problem(batch, n);
      const auto reset = [&] {
        Kokkos::deep_copy(p.A, p.A0);
        Kokkos::deep_copy(p.b, p.b0);
      };
      for (const auto mode : {batched::Mode::serial, batched::Mode::team, batched::Mode::team_vector}) {
        const double unfused = median_seconds(options.repeats, reset, [&] {
          batched::lu_factor(mode, p.A, p.piv, p.status);
          batched::lu_solve(mode, p.A, p.piv, p.b);
        });
        print_lu(batch, n, "kelp", batched::to_string(mode), false, unfused, triad, threads);
        const double fused = median_seconds(options.repeats, reset, [&] {
          batched::lu_factor_solve(mode, p.A, p.piv, p.b, p.status);
        });
        KELP_REQUIRE(batched::failed_problems(p.status).empty(), NumericalError,
                     "kelp-bench-batched: a generated system was singular");
        print_lu(batch, n, "kelp", batched::to_string(mode), true, fused, triad, threads);
      }
      if (options.eigen) print_lu(batch, n, "eigen_loop", "host_1_thread", true, eigen_seconds(p, options.repeats), triad, 1);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool no_eigen = false;
  return kelp::bench::bench_main(
      argc, argv, "batched",
      "kelp-bench-batched: batched small LU factor + solve against the triad and Eigen",
      [&](CLI::App& app) {
        app.add_option("--batches", options.batches, "numbers of systems, comma separated")
            ->delimiter(',')->check(CLI::Range(1, 1 << 24))->capture_default_str();
        app.add_option("--sizes", options.sizes, "system sizes, comma separated")
            ->delimiter(',')->check(CLI::Range(1, 256))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed runs per measurement")
            ->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--triad-mb", options.triad_mb, "triad array size in MB (0: automatic)")
            ->check(kelp::bench::finite_range(0.0, 1e6))->capture_default_str();
        app.add_flag("--no-eigen", no_eigen, "skip the Eigen loop peer");
      },
      [&] {
        options.eigen = !no_eigen;
        return run(options);
      });
}
