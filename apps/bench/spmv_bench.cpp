// kelp-bench-spmv: SpMV / SpMMV throughput against the machine's STREAM triad bandwidth and, when
// built with KELP_ENABLE_PEERS (KELP_HAVE_KOKKOSKERNELS), against KokkosSparse::spmv on the same
// matrix and the same input vectors; in CUDA builds against cuSPARSE (KELP_HAVE_CUSPARSE:
// cusparseSpMV / cusparseSpMM, CSR, default algorithms; apps/bench/cusparse_peer.hpp) instead.
//
// Per run it prints JSON lines (apps/bench/bench_common.hpp: non-finite numbers are null):
//   {"kind":"triad", ...}        STREAM triad a(i) = b(i) + s*c(i), best and median GB/s
//   {"kind":"config", ...}       effective configuration, once per matrix (sizes, scalar, threads,
//                                execution space, CPU model, peer status, ...)
//   {"kind":"measurement", ...}  one per (op, k, layout, implementation, algorithm)
//   {"kind":"error", ...}        a result that failed verification (its time is not reported), or
//                                with "file": a matrix file that could not be read or benchmarked
//   {"kind":"summary", ...}      with --all-shared: median kelp/peer time ratio over the set
// Exit status: 0 all well; 1 a verification failed; 2 a matrix file could not be read or
// benchmarked (with --all-shared the others are still run); 2 also for a bad command line.
//
// Matrices: real, integer and pattern files are read as double, complex files as
// Kokkos::complex<double>; rectangular matrices are run as y = A x (x has num_cols rows).
// The Kokkos Kernels peer is run for real matrices only (Debian's Kokkos Kernels is built for
// double); for complex ones the config and measurement lines say "peer_status": "skipped: ...".
//
// Timing: each variant is warmed up, verified, then timed `repeats` times; variants of one group
// are interleaved (v1 v2 v3 v1 v2 v3 ...) so that load drift hits all of them alike. One sample
// runs `calls_per_sample` back-to-back products (enough for --min-sample-ms) and is divided by
// that count. Reported: median and minimum seconds per product.
//
// Effective bandwidth counts the minimum traffic of y = alpha*A*x + beta*y with k vectors:
//   bytes = nnz * (sizeof(Scalar) + sizeof(Ordinal))      values and column indices, read once
//         + (num_rows + 1) * sizeof(Offset)                row offsets, read once
//         + k * (num_cols + num_rows) * sizeof(Scalar)     x read once, y written once
//         + k * num_rows * sizeof(Scalar)  if beta != 0    y read
// so re-reads of x (irregular access) and re-reads of A (Kelp's SpMMV reads A once per block of
// up to 8 columns) lower the figure rather than inflate it. GFLOP/s counts 2 * nnz * k real
// multiply-adds (8 * nnz * k for complex scalars).
// kelp_over_peer = median time of KokkosSparse::spmv / median time of Kelp: > 1 means Kelp is
// faster. fraction_of_triad = effective GB/s (median) / triad GB/s (median).
//
// STREAM triad: a Kokkos parallel_for over the default execution space, the same space and
// threads as the SpMV (first touch in that space too: the views are initialized by it). Each
// array has max(256 MB, 4 x the last-level cache) by default, at least 1 GB on GPUs (STREAM's rule: each array at least
// 4 times the cache; the cache summed over all its instances, from sysfs on CPUs or the L2 of the
// CUDA device); --triad-mb overrides it, and the triad line says whether the arrays are beyond
// 4 x LLC.
//
// Verification: every variant's y is filled with NaN (beta = 0) before one product, then
// compared with a sequential host reference, and each Kelp result with the peer's:
//   |y_i - z_i| <= 1e-12 * (|alpha| * sum_k |a_ik| |x_k| + |beta| |y0_i|)   for every i, column
// (the bound of a sum evaluated in a different order). A variant that fails is not timed.
//
// Usage (defaults shown; `kelp-bench-spmv --help` prints the same with a line per option):
//   kelp-bench-spmv [--generator laplace3d|laplace3d_27pt|laplace2d|laplace2d_9pt] [--n 100]
//   kelp-bench-spmv --matrix FILE.mtx[.gz]
//   kelp-bench-spmv --all-shared [DIR]   (every .mtx/.mtx.gz of DIR, default test/data/matrices,
//                                          plus laplace3d 100^3, laplace2d 1000^2, laplace3d_27pt
//                                          50^3 unless --no-generated; overrides --matrix)
// Options: --repeats 20  --warmup 3  --min-sample-ms 20  --vectors 1,4,8,16,32 (or none)
//          --layouts left,right (or none)  --algorithms row_parallel,merge_path,adaptive,automatic
//          (also accepted: stencil, the structured-stencil SpMV, run only on matrices that carry a
//          stencil description, i.e. the generated ones; automatic picks it on those)
//          --no-spmv  --beta 0  --triad-mb auto (or MB)  --triad-repeats 20  --no-generated
// Counts below their minimum are raised to it (--repeats and --triad-repeats 1, --warmup and
// --min-sample-ms 0, --triad-mb 1). The last of a repeated option wins. Kokkos sees only the
// --kokkos-* arguments (e.g. --kokkos-threads=2). A bad command line (unknown option, missing or
// bad value) prints one error line naming the option and value, and a short usage, on stderr.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scope_guard.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/generators/rmat.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/apps/driver/run/thread_binding.hpp"
#include "kelp/apps/bench/cusparse_peer.hpp"

