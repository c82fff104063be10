// kelp-bench-kpm: KPM moments per vector and product on the KPM paper's topological-insulator
// Hamiltonian (complex Hermitian, ~13 nonzeros per row): naive (SpMV + BLAS-1), augmented (one
// fused kernel per vector) and blocked augmented SpMMV with R = 1, 2, 4, ..., 64 vectors per
// block, against the STREAM triad and the paper's minimum code balance.
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}        STREAM triad, best and median GB/s (apps/bench/triad.hpp)
//   {"kind":"flop_peak", ...}    measured double flop peak, best and median GFLOP/s, instruction
//                                set (apps/bench/flop_peak.hpp)
//   {"kind":"config", ...}       sizes, moments, threads, execution space, CPU model
//   {"kind":"measurement", ...}  one per (implementation, R): median seconds per vector per
//                                product (one product gives two moments; per moment is half),
//                                GB/s, Gflop/s, b_min_paper, code balance of the model, roofline
//   {"kind":"error", ...}        moments that differ from the naive ones (not timed)
//   {"kind":"peer", ...}         CUDA builds: cuSPARSE SpMM Y = H X on the same row-major N x R
//                                block, per R of the blocked runs and per CSR SpMM algorithm
//                                (default, csr_alg1-3; apps/bench/cusparse_peer.hpp).
//                                A plain product, not a KPM step: no recurrence, no dots, X read
//                                and Y written, no W read. Its traffic model is
//                                [N_nz (S_d + S_i) + 4 N] / R + 2 N S_d per vector (32-bit row
//                                offsets); fraction_of_roofline = that traffic at the triad's rate
//                                over its time; kelp_step_over_peer_time = Kelp's whole blocked
//                                KPM step over this product alone.
//
// Traffic model per vector and product (S_d = 16, S_i = 4, N rows, N_nz nonzeros; the row
// offsets, 8 bytes per row, are counted once per block):
//   naive:     N_nz (S_d + S_i) + 8 N + 13 N S_d          (paper Table I)
//   augmented: N_nz (S_d + S_i) + 8 N + 3 N S_d
//   blocked R: [N_nz (S_d + S_i) + 8 N] / R + 3 N S_d     (paper Eq. 4)
// Flops per vector and product: N_nz (F_a + F_m) + N (ceil(7 F_a / 2) + ceil(9 F_m / 2)) with
// F_a = 2, F_m = 6 (complex). b_min_paper = (260 / R + 48) / 138 bytes/flop (paper Eq. 5, N_nzr =
// 13, no row offsets); roofline_gflops = triad GB/s / b_min_paper (the memory roof);
// roof_gflops = min(roofline_gflops, measured flop peak, best run) and fraction_of_roof = Gflop/s /
// roof_gflops: issue 12's "80 % of min(roofline from B_min(R) and the triad, flop peak)".
// Blocked lines name their kernel ("row": a thread per row, R in a loop; "team": the R vectors
// across vector lanes, solvers/kpm/impl/kpm_team_kernel.hpp); --blocked-kernel picks them
// (auto: team on GPUs, row on CPUs; both: each R with both kernels).
//
// Timing: per (implementation, R) one warm-up and `repeats` timed runs of kpm_moments over R
// vectors with `moments` moments; reported is the median time / (R * ceil(moments / 2)).
// Naive and augmented run R = 1 (they treat vectors one after another).
//
// Usage: kelp-bench-kpm [--n 100] [--nz 25] [--moments 64] [--repeats 5] [--min-block 1] [--max-block 64]
//        [--triad-mb auto] [--triad-repeats 10] [--flop-repeats 5]
//        [--blocked-kernel auto|row|team|both] [--row-order natural|locality] [--part-rows 0] [--shuffle]
//   --n 100 --nz 25 gives 4 * 100 * 100 * 25 = 10^6 rows (the paper's size class; GPU / quiet
//   runs); --n 24 --nz 8 (18432 rows) is a quick check on a shared machine.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/flop_peak.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/kernels/sparse/symmetric_permute.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#ifdef KELP_HAVE_CUSPARSE
#include "kelp/apps/bench/cusparse_peer.hpp"
#endif