#ifdef KELP_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Trilinos_version.h>
#endif

namespace {

namespace fs = std::filesystem;
using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::minimum;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using kelp::bench::measure_triad;
using kelp::bench::TriadResult;
using Device = kelp::DefaultDevice;
using Exec = Device::execution_space;
using Complex = Kokkos::complex<double>;
template <class Scalar>
using Matrix = kelp::CrsMatrix<Scalar, kelp::Ordinal, kelp::Offset, Device>;
template <class Scalar>
using HostMatrix = typename Matrix<Scalar>::host_mirror_type;

constexpr double kTolerance = 1e-12;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  std::string matrix_file;
  bool all_shared = false;
  std::string shared_dir;
  bool generated = true;         // --all-shared also runs the three generated matrices
  int repeats = 20;              // timed samples per variant; the median is reported
  int warmup = 3;                // untimed products per variant before verification and timing
  double min_sample_ms = 20;     // one sample lasts at least this long (timer resolution, noise)
  std::vector<int> vectors = {1, 4, 8, 16, 32};  // SpMMV widths; empty: no SpMMV
  std::vector<std::string> layouts = {"left", "right"};
  std::vector<std::string> algorithms = {"row_parallel", "merge_path", "adaptive", "automatic"};
  std::vector<std::string> spmmv_algorithms = {"automatic"};  // Kelp algorithms of the SpMMV groups
  bool spmv = true;              // single-vector products (rank-1 views)
  double alpha = 1.0;
  double beta = 0.0;
  double triad_mb = 0;           // MB per triad array; 0: see the header (1 GB on GPUs)
  int triad_repeats = 20;
};

// ---- Scalars -----------------------------------------------------------------------------

template <class Scalar>
struct ScalarTraits;
template <>
struct ScalarTraits<double> {
  static const char* name() { return "double"; }
  static double magnitude(double value) { return std::abs(value); }
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
  static constexpr double flops_per_multiply_add = 2;
};
template <>
struct ScalarTraits<Complex> {
  static const char* name() { return "complex<double>"; }
  static double magnitude(const Complex& value) { return Kokkos::abs(value); }
  static Complex nan() {
    return Complex(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN());
  }
  static constexpr double flops_per_multiply_add = 8;  // 4 multiplies, 4 adds
};

/// Deterministic value in [-1, 1] that differs per row and column (no cancellation to zero).
double hashed_value(std::size_t i, std::size_t j) {
  const std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ULL ^ (j + 1) * 0xC2B2AE3D27D4EB4FULL;
  return static_cast<double>((h >> 11) % 2000001) / 1000000.0 - 1.0;
}

template <class Scalar>
Scalar input_value(std::size_t i, std::size_t j) {
  if constexpr (std::is_same<Scalar, Complex>::value) {
    return Complex(hashed_value(i, j), hashed_value(i + 101, j + 37));
  } else {
    return hashed_value(i, j);
  }
}
template <class Scalar>
Scalar initial_y(std::size_t i, std::size_t j) {
  return Scalar(0.5) * input_value<Scalar>(i + 7, j + 3);
}


// ---- Problems, vectors and the host reference --------------------------------------------

template <class Scalar>
struct Problem {
  std::string name;
  std::string source;  // generator description or file path
  Matrix<Scalar> A;
};

Matrix<double> generate(const std::string& generator, long long n) {
  if (generator == "laplace3d") return kelp::generators::laplace3d<double>(n, n, n);
  if (generator == "laplace3d_27pt") return kelp::generators::laplace3d_27pt<double>(n, n, n);
  if (generator == "laplace2d") return kelp::generators::laplace2d<double>(n, n);
  if (generator == "laplace2d_9pt") return kelp::generators::laplace2d_9pt<double>(n, n);
  if (generator == "rmat") {  // n = scale: 2^n vertices, 16 * 2^n edges (Graph500 parameters)
    kelp::generators::RmatParams params;
    params.scale = static_cast<int>(n);
    return kelp::generators::rmat<double>(params);
  }
  KELP_THROW(InvalidArgument,
             "kelp-bench-spmv: unknown generator '"
                 << generator << "'; allowed: [laplace3d, laplace3d_27pt, laplace2d, laplace2d_9pt, rmat]");
}

/// The reference y = alpha*A*x + beta*y0 (num_rows x k, column-major) with its error bound.
template <class Scalar>
struct Reference {
  std::vector<Scalar> y;
  std::vector<double> scale;  // |alpha| |A| |x| + |beta| |y0|: the summation-order error bound
};

template <class Scalar>
Reference<Scalar> compute_reference(const HostMatrix<Scalar>& H, int k, double alpha, double beta) {
  using Traits = ScalarTraits<Scalar>;
  const std::size_t num_rows = H.num_rows();
  Reference<Scalar> ref;
  ref.y.assign(num_rows * k, Scalar(0));
  ref.scale.assign(num_rows * k, 0.0);
  const auto& row_map = H.row_map();
  const auto& entries = H.entries();
  const auto& values = H.values();
  for (int j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < num_rows; ++i) {
      Scalar sum(0);
      double bound = 0;
      for (auto p = row_map(i); p < row_map(i + 1); ++p) {
        const Scalar term = values(p) * input_value<Scalar>(entries(p), j);
        sum += term;
        bound += Traits::magnitude(values(p)) * Traits::magnitude(input_value<Scalar>(entries(p), j));
      }
      Scalar y = Scalar(alpha) * sum;
      double s = std::abs(alpha) * bound;
      if (beta != 0) {
        y += Scalar(beta) * initial_y<Scalar>(i, j);
        s += std::abs(beta) * Traits::magnitude(initial_y<Scalar>(i, j));
      }
      ref.y[i + j * num_rows] = y;
      ref.scale[i + j * num_rows] = s;
    }
  }
  return ref;
}

/// max_i |y_i - z_i| / scale_i (NaN anywhere: infinity).
template <class Scalar>
double scaled_difference(const std::vector<Scalar>& y, const std::vector<Scalar>& z,
                         const std::vector<double>& scale) {
  double worst = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double diff = ScalarTraits<Scalar>::magnitude(y[i] - z[i]);
    if (!(diff == diff)) return std::numeric_limits<double>::infinity();
    const double s = scale[i] > 0 ? scale[i] : std::numeric_limits<double>::min();
    worst = std::max(worst, diff / s);
  }
  return worst;
}

/// A (multi)vector in the layout under test with its host mirror filled by `value(i, j)`.
template <class View>
View make_filled(const std::string& label, std::size_t rows, int k,
                 typename View::non_const_value_type (*value)(std::size_t, std::size_t)) {
  View v;
  if constexpr (View::rank == 1) {
    v = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), rows);
  } else {
    v = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), rows, k);
  }
  auto host = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < rows; ++i) {
    if constexpr (View::rank == 1) {
      host(i) = value(i, 0);
    } else {
      for (int j = 0; j < k; ++j) host(i, j) = value(i, j);
    }
  }
  Kokkos::deep_copy(v, host);
  return v;
}

template <class View>
std::vector<typename View::non_const_value_type> to_column_major(const View& v, int k) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  const std::size_t rows = v.extent(0);
  std::vector<typename View::non_const_value_type> out(rows * k);
  for (int j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < rows; ++i) {
      if constexpr (View::rank == 1) {
        out[i] = host(i);
      } else {
        out[i + j * rows] = host(i, j);
      }
    }
  }
  return out;
}

// ---- Measurement -------------------------------------------------------------------------

/// One implementation of one product in a group (same x, own y).
template <class Scalar>
struct Variant {
  std::string impl;       // "kelp" or "kokkos_kernels"
  std::string algorithm;  // Kelp's SpmvAlgorithm, or "native" for the peer
  std::function<void()> apply;                 // one product into this variant's y
  std::function<void()> reset;                 // y = NaN (beta = 0) or y0
  std::function<std::vector<Scalar>()> read;   // y, column-major, on the host
};

struct GroupResult {
  std::map<std::string, double> kelp_over_peer;  // by Kelp algorithm
  bool failed = false;
};

/// Whether the peer runs for this scalar type, and if not, why.
template <class Scalar>
std::string peer_status() {
#if defined(KELP_HAVE_CUSPARSE)
  return "compared";
#elif defined(KELP_HAVE_KOKKOSKERNELS)
  if constexpr (std::is_same<Scalar, double>::value) {
    return "compared";
  } else {
    return "skipped: the Kokkos Kernels peer runs for real (double) matrices only";
  }
#else
  return "skipped: built without Kokkos Kernels (KELP_ENABLE_PEERS=OFF) or cuSPARSE";
#endif
}

template <class Scalar>
struct Context {
  const Options& options;
  const Problem<Scalar>& problem;
  const TriadResult& triad;
  HostMatrix<Scalar> host;
};