namespace {

using kelp::bench::Json;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Complex = Kokkos::complex<double>;
using Block = kelp::MultiVectorView<Complex, Kokkos::LayoutRight>;
namespace kpm = kelp::solvers;

struct Options {
  long long n = 100;
  long long nz = 25;
  int moments = 64;
  int repeats = 5;
  int min_block = 1;  ///< smallest R of the blocked runs (profiling one R)
  int max_block = 64;
  double triad_mb = 0;
  int triad_repeats = 10;
  int flop_repeats = 5;
  std::string blocked_kernel = "auto";
  std::string row_order = "natural";  ///< natural | locality (KpmRowOrder)
  long long part_rows = 0;            ///< rows per part of the locality order (0: automatic)
  bool shuffle = false;               ///< renumber H at random first (a badly ordered input)
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#ifdef KELP_HAVE_CUSPARSE
/// cuSPARSE SpMM Y = H X with `algorithm` on the N x R row-major block X, `products` products per
/// timed run (the products of one KPM run), `repeats` runs after a warm-up; prints the "peer"
/// line (with the error if cuSPARSE refuses the algorithm for this layout).
void measure_cusparse_peer(const kelp::CrsMatrix<Complex>& H, const Block& X, int products, int repeats,
                           double triad_gbs, double kelp_seconds, cusparseSpMMAlg_t algorithm, const char* name) {
  const int R = static_cast<int>(X.extent(1));
  const Block Y("kpm_bench::cusparse_y", X.extent(0), X.extent(1));
  using Peer = kelp::bench::CusparsePeer<kelp::CrsMatrix<Complex>, Block, Block>;
  std::unique_ptr<Peer> peer;
  try {
    peer = std::make_unique<Peer>(H, X, Y, Complex(1), Complex(0), algorithm);
    peer->apply();
  } catch (const std::exception& e) {
    print_json_line(Json{{"bench", "kpm"}, {"kind", "peer"}, {"peer", "cusparse_spmm_csr_row_major"},
                         {"algorithm", name}, {"R", R}, {"error", e.what()}});
    return;
  }
  std::vector<double> samples;
  for (int rep = 0; rep <= repeats; ++rep) {
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < products; ++k) peer->apply();
    Kokkos::fence();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) samples.push_back(t / (static_cast<double>(R) * products));  // run 0 warms up
  }
  const double s = median_of(samples);
  const double N = H.num_rows(), nnz = static_cast<double>(H.nnz());
  const double bytes = (nnz * (16 + 4) + 4 * N) / R + 2 * 16 * N;
  print_json_line(Json{{"bench", "kpm"}, {"kind", "peer"}, {"peer", "cusparse_spmm_csr_row_major"},
                       {"algorithm", name}, {"R", R}, {"seconds_per_vector_product", number_or_null(s)},
                       {"gbs", number_or_null(bytes / s / 1e9)},
                       {"fraction_of_roofline", number_or_null(bytes / s / 1e9 / triad_gbs)},
                       {"kelp_step_over_peer_time", number_or_null(kelp_seconds / s)}});
}
#endif