template <class Scalar>
GroupResult measure_group(const Context<Scalar>& ctx, const std::string& op,
                          const std::string& layout, int k, std::vector<Variant<Scalar>>& variants) {
  const Options& options = ctx.options;
  const Matrix<Scalar>& A = ctx.problem.A;
  GroupResult result;
  const Reference<Scalar> ref = compute_reference<Scalar>(ctx.host, k, options.alpha, options.beta);

  for (auto& v : variants) {
    for (int w = 0; w < options.warmup; ++w) v.apply();
  }
  Kokkos::fence();

  // Verification: against the host reference, and Kelp against the peer.
  std::vector<std::vector<Scalar>> outputs(variants.size());
  std::vector<double> error_reference(variants.size()), error_peer(variants.size(), 0.0);
  int peer = -1;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    variants[v].reset();
    variants[v].apply();
    Kokkos::fence();
    outputs[v] = variants[v].read();
    error_reference[v] = scaled_difference(outputs[v], ref.y, ref.scale);
    if (variants[v].impl != "kelp") peer = static_cast<int>(v);
  }
  std::vector<bool> valid(variants.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    if (peer >= 0 && static_cast<int>(v) != peer) {
      error_peer[v] = scaled_difference(outputs[v], outputs[peer], ref.scale);
    }
    valid[v] = error_reference[v] <= kTolerance && error_peer[v] <= kTolerance;
    if (!valid[v]) {
      result.failed = true;
      print_json_line(Json{{"bench", "spmv"},
                           {"kind", "error"},
                           {"matrix", ctx.problem.name},
                           {"op", op},
                           {"layout", layout},
                           {"k", k},
                           {"impl", variants[v].impl},
                           {"algorithm", variants[v].algorithm},
                           {"scaled_error_vs_reference", number_or_null(error_reference[v])},
                           {"scaled_difference_vs_peer", number_or_null(error_peer[v])},
                           {"tolerance", kTolerance},
                           {"message", "results disagree; no time reported"}});
    }
  }
  const bool peer_valid = peer >= 0 && valid[peer];

  // Calibrate: enough back-to-back products per sample to last min_sample_ms.
  int first_valid = -1;
  for (std::size_t v = 0; v < variants.size() && first_valid < 0; ++v) {
    if (valid[v]) first_valid = static_cast<int>(v);
  }
  if (first_valid < 0) return result;
  double probe = std::numeric_limits<double>::infinity();
  for (int r = 0; r < 3; ++r) {
    const auto start = kelp::bench::Clock::now();
    variants[first_valid].apply();
    Kokkos::fence();
    probe = std::min(probe, kelp::bench::seconds_since(start));
  }
  const long long calls = std::clamp<long long>(
      static_cast<long long>(std::ceil(options.min_sample_ms * 1e-3 / std::max(probe, 1e-9))), 1,
      1000000);

  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < options.repeats; ++r) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (!valid[v]) continue;
      const auto start = kelp::bench::Clock::now();
      for (long long c = 0; c < calls; ++c) variants[v].apply();
      Kokkos::fence();
      samples[v].push_back(kelp::bench::seconds_since(start) / static_cast<double>(calls));
    }
  }

  const double num_rows = A.num_rows(), num_cols = A.num_cols(), nnz = A.nnz();
  const double bytes = nnz * (sizeof(Scalar) + sizeof(kelp::Ordinal)) +
                       (num_rows + 1) * sizeof(kelp::Offset) +
                       k * (num_cols + num_rows) * sizeof(Scalar) +
                       (options.beta != 0 ? k * num_rows * sizeof(Scalar) : 0.0);
  const double flops = ScalarTraits<Scalar>::flops_per_multiply_add * nnz * k;
  const double peer_median = peer_valid ? median(samples[peer]) : 0.0;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    if (!valid[v]) continue;
    const double time = median(samples[v]);
    const double best = minimum(samples[v]);
    const double gbs = bytes / time / 1e9;
    Json line{{"bench", "spmv"},
              {"kind", "measurement"},
              {"matrix", ctx.problem.name},
              {"scalar", ScalarTraits<Scalar>::name()},
              {"num_rows", static_cast<long long>(A.num_rows())},
              {"num_cols", static_cast<long long>(A.num_cols())},
              {"op", op},
              {"layout", layout},
              {"k", k},
              {"impl", variants[v].impl},
              {"algorithm", variants[v].algorithm},
              {"repeats", options.repeats},
              {"calls_per_sample", calls},
              {"median_s", number_or_null(time)},
              {"min_s", number_or_null(best)},
              {"bytes", bytes},
              {"gbytes_per_s", number_or_null(gbs)},
              {"gbytes_per_s_best", number_or_null(bytes / best / 1e9)},
              {"gflops_per_s", number_or_null(flops / time / 1e9)},
              {"fraction_of_triad", number_or_null(gbs / ctx.triad.median_gbs)},
              {"scaled_error_vs_reference", number_or_null(error_reference[v])}};
    if (variants[v].impl == "kelp") {
      if (peer_valid) {
        const double ratio = peer_median / time;
        line["kelp_over_peer"] = number_or_null(ratio);
        line["scaled_difference_vs_peer"] = number_or_null(error_peer[v]);
        result.kelp_over_peer[variants[v].algorithm] = ratio;
      } else {
        line["peer_status"] = peer >= 0 ? "failed verification" : peer_status<Scalar>();
      }
    }
    print_json_line(line);
  }
  return result;
}

kelp::kernels::SpmvAlgorithm parse_algorithm(const std::string& name) {
  using kelp::kernels::SpmvAlgorithm;
  if (name.rfind("adaptive:", 0) == 0) return SpmvAlgorithm::adaptive;
  for (auto a : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path, SpmvAlgorithm::adaptive,
                 SpmvAlgorithm::automatic, SpmvAlgorithm::stencil}) {
    if (kelp::kernels::to_string(a) == name) return a;
  }
  KELP_THROW(InvalidArgument, "kelp-bench-spmv: unknown algorithm '"
                                  << name << "'; allowed: [row_parallel, merge_path, adaptive, "
                                  << "adaptive:ROWS:ENTRIES:TEAM:LANES, automatic, stencil]");
}

/// "adaptive:ROWS:ENTRIES:TEAM:LANES" (a point of the tuning sweep) as a shape; the defaults
/// (zeros: chosen from the rows) for every other name.
kelp::kernels::AdaptiveShape parse_adaptive_shape(const std::string& name) {
  kelp::kernels::AdaptiveShape shape;
  if (name.rfind("adaptive:", 0) != 0) return shape;
  long long rows = 0, entries = 0, team = 0, lanes = 0, stage = 1;
  char tail = 0;
  const int fields = std::sscanf(name.c_str(), "adaptive:%lld:%lld:%lld:%lld:%lld%c", &rows,
                                 &entries, &team, &lanes, &stage, &tail);
  if ((fields != 4 && fields != 5) || rows < 1 || entries < 0 || team < 0 || lanes < 0 ||
      (stage != 0 && stage != 1)) {
    throw CLI::ValidationError("--algorithms", "'" + name +
                                                   "' is not adaptive:ROWS:ENTRIES:TEAM:LANES[:STAGE] "
                                                   "(ROWS >= 1; ENTRIES, TEAM, LANES >= 0; STAGE 0 or 1)");
  }
  shape.stage = stage == 1;
  shape.block_rows = static_cast<int>(rows);
  shape.block_entries = entries;
  shape.team_size = static_cast<int>(team);
  shape.vector_length = static_cast<int>(lanes);
  return shape;
}

/// Kelp variants (one per algorithm) and, when available, the peer, for x and y of type View.
template <class Scalar, class View>
std::vector<Variant<Scalar>> make_variants(const Context<Scalar>& ctx,
                                           const std::vector<std::string>& algorithms,
                                           const View& x, int k) {
  const Options& options = ctx.options;
  const Matrix<Scalar>& A = ctx.problem.A;
  const Scalar alpha(options.alpha), beta(options.beta);
  const bool beta_zero = options.beta == 0;
  std::vector<Variant<Scalar>> variants;
  const auto add = [&](const std::string& impl, const std::string& algorithm,
                       std::function<void(const View&)> product) {
    auto y = std::make_shared<View>(make_filled<View>("y_" + impl + "_" + algorithm,
                                                      A.num_rows(), k, initial_y<Scalar>));
    Variant<Scalar> v;
    v.impl = impl;
    v.algorithm = algorithm;
    v.apply = [y, product] { product(*y); };
    v.reset = [y, beta_zero, k] {
      if (beta_zero) {
        Kokkos::deep_copy(*y, ScalarTraits<Scalar>::nan());
      } else {
        Kokkos::deep_copy(*y, make_filled<View>("y0", y->extent(0), k, initial_y<Scalar>));
      }
    };
    v.read = [y, k] { return to_column_major(*y, k); };
    variants.push_back(std::move(v));
  };
  for (const std::string& name : algorithms) {
    if (name == "stencil" && !A.has_stencil()) continue;  // matrix files carry no stencil
    auto handle = std::make_shared<kelp::kernels::SpmvHandle<Matrix<Scalar>>>(parse_algorithm(name));
    handle->set_adaptive_shape(parse_adaptive_shape(name));
    add("kelp", name, [handle, A, x, alpha, beta](const View& y) {
      kelp::kernels::spmv(*handle, kelp::kernels::SpmvMode::no_transpose, alpha, A, x, beta, y);
    });
  }
#ifdef KELP_HAVE_CUSPARSE
  {
    // Made on the first (warm-up) product, when the variant's y exists.
    using Peer = kelp::bench::CusparsePeer<Matrix<Scalar>, View, View>;
    auto peer = std::make_shared<std::unique_ptr<Peer>>();
    add("cusparse", "default", [peer, A, x, alpha, beta](const View& y) {
      if (!*peer) *peer = std::make_unique<Peer>(A, x, y, alpha, beta);
      (*peer)->apply();
    });
  }
#endif
#ifdef KELP_HAVE_KOKKOSKERNELS
  if constexpr (std::is_same<Scalar, double>::value) {
    using PeerMatrix = KokkosSparse::CrsMatrix<double, kelp::Ordinal, Device, void, kelp::Offset>;
    const PeerMatrix P("A", A.num_rows(), A.num_cols(), A.nnz(), A.values(), A.row_map(), A.entries());
    add("kokkos_kernels", "native",
        [P, x, alpha, beta](const View& y) { KokkosSparse::spmv("N", alpha, P, x, beta, y); });
  }
#endif
  return variants;
}