int run(const Options& o) {
  const auto triad = kelp::bench::measure_triad("kpm", o.triad_mb, o.triad_repeats);
  const auto flop_peak = kelp::bench::measure_flop_peak("kpm", o.flop_repeats);
  kelp::generators::TopologicalInsulatorParams p;
  p.nx = p.ny = o.n;
  p.nz = o.nz;
  p.disorder = 1.0;
  auto H = kelp::generators::topological_insulator<Complex>(p);
  if (o.shuffle) {  // a fixed random symmetric renumbering: neighbours scattered over all rows
    std::vector<std::int64_t> order(static_cast<std::size_t>(H.num_rows()));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(20261127));
    H = kelp::kernels::symmetric_permute(H, order);
  }
  const int max_r = std::max(1, o.max_block);
  Kokkos::View<const long long*, typename kelp::CrsMatrix<Complex>::memory_space> row_of;
  double order_seconds = 0;
  if (o.row_order == "locality") {
    const auto t0 = std::chrono::steady_clock::now();
    const auto ordered = kpm::kpm_locality_ordered(H, max_r, o.part_rows);
    order_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    H = ordered.H;
    row_of = ordered.old_of_new;
  }
  const double N = H.num_rows(), nnz = static_cast<double>(H.nnz());
  const auto scaling = kpm::KpmScaling::from_bounds(kpm::gershgorin_bounds(H), 0.01);
  const double flops = kpm::kpm_flops_per_product(H.num_rows(), H.nnz(), true);
  const double matrix_bytes = nnz * (16 + 4) + 8 * N;
  print_json_line(Json{{"bench", "kpm"}, {"kind", "config"}, {"matrix", "topological_insulator"},
                       {"nx", o.n}, {"ny", o.n}, {"nz", o.nz}, {"num_rows", H.num_rows()},
                       {"nnz", H.nnz()}, {"nnz_per_row", nnz / N}, {"moments", o.moments},
                       {"repeats", o.repeats}, {"threads", Kokkos::DefaultExecutionSpace::concurrency()},
                       {"execution_space", Kokkos::DefaultExecutionSpace::name()},
                       {"cpu", kelp::bench::cpu_model()}, {"flops_per_vector_product", flops},
                       {"shuffled", o.shuffle}, {"row_order", o.row_order},
                       {"locality_part_rows", o.row_order != "locality" ? 0
                                              : o.part_rows > 0 ? o.part_rows
                                                                : kpm::kpm_locality_part_rows<Complex>(max_r)},
                       {"order_seconds", order_seconds}});

  Block start("kpm_bench::start", H.num_rows(), max_r);
  kpm::kpm_start_vectors(start, kpm::KpmTrace::stochastic, kpm::KpmRandomVector::random_phase, 1, 0, row_of);
  const int products = (o.moments + 1) / 2;

  struct Variant {
    kpm::KpmImplementation implementation;
    int R;
    kpm::KpmBlockedKernel kernel = kpm::KpmBlockedKernel::automatic;
  };
  std::vector<Variant> variants = {{kpm::KpmImplementation::naive, 1},
                                   {kpm::KpmImplementation::augmented, 1}};
  constexpr bool gpu = !std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value;
  std::vector<kpm::KpmBlockedKernel> kernels;
  if (o.blocked_kernel == "row" || o.blocked_kernel == "both") kernels.push_back(kpm::KpmBlockedKernel::row);
  if (o.blocked_kernel == "team" || o.blocked_kernel == "both") kernels.push_back(kpm::KpmBlockedKernel::team);
  if (o.blocked_kernel == "auto") kernels.push_back(gpu ? kpm::KpmBlockedKernel::team : kpm::KpmBlockedKernel::row);
  for (int R = 1; R <= max_r; R *= 2) {
    if (R < o.min_block) continue;
    for (const auto kernel : kernels) variants.push_back({kpm::KpmImplementation::blocked, R, kernel});
  }

  // The naive moments of the first vector: every variant must reproduce them.
  const auto reference = kpm::kpm_moments(H, scaling, Kokkos::subview(start, Kokkos::ALL, std::make_pair(0, 1)),
                                          o.moments, kpm::KpmImplementation::naive, 1, 1e-6);
  int status = 0;
  double naive_seconds = 0;
  for (const auto& v : variants) {
    const Block block(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kpm_bench::block"), H.num_rows(), v.R);
    Kokkos::deep_copy(block, Kokkos::subview(start, Kokkos::ALL, std::make_pair(0, v.R)));
    const auto check = kpm::kpm_moments(H, scaling, block, o.moments, v.implementation, v.R, 1e-6, v.kernel);
    double worst = 0;
    for (int m = 0; m < o.moments; ++m) {
      worst = std::max(worst, std::abs(check.at(0, m) - reference.at(0, m)) / N);
    }
    if (!(worst <= 1e-9)) {
      print_json_line(Json{{"bench", "kpm"}, {"kind", "error"}, {"implementation", kpm::to_string(v.implementation)},
                           {"R", v.R}, {"kernel", kpm::to_string(v.kernel)},
                           {"max_relative_moment_difference", number_or_null(worst)}});
      status = 1;
      continue;
    }
    std::vector<double> samples;
    for (int rep = 0; rep < o.repeats; ++rep) {
      Kokkos::fence();
      const auto t0 = std::chrono::steady_clock::now();
      kpm::kpm_moments(H, scaling, block, o.moments, v.implementation, v.R, 1e-6, v.kernel);
      Kokkos::fence();
      samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                        (static_cast<double>(v.R) * products));
    }
    const double s = median_of(samples);
    if (v.implementation == kpm::KpmImplementation::naive) naive_seconds = s;
    const double vector_bytes = v.implementation == kpm::KpmImplementation::naive ? 13 * 16 * N : 3 * 16 * N;
    const double bytes = matrix_bytes / v.R + vector_bytes;
    const double b_min_paper = (260.0 / v.R + 48.0) / 138.0;
    const double roofline_gflops = triad.median_gbs / b_min_paper;
    // The flop roof is the best run (a peak: what the machine can do); the memory roof the
    // triad's median, as in every kelp-bench-*.
    const double roof_gflops = std::min(roofline_gflops, flop_peak.best_gflops);
    const bool blocked = v.implementation == kpm::KpmImplementation::blocked;
    print_json_line(Json{{"bench", "kpm"}, {"kind", "measurement"},
                         {"implementation", kpm::to_string(v.implementation)}, {"R", v.R},
                         {"kernel", blocked ? Json(kpm::to_string(v.kernel)) : Json(nullptr)},
                         {"seconds_per_vector_product", number_or_null(s)},
                         {"seconds_per_vector_moment", number_or_null(s / 2)},
                         {"gbs", number_or_null(bytes / s / 1e9)},
                         {"gflops", number_or_null(flops / s / 1e9)},
                         {"code_balance_model", bytes / flops},
                         {"b_min_paper", b_min_paper},
                         {"roofline_gflops", number_or_null(roofline_gflops)},
                         {"fraction_of_roofline", number_or_null(flops / s / 1e9 / roofline_gflops)},
                         {"flop_peak_gflops", number_or_null(flop_peak.best_gflops)},
                         {"roof_gflops", number_or_null(roof_gflops)},
                         {"fraction_of_roof", number_or_null(flops / s / 1e9 / roof_gflops)},
                         {"speedup_over_naive", number_or_null(naive_seconds / s)},
                         {"max_relative_moment_difference", worst}});
#ifdef KELP_HAVE_CUSPARSE
    if (blocked && v.kernel == kernels.back()) {
      const std::pair<cusparseSpMMAlg_t, const char*> algorithms[] = {
          {CUSPARSE_SPMM_ALG_DEFAULT, "default"}, {CUSPARSE_SPMM_CSR_ALG1, "csr_alg1"},
          {CUSPARSE_SPMM_CSR_ALG2, "csr_alg2"}, {CUSPARSE_SPMM_CSR_ALG3, "csr_alg3"}};
      for (const auto& a : algorithms) {
        measure_cusparse_peer(H, block, products, o.repeats, triad.median_gbs, s, a.first, a.second);
      }
    }
#endif
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "kpm",
      "kelp-bench-kpm: KPM moments (naive, augmented, blocked R = 1..64) on the TI Hamiltonian",
      [&](CLI::App& app) {
        app.add_option("--n", options.n, "sites in x and y")->check(CLI::Range(3, 100000))->capture_default_str();
        app.add_option("--nz", options.nz, "sites in z")->check(CLI::Range(1, 100000))->capture_default_str();
        app.add_option("--moments", options.moments, "Chebyshev moments")->check(CLI::Range(2, 1000000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed runs per variant")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--min-block", options.min_block, "smallest R of the blocked runs")->check(CLI::Range(1, 1024))->capture_default_str();
        app.add_option("--max-block", options.max_block, "largest R of the blocked runs")->check(CLI::Range(1, 1024))->capture_default_str();
        app.callback([&] {  // else no blocked run at all, and exit 0
          if (options.min_block > options.max_block) {
            throw CLI::ValidationError("--min-block", std::to_string(options.min_block) + " is above --max-block " +
                                                         std::to_string(options.max_block));
          }
        });
        app.add_option("--triad-mb", options.triad_mb, "MB per triad array (0: auto)")->check(kelp::bench::finite_range(0.0, 1e6))->capture_default_str();
        app.add_option("--triad-repeats", options.triad_repeats, "triad runs")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--flop-repeats", options.flop_repeats, "flop peak runs")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--row-order", options.row_order, "row order of H (locality: kpm_locality_ordered for the largest R)")
            ->check(CLI::IsMember({"natural", "locality"}))->capture_default_str();
        app.add_option("--part-rows", options.part_rows, "rows per part of the locality order (0: automatic)")
            ->check(CLI::Range(0LL, 1LL << 40))->capture_default_str();
        app.add_flag("--shuffle", options.shuffle, "renumber H at random first (a badly ordered input)");
        app.add_option("--blocked-kernel", options.blocked_kernel, "kernel of the blocked runs (auto: team on GPUs, row on CPUs)")
            ->check(CLI::IsMember({"auto", "row", "team", "both"}))->capture_default_str();
      },
      [&] { return run(options); });
}