/// Runs every configured group on one matrix; returns the SpMV (k = 1, rank-1) ratios.
template <class Scalar>
GroupResult run_problem(const Options& options, const Problem<Scalar>& problem,
                        const TriadResult& triad) {
  const Matrix<Scalar>& A = problem.A;
  Context<Scalar> ctx{options, problem, triad, kelp::to_host(A)};
  long long max_row = 0;
  for (kelp::Ordinal i = 0; i < A.num_rows(); ++i) {
    max_row = std::max<long long>(max_row, ctx.host.row_map()(i + 1) - ctx.host.row_map()(i));
  }
#if defined(KELP_HAVE_CUSPARSE)
  const std::string peer = "cuSPARSE " + std::to_string(CUSPARSE_VER_MAJOR) + "." +
                           std::to_string(CUSPARSE_VER_MINOR) + " (CSR, default algorithms)";
#elif defined(KELP_HAVE_KOKKOSKERNELS)
  const std::string peer = std::string("KokkosKernels (Trilinos ") + TRILINOS_VERSION_STRING + ")";
#else
  const std::string peer = "none";
#endif
  print_json_line(Json{
      {"bench", "spmv"},
      {"kind", "config"},
      {"matrix", problem.name},
      {"source", problem.source},
      {"num_rows", static_cast<long long>(A.num_rows())},
      {"num_cols", static_cast<long long>(A.num_cols())},
      {"square", A.num_rows() == A.num_cols()},
      {"nnz", static_cast<long long>(A.nnz())},
      {"mean_row_nnz", A.num_rows() > 0 ? double(A.nnz()) / A.num_rows() : 0.0},
      {"max_row_nnz", max_row},
      {"scalar", ScalarTraits<Scalar>::name()},
      {"ordinal_bytes", static_cast<int>(sizeof(kelp::Ordinal))},
      {"offset_bytes", static_cast<int>(sizeof(kelp::Offset))},
      {"execution_space", Exec::name()},
      {"threads", Kokkos::DefaultExecutionSpace().concurrency()},
      {"host_threads", Kokkos::DefaultHostExecutionSpace().concurrency()},
      {"cpu", kelp::bench::cpu_model()},
      {"repeats", options.repeats},
      {"warmup", options.warmup},
      {"min_sample_ms", options.min_sample_ms},
      {"alpha", options.alpha},
      {"beta", options.beta},
      {"spmv", options.spmv},
      {"algorithms", options.algorithms},
      {"spmmv_algorithms", options.spmmv_algorithms},
      {"stencil_description", A.has_stencil()},
      {"vectors", options.vectors},
      {"layouts", options.layouts},
      {"triad_gbytes_per_s", number_or_null(triad.median_gbs)},
      {"peer", peer},
      {"peer_status", peer_status<Scalar>()},
      {"compiler", __VERSION__},
#ifdef NDEBUG
      {"ndebug", true},
#else
      {"ndebug", false},
#endif
  });

  GroupResult spmv_result;
  if (options.spmv) {
    using Vector = kelp::VectorView<Scalar, Device>;
    const auto x = make_filled<Vector>("x", A.num_cols(), 1, input_value<Scalar>);
    auto variants = make_variants<Scalar, Vector>(ctx, options.algorithms, x, 1);
    spmv_result = measure_group(ctx, "spmv", "vector", 1, variants);
  }
  const std::vector<std::string>& spmmv_algorithms = options.spmmv_algorithms;
  for (const std::string& layout : options.layouts) {
    for (int k : options.vectors) {
      GroupResult r;
      if (layout == "left") {
        using View = kelp::MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
        const auto x = make_filled<View>("x", A.num_cols(), k, input_value<Scalar>);
        auto variants = make_variants<Scalar, View>(ctx, spmmv_algorithms, x, k);
        r = measure_group(ctx, "spmmv", layout, k, variants);
      } else {
        using View = kelp::MultiVectorView<Scalar, Kokkos::LayoutRight, Device>;
        const auto x = make_filled<View>("x", A.num_cols(), k, input_value<Scalar>);
        auto variants = make_variants<Scalar, View>(ctx, spmmv_algorithms, x, k);
        r = measure_group(ctx, "spmmv", layout, k, variants);
      }
      spmv_result.failed = spmv_result.failed || r.failed;
    }
  }
  return spmv_result;
}

// ---- Matrix sets -------------------------------------------------------------------------

std::string matrix_name(const fs::path& path) {
  std::string name = path.filename().string();
  for (const std::string suffix : {".gz", ".mtx"}) {
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name.resize(name.size() - suffix.size());
    }
  }
  return name;
}

/// Reads a Matrix Market file (complex as complex<double>, everything else as double) and runs it.
GroupResult run_file(const Options& options, const std::string& path, const TriadResult& triad) {
  const auto info = kelp::io::read_matrix_market_info(path);
  if (info.field == kelp::io::MatrixMarketField::complex) {
    const Problem<Complex> problem{matrix_name(path), path,
                                   kelp::io::read_matrix_market<Complex>(path)};
    return run_problem(options, problem, triad);
  }
  const Problem<double> problem{matrix_name(path), path, kelp::io::read_matrix_market<double>(path)};
  return run_problem(options, problem, triad);
}

/// Every *.mtx and *.mtx.gz file of dir, sorted by name.
std::vector<fs::path> shared_matrices(const std::string& dir) {
  KELP_REQUIRE(fs::is_directory(dir), InvalidArgument,
               "kelp-bench-spmv: --all-shared: '" << dir << "' is not a folder");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const auto ends_with = [&](const std::string& s) {
      return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    if (entry.is_regular_file() && (ends_with(".mtx") || ends_with(".mtx.gz"))) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ---- Command line ------------------------------------------------------------------------

const std::vector<std::string> kGenerators = {"laplace3d", "laplace3d_27pt", "laplace2d",
                                              "laplace2d_9pt", "rmat"};
const std::vector<std::string> kLayouts = {"left", "right"};
const std::vector<std::string> kAlgorithms = {"row_parallel", "merge_path", "adaptive", "automatic",
                                              "stencil"};

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

/// "'item'" or, for one item of a longer list, "'item' in 'list'".
std::string quoted_in(const std::string& item, const std::string& list) {
  return "'" + item + "'" + (item == list ? "" : " in '" + list + "'");
}

/// --vectors: comma-separated integers >= 1, or "none" (or empty): no SpMMV.
std::vector<int> parse_int_list(const std::string& text) {
  std::vector<int> values;
  if (text == "none" || text.empty()) return values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    int value = 0;
    if (!CLI::detail::lexical_cast(item, value) || value < 1) {
      throw CLI::ValidationError("--vectors",
                                 quoted_in(item, text) + " is not an integer >= 1 (nor none)");
    }
    values.push_back(value);
  }
  return values;
}

/// --layouts, --algorithms: comma-separated values of `allowed`, or "none" (or empty).
std::vector<std::string> parse_list(const std::string& text, const std::vector<std::string>& allowed,
                                    const char* option) {
  std::vector<std::string> values;
  if (text == "none" || text.empty()) return values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const bool sweep_point = &allowed == &kAlgorithms && item.rfind("adaptive:", 0) == 0;
    if (sweep_point) parse_adaptive_shape(item);  // throws a ValidationError when malformed
    if (!sweep_point && std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
      throw CLI::ValidationError(option, "unknown value " + quoted_in(item, text) +
                                             "; allowed: " + joined(allowed, ", ") + " or none");
    }
    values.push_back(item);
  }
  return values;
}

/// --triad-mb: "auto" (0: sized by the cache) or a number of MB, at least 1.
double parse_triad_mb(const std::string& text) {
  if (text == "auto") return 0.0;
  double mb = 0;
  if (!CLI::detail::lexical_cast(text, mb)) {
    throw CLI::ValidationError("--triad-mb", "'" + text + "' is neither auto nor a number");
  }
  return std::max(1.0, mb);
}

/// CLI11 check: the value is one of `allowed`.
CLI::Validator one_of(const std::vector<std::string>& allowed) {
  return CLI::Validator(
      [allowed](std::string& text) -> std::string {
        if (std::find(allowed.begin(), allowed.end(), text) != allowed.end()) return "";
        return "unknown value '" + text + "'; allowed: " + joined(allowed, ", ");
      },
      "");
}

const char* kUsage =
    "usage: kelp-bench-spmv [--generator NAME --n N | --matrix FILE | --all-shared [DIR]]\n"
    "                       [options]  (kelp-bench-spmv --help: all options, their defaults)\n";

/// The command line (CLI11; help, defaults and checks). Numbers are checked here; counts below
/// their minimum are raised to it afterwards (clamp), as the descriptions say.
void define_command_line(CLI::App& app, Options& options) {
  app.description(
      "kelp-bench-spmv: SpMV / SpMMV throughput against the machine's STREAM triad bandwidth and,\n"
      "when built with KELP_ENABLE_PEERS, against KokkosSparse::spmv. Prints JSON lines (triad,\n"
      "config, measurement, error, summary); see the comment at the top of\n"
      "apps/bench/spmv_bench.cpp for what is measured, counted and verified.");
  app.footer(
      "Matrices: --generator/--n by default; --matrix runs one file instead (real, integer and\n"
      "pattern as double, complex as complex<double>); --all-shared (overrides both) runs every\n"
      ".mtx/.mtx.gz of DIR plus laplace3d 100^3, laplace2d 1000^2, laplace3d_27pt 50^3 unless\n"
      "--no-generated. Kokkos options: --kokkos-* (e.g. --kokkos-threads=2).\n"
      "Exit codes: 0 all well, 1 a verification failed, 2 a matrix file could not be read or\n"
      "benchmarked (with --all-shared the others are still run) or a bad command line.");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // last one wins

  app.add_option("--generator", options.generator,
                 "model problem (n^3 or n^2 rows):\n" + joined(kGenerators, ", "))
      ->type_name("NAME")
      ->check(one_of(kGenerators))
      ->capture_default_str();
  app.add_option("--n", options.n, "grid points per dimension of the generated matrix")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->capture_default_str();
  app.add_option("--matrix", options.matrix_file,
                 "benchmark one Matrix Market file (plain or gzip)")
      ->type_name("FILE.mtx[.gz]");
  app.add_option("--all-shared", options.shared_dir,
                 "benchmark every .mtx/.mtx.gz of DIR (one that fails is reported,\n"
                 "the others run) and the generated set, then a summary line")
      ->type_name("[DIR]")
      ->expected(0, 1)
      ->default_str(options.shared_dir);  // the value of a bare --all-shared
  app.add_flag("--no-generated", "with --all-shared: skip the three generated matrices");
  app.add_option("--repeats", options.repeats, "timed samples per variant (at least 1)")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->capture_default_str();
  app.add_option("--warmup", options.warmup, "untimed products per variant (at least 0)")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->capture_default_str();
  app.add_option("--min-sample-ms", options.min_sample_ms,
                 "one sample runs back-to-back products for at least this long\n"
                 "(at least 0)")
      ->type_name("MS")
      ->check(kelp::bench::number_value())
      ->capture_default_str();
  app.add_option_function<std::string>(
         "--vectors",
         [&options](const std::string& text) { options.vectors = parse_int_list(text); },
         "SpMMV widths k, or none (no SpMMV)")
      ->type_name("K,K,...|none")
      ->default_str("1,4,8,16,32");
  app.add_option_function<std::string>(
         "--layouts",
         [&options](const std::string& text) {
           options.layouts = parse_list(text, kLayouts, "--layouts");
         },
         "SpMMV multivector layouts (LayoutLeft, LayoutRight), or none")
      ->type_name("left,right|none")
      ->default_str(joined(options.layouts, ","));
  app.add_option_function<std::string>(
         "--algorithms",
         [&options](const std::string& text) {
           options.algorithms = parse_list(text, kAlgorithms, "--algorithms");
         },
         "Kelp SpMV algorithms of the single-vector products\n"
         "(row_parallel, merge_path, adaptive, automatic, or a point of the\n"
         "adaptive tuning sweep adaptive:ROWS:ENTRIES:TEAM:LANES, 0 = chosen), or none;\n"
         "stencil: generated matrices only (skipped for matrix files)")
      ->type_name("ALGORITHM,...")
      ->default_str(joined(options.algorithms, ","));
  app.add_option_function<std::string>(
         "--spmmv-algorithms",
         [&options](const std::string& text) {
           options.spmmv_algorithms = parse_list(text, kAlgorithms, "--spmmv-algorithms");
         },
         "Kelp algorithms of the SpMMV groups (same names as --algorithms)")
      ->type_name("ALGORITHM,...")
      ->default_str(joined(options.spmmv_algorithms, ","));
  app.add_flag("--no-spmv", "skip the single-vector products (SpMMV only)");
  app.add_option("--beta", options.beta,
                 "y = alpha*A*x + beta*y (alpha = 1); nonzero: y is read too")
      ->type_name("BETA")
      ->check(kelp::bench::number_value())
      ->capture_default_str();
  app.add_option_function<std::string>(
         "--triad-mb",
         [&options](const std::string& text) { options.triad_mb = parse_triad_mb(text); },
         "MB per STREAM triad array (at least 1);\n"
         "auto: max(256 MB on CPUs / 1 GB on GPUs, 4 x the last-level cache)")
      ->type_name("MB|auto")
      ->default_str("auto");
  app.add_option("--triad-repeats", options.triad_repeats, "timed triad runs (at least 1)")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->capture_default_str();
}

/// Parses the command line into `options`; -1: run, otherwise the exit status (0 after --help).
int parse_options(const std::vector<std::string>& args, Options& options) {
  CLI::App app{"", "kelp-bench-spmv"};
  define_command_line(app, options);
  const int status = kelp::bench::parse_command_line(app, args, kUsage);
  if (status >= 0) return status;
  options.all_shared = app.count("--all-shared") > 0;
  options.generated = app.count("--no-generated") == 0;
  options.spmv = app.count("--no-spmv") == 0;
  options.repeats = std::max(1, options.repeats);
  options.warmup = std::max(0, options.warmup);
  options.min_sample_ms = std::max(0.0, options.min_sample_ms);
  options.triad_repeats = std::max(1, options.triad_repeats);
  return -1;
}

constexpr int kExitVerificationFailed = 1;
constexpr int kExitBadInput = 2;

int run(const Options& options) {
  const TriadResult triad = measure_triad("spmv", options.triad_mb, options.triad_repeats);
  if (!options.all_shared) {
    GroupResult result;
    if (!options.matrix_file.empty()) {
      result = run_file(options, options.matrix_file, triad);
    } else {
      const Problem<double> problem{options.generator + "_" + std::to_string(options.n),
                                    options.generator + " n=" + std::to_string(options.n),
                                    generate(options.generator, options.n)};
      result = run_problem(options, problem, triad);
    }
    return result.failed ? kExitVerificationFailed : 0;
  }

  bool failed = false;
  int file_errors = 0;
  std::map<std::string, std::vector<double>> ratios;  // by Kelp algorithm, over the set
  int matrices = 0;
  const auto record = [&](const GroupResult& r) {
    failed = failed || r.failed;
    for (const auto& [algorithm, ratio] : r.kelp_over_peer) ratios[algorithm].push_back(ratio);
    ++matrices;
  };
  // One unreadable or failing file is reported and the others still run.
  for (const auto& file : shared_matrices(options.shared_dir)) {
    try {
      record(run_file(options, file.string(), triad));
    } catch (const std::exception& e) {
      ++file_errors;
      print_json_line(Json{{"bench", "spmv"},
                           {"kind", "error"},
                           {"file", file.string()},
                           {"matrix", matrix_name(file)},
                           {"message", e.what()}});
    }
  }
  if (options.generated) {
    const std::vector<std::pair<std::string, int>> generated = {
        {"laplace3d", 100}, {"laplace2d", 1000}, {"laplace3d_27pt", 50}};
    for (const auto& [generator, n] : generated) {
      const Problem<double> problem{generator + "_" + std::to_string(n),
                                    generator + " n=" + std::to_string(n), generate(generator, n)};
      record(run_problem(options, problem, triad));
    }
  }
  Json line{{"bench", "spmv"}, {"kind", "summary"}, {"op", "spmv"}, {"matrices", matrices}};
  for (const auto& [algorithm, values] : ratios) {
    double log_sum = 0;
    for (double v : values) log_sum += std::log(v);
    line["median_kelp_over_peer_" + algorithm] = number_or_null(median(values));
    line["min_kelp_over_peer_" + algorithm] = number_or_null(minimum(values));
    line["max_kelp_over_peer_" + algorithm] =
        number_or_null(*std::max_element(values.begin(), values.end()));
    line["geomean_kelp_over_peer_" + algorithm] =
        number_or_null(std::exp(log_sum / static_cast<double>(values.size())));
    line["count_" + algorithm] = static_cast<int>(values.size());
  }
  line["file_errors"] = file_errors;
  line["verification_failed"] = failed;
  print_json_line(line);
  if (failed) return kExitVerificationFailed;
  return file_errors > 0 ? kExitBadInput : 0;
}

}  // namespace

int main(int argc, char** argv) {
  kelp::solvers::bind_threads_or_restart(argv);  // bound threads, and no warning in the JSON
  kelp::bench::SplitArguments arguments(argc, argv);
  kelp::ScopeGuard kokkos(arguments.kokkos_argc(), arguments.kokkos_argv());
  Options options;
  options.shared_dir = KELP_BENCH_DEFAULT_MATRICES_DIR;
  if (const int status = parse_options(arguments.args(), options); status >= 0) return status;
  try {
    return run(options);
  } catch (const kelp::Error& e) {
    print_json_line(Json{{"bench", "spmv"}, {"kind", "error"}, {"message", e.what()}});
    return kExitBadInput;
  } catch (const std::exception& e) {
    print_json_line(Json{{"bench", "spmv"}, {"kind", "error"}, {"message", e.what()}});
    return 1;
  }
}
