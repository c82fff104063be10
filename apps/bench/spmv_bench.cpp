// kelp-bench-spmv: SpMV / SpMMV throughput against the machine's STREAM triad bandwidth and, when
// built with KELP_ENABLE_KOKKOSKERNELS_PEER, against KokkosSparse::spmv on the same matrix and the
// same input vectors.
//
// Per run it prints JSON lines:
//   {"kind":"triad", ...}        STREAM triad a(i) = b(i) + s*c(i), best and median GB/s
//   {"kind":"config", ...}       effective configuration, once per matrix (sizes, threads, ...)
//   {"kind":"measurement", ...}  one per (op, k, layout, implementation, algorithm)
//   {"kind":"error", ...}        a result that failed verification; its time is not reported
//   {"kind":"summary", ...}      with --all-shared: median kelp/peer time ratio over the set
// Exit status 1 when any verification failed.
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
// up to 8 columns) lower the figure rather than inflate it. GFLOP/s counts 2 * nnz * k.
// kelp_over_peer = median time of KokkosSparse::spmv / median time of Kelp: > 1 means Kelp is
// faster. fraction_of_triad = effective GB/s (median) / triad GB/s (median).
//
// Verification: every variant's y is filled with NaN (beta = 0) before one product, then
// compared with a sequential host reference, and each Kelp result with the peer's:
//   |y_i - z_i| <= 1e-12 * (|alpha| * sum_k |a_ik| |x_k| + |beta| |y0_i|)   for every i, column
// (the bound of a sum evaluated in a different order). A variant that fails is not timed.
//
// Usage:
//   kelp-bench-spmv [--generator laplace3d|laplace2d|laplace3d_27pt|laplace2d_9pt] [--n 100]
//   kelp-bench-spmv --matrix FILE.mtx[.gz]
//   kelp-bench-spmv --all-shared [DIR]   (square real/integer/pattern matrices of DIR plus
//                                          laplace3d 100^3, laplace2d 1000^2, laplace3d_27pt 50^3)
// Options: --repeats 20  --warmup 3  --min-sample-ms 20  --vectors 1,4,8,16,32 (or none)
//          --layouts left,right  --algorithms row_parallel,merge_path,automatic  --no-spmv
//          --beta 0  --triad-mb 80  --triad-repeats 20

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/driver/config/quoted_string.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

#ifdef KELP_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#include <Trilinos_version.h>
#endif

namespace {

namespace fs = std::filesystem;
using Scalar = double;
using Device = kelp::DefaultDevice;
using Exec = Device::execution_space;
using Matrix = kelp::CrsMatrix<Scalar, kelp::Ordinal, kelp::Offset, Device>;
using HostMatrix = Matrix::host_mirror_type;
#ifdef KELP_HAVE_KOKKOSKERNELS
using PeerMatrix = KokkosSparse::CrsMatrix<Scalar, kelp::Ordinal, Device, void, kelp::Offset>;
#endif

constexpr double kTolerance = 1e-12;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  std::string matrix_file;
  bool all_shared = false;
  std::string shared_dir;
  int repeats = 20;              // timed samples per variant; the median is reported
  int warmup = 3;                // untimed products per variant before verification and timing
  double min_sample_ms = 20;     // one sample lasts at least this long (timer resolution, noise)
  std::vector<int> vectors = {1, 4, 8, 16, 32};  // SpMMV widths; empty: no SpMMV
  std::vector<std::string> layouts = {"left", "right"};
  std::vector<std::string> algorithms = {"row_parallel", "merge_path", "automatic"};
  bool spmv = true;              // single-vector products (rank-1 views)
  double alpha = 1.0;
  double beta = 0.0;
  double triad_mb = 80;          // MB per triad array (3 arrays): well beyond L2, like the SpMV set
  int triad_repeats = 20;
};

// ---- Output helpers ----------------------------------------------------------------------

std::string json_string(const std::string& text) { return kelp::config::quoted_string(text, "\\u%04x"); }

/// Builds one flat JSON object, keys in insertion order.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value) {
    return raw(key, json_string(value));
  }
  JsonLine& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonLine& add(const std::string& key, double value) {
    if (!std::isfinite(value)) return raw(key, "null");
    std::ostringstream out;
    out.precision(6);
    out << value;
    return raw(key, out.str());
  }
  JsonLine& add(const std::string& key, long long value) { return raw(key, std::to_string(value)); }
  JsonLine& add(const std::string& key, int value) { return add(key, static_cast<long long>(value)); }
  JsonLine& add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  template <class T>
  JsonLine& add_list(const std::string& key, const std::vector<T>& values) {
    std::ostringstream out;
    out << "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out << ",";
      if constexpr (std::is_same<T, std::string>::value) {
        out << json_string(values[i]);
      } else {
        out << values[i];
      }
    }
    out << "]";
    return raw(key, out.str());
  }
  JsonLine& raw(const std::string& key, const std::string& json) {
    text_ += (text_.empty() ? "{" : ",") + json_string(key) + ":" + json;
    return *this;
  }
  void print() const { std::cout << text_ << "}" << std::endl; }

 private:
  std::string text_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

// ---- STREAM triad ------------------------------------------------------------------------

using TriadOut = Kokkos::View<double*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Restrict>>;
using TriadIn = Kokkos::View<const double*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged | Kokkos::Restrict>>;

struct TriadFunctor {
  TriadOut a;
  TriadIn b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { a(i) = b(i) + s * c(i); }
};

struct TriadResult {
  double best_gbs = 0;
  double median_gbs = 0;
};

/// STREAM triad with three arrays of triad_mb MB each; 3 words per element counted (as STREAM:
/// the write-allocate read of a is not counted).
TriadResult measure_triad(const Options& options) {
  const std::size_t n = static_cast<std::size_t>(options.triad_mb * 1e6 / sizeof(double));
  Kokkos::View<double*, Device> a("triad_a", n), b("triad_b", n), c("triad_c", n);
  Kokkos::deep_copy(a, 0.0);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const TriadFunctor triad{TriadOut(a.data(), n), TriadIn(b.data(), n), TriadIn(c.data(), n), 3.0};
  const auto policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::size_t>>(0, n);
  for (int w = 0; w < 2; ++w) Kokkos::parallel_for("kelp-bench-spmv::triad", policy, triad);
  Kokkos::fence();
  std::vector<double> seconds;
  for (int r = 0; r < options.triad_repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    Kokkos::parallel_for("kelp-bench-spmv::triad", policy, triad);
    Kokkos::fence();
    seconds.push_back(seconds_since(start));
  }
  double check = 0;
  Kokkos::deep_copy(check, Kokkos::subview(a, n / 2));
  KELP_REQUIRE(check == 7.0, NumericalError,
               "kelp-bench-spmv: triad produced a(i) = " << check << ", expected 7");
  const double bytes = 3.0 * sizeof(double) * static_cast<double>(n);
  TriadResult result;
  result.best_gbs = bytes / *std::min_element(seconds.begin(), seconds.end()) / 1e9;
  result.median_gbs = bytes / median_of(seconds) / 1e9;
  JsonLine()
      .add("bench", "spmv")
      .add("kind", "triad")
      .add("array_mb", options.triad_mb)
      .add("elements", static_cast<long long>(n))
      .add("repeats", options.triad_repeats)
      .add("best_gbytes_per_s", result.best_gbs)
      .add("median_gbytes_per_s", result.median_gbs)
      .add("median_s", median_of(seconds))
      .add("min_s", *std::min_element(seconds.begin(), seconds.end()))
      .print();
  return result;
}

// ---- Problems, vectors and the host reference --------------------------------------------

struct Problem {
  std::string name;
  std::string source;  // generator description or file path
  Matrix A;
};

Matrix generate(const std::string& generator, long long n) {
  if (generator == "laplace3d") return kelp::generators::laplace3d<Scalar>(n, n, n);
  if (generator == "laplace3d_27pt") return kelp::generators::laplace3d_27pt<Scalar>(n, n, n);
  if (generator == "laplace2d") return kelp::generators::laplace2d<Scalar>(n, n);
  if (generator == "laplace2d_9pt") return kelp::generators::laplace2d_9pt<Scalar>(n, n);
  KELP_THROW(InvalidArgument,
             "kelp-bench-spmv: unknown generator '"
                 << generator << "'; allowed: [laplace3d, laplace3d_27pt, laplace2d, laplace2d_9pt]");
}

/// Deterministic inputs in [-1, 1] that differ per row and column (no cancellation to zero).
double input_value(std::size_t i, std::size_t j) {
  const std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ULL ^ (j + 1) * 0xC2B2AE3D27D4EB4FULL;
  return static_cast<double>((h >> 11) % 2000001) / 1000000.0 - 1.0;
}
double initial_y(std::size_t i, std::size_t j) { return 0.5 * input_value(i + 7, j + 3); }

/// Column-major host copy of x (num_cols x k) and the reference y (num_rows x k) with its bound.
struct Reference {
  std::vector<double> y;      // alpha*A*x + beta*y0
  std::vector<double> scale;  // |alpha| |A| |x| + |beta| |y0|: the summation-order error bound
};

Reference compute_reference(const HostMatrix& H, int k, double alpha, double beta) {
  const std::size_t num_rows = H.num_rows();
  Reference ref;
  ref.y.assign(num_rows * k, 0.0);
  ref.scale.assign(num_rows * k, 0.0);
  const auto& row_map = H.row_map();
  const auto& entries = H.entries();
  const auto& values = H.values();
  for (int j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < num_rows; ++i) {
      double sum = 0, bound = 0;
      for (auto p = row_map(i); p < row_map(i + 1); ++p) {
        const double term = values(p) * input_value(entries(p), j);
        sum += term;
        bound += std::abs(term);
      }
      double y = alpha * sum, s = std::abs(alpha) * bound;
      if (beta != 0) {
        y += beta * initial_y(i, j);
        s += std::abs(beta * initial_y(i, j));
      }
      ref.y[i + j * num_rows] = y;
      ref.scale[i + j * num_rows] = s;
    }
  }
  return ref;
}

/// max_i |y_i - z_i| / scale_i (NaN anywhere: infinity).
double scaled_difference(const std::vector<double>& y, const std::vector<double>& z,
                         const std::vector<double>& scale) {
  double worst = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double diff = std::abs(y[i] - z[i]);
    if (!(diff == diff)) return std::numeric_limits<double>::infinity();
    const double s = scale[i] > 0 ? scale[i] : std::numeric_limits<double>::min();
    worst = std::max(worst, diff / s);
  }
  return worst;
}

/// A (multi)vector in the layout under test with its host mirror filled by `value(i, j)`.
template <class View>
View make_filled(const std::string& label, std::size_t rows, int k,
                 double (*value)(std::size_t, std::size_t)) {
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
std::vector<double> to_column_major(const View& v, int k) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  const std::size_t rows = v.extent(0);
  std::vector<double> out(rows * k);
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
struct Variant {
  std::string impl;       // "kelp" or "kokkos_kernels"
  std::string algorithm;  // Kelp's SpmvAlgorithm, or "native" for the peer
  std::function<void()> apply;                 // one product into this variant's y
  std::function<void()> reset;                 // y = NaN (beta = 0) or y0
  std::function<std::vector<double>()> read;   // y, column-major, on the host
};

struct GroupResult {
  std::map<std::string, double> kelp_over_peer;  // by Kelp algorithm
  bool failed = false;
};

struct Context {
  const Options& options;
  const Problem& problem;
  const TriadResult& triad;
  HostMatrix host;
};

GroupResult measure_group(const Context& ctx, const std::string& op, const std::string& layout,
                          int k, std::vector<Variant>& variants) {
  const Options& options = ctx.options;
  const Matrix& A = ctx.problem.A;
  GroupResult result;
  const Reference ref = compute_reference(ctx.host, k, options.alpha, options.beta);

  for (auto& v : variants) {
    for (int w = 0; w < options.warmup; ++w) v.apply();
  }
  Kokkos::fence();

  // Verification: against the host reference, and Kelp against the peer.
  std::vector<std::vector<double>> outputs(variants.size());
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
      JsonLine()
          .add("bench", "spmv")
          .add("kind", "error")
          .add("matrix", ctx.problem.name)
          .add("op", op)
          .add("layout", layout)
          .add("k", k)
          .add("impl", variants[v].impl)
          .add("algorithm", variants[v].algorithm)
          .add("scaled_error_vs_reference", error_reference[v])
          .add("scaled_difference_vs_peer", error_peer[v])
          .add("tolerance", kTolerance)
          .add("message", "results disagree; no time reported")
          .print();
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
    const auto start = std::chrono::steady_clock::now();
    variants[first_valid].apply();
    Kokkos::fence();
    probe = std::min(probe, seconds_since(start));
  }
  const long long calls = std::clamp<long long>(
      static_cast<long long>(std::ceil(options.min_sample_ms * 1e-3 / std::max(probe, 1e-9))), 1,
      1000000);

  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < options.repeats; ++r) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (!valid[v]) continue;
      const auto start = std::chrono::steady_clock::now();
      for (long long c = 0; c < calls; ++c) variants[v].apply();
      Kokkos::fence();
      samples[v].push_back(seconds_since(start) / static_cast<double>(calls));
    }
  }

  const double num_rows = A.num_rows(), num_cols = A.num_cols(), nnz = A.nnz();
  const double bytes = nnz * (sizeof(Scalar) + sizeof(kelp::Ordinal)) +
                       (num_rows + 1) * sizeof(kelp::Offset) +
                       k * (num_cols + num_rows) * sizeof(Scalar) +
                       (options.beta != 0 ? k * num_rows * sizeof(Scalar) : 0.0);
  const double flops = 2.0 * nnz * k;
  const double peer_median = peer_valid ? median_of(samples[peer]) : 0.0;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    if (!valid[v]) continue;
    const double median = median_of(samples[v]);
    const double minimum = *std::min_element(samples[v].begin(), samples[v].end());
    const double gbs = bytes / median / 1e9;
    JsonLine line;
    line.add("bench", "spmv")
        .add("kind", "measurement")
        .add("matrix", ctx.problem.name)
        .add("op", op)
        .add("layout", layout)
        .add("k", k)
        .add("impl", variants[v].impl)
        .add("algorithm", variants[v].algorithm)
        .add("repeats", options.repeats)
        .add("calls_per_sample", calls)
        .add("median_s", median)
        .add("min_s", minimum)
        .add("bytes", bytes)
        .add("gbytes_per_s", gbs)
        .add("gbytes_per_s_best", bytes / minimum / 1e9)
        .add("gflops_per_s", flops / median / 1e9)
        .add("fraction_of_triad", gbs / ctx.triad.median_gbs)
        .add("scaled_error_vs_reference", error_reference[v]);
    if (variants[v].impl == "kelp" && peer_valid) {
      const double ratio = peer_median / median;
      line.add("kelp_over_peer", ratio).add("scaled_difference_vs_peer", error_peer[v]);
      result.kelp_over_peer[variants[v].algorithm] = ratio;
    }
    line.print();
  }
  return result;
}

kelp::kernels::SpmvAlgorithm parse_algorithm(const std::string& name) {
  using kelp::kernels::SpmvAlgorithm;
  for (auto a : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path, SpmvAlgorithm::automatic}) {
    if (kelp::kernels::to_string(a) == name) return a;
  }
  KELP_THROW(InvalidArgument, "kelp-bench-spmv: unknown algorithm '"
                                        << name << "'; allowed: [row_parallel, merge_path, automatic]");
}

/// Kelp variants (one per algorithm) and, when available, the peer, for x and y of type View.
template <class View>
std::vector<Variant> make_variants(const Context& ctx, const std::vector<std::string>& algorithms,
                                   const View& x, int k, bool with_peer) {
  const Options& options = ctx.options;
  const Matrix& A = ctx.problem.A;
  const double alpha = options.alpha, beta = options.beta;
  std::vector<Variant> variants;
  const auto add = [&](const std::string& impl, const std::string& algorithm,
                       std::function<void(const View&)> product) {
    auto y = std::make_shared<View>(make_filled<View>("y_" + impl + "_" + algorithm,
                                                      A.num_rows(), k, initial_y));
    Variant v;
    v.impl = impl;
    v.algorithm = algorithm;
    v.apply = [y, product] { product(*y); };
    v.reset = [y, beta, k] {
      if (beta == 0) {
        Kokkos::deep_copy(*y, std::numeric_limits<double>::quiet_NaN());
      } else {
        Kokkos::deep_copy(*y, make_filled<View>("y0", y->extent(0), k, initial_y));
      }
    };
    v.read = [y, k] { return to_column_major(*y, k); };
    variants.push_back(std::move(v));
  };
  for (const std::string& name : algorithms) {
    auto handle = std::make_shared<kelp::kernels::SpmvHandle<Matrix>>(parse_algorithm(name));
    add("kelp", name, [handle, A, x, alpha, beta](const View& y) {
      kelp::kernels::spmv(*handle, kelp::kernels::SpmvMode::no_transpose, alpha, A, x, beta, y);
    });
  }
#ifdef KELP_HAVE_KOKKOSKERNELS
  if (with_peer) {
    const PeerMatrix P("A", A.num_rows(), A.num_cols(), A.nnz(), A.values(), A.row_map(), A.entries());
    add("kokkos_kernels", "native",
        [P, x, alpha, beta](const View& y) { KokkosSparse::spmv("N", alpha, P, x, beta, y); });
  }
#else
  (void)with_peer;
#endif
  return variants;
}

/// Runs every configured group on one matrix; returns the SpMV (k = 1, rank-1) ratios.
GroupResult run_problem(const Options& options, const Problem& problem, const TriadResult& triad) {
  const Matrix& A = problem.A;
  Context ctx{options, problem, triad, kelp::to_host(A)};
  long long max_row = 0;
  for (kelp::Ordinal i = 0; i < A.num_rows(); ++i) {
    max_row = std::max<long long>(max_row, ctx.host.row_map()(i + 1) - ctx.host.row_map()(i));
  }
#ifdef KELP_HAVE_KOKKOSKERNELS
  const std::string peer = std::string("KokkosKernels (Trilinos ") + TRILINOS_VERSION_STRING + ")";
#else
  const std::string peer = "none";
#endif
  std::vector<std::string> vectors;
  for (int k : options.vectors) vectors.push_back(std::to_string(k));
  JsonLine()
      .add("bench", "spmv")
      .add("kind", "config")
      .add("matrix", problem.name)
      .add("source", problem.source)
      .add("num_rows", static_cast<long long>(A.num_rows()))
      .add("num_cols", static_cast<long long>(A.num_cols()))
      .add("nnz", static_cast<long long>(A.nnz()))
      .add("mean_row_nnz", A.num_rows() > 0 ? double(A.nnz()) / A.num_rows() : 0.0)
      .add("max_row_nnz", max_row)
      .add("scalar", "double")
      .add("ordinal_bytes", static_cast<int>(sizeof(kelp::Ordinal)))
      .add("offset_bytes", static_cast<int>(sizeof(kelp::Offset)))
      .add("execution_space", Exec::name())
      .add("threads", Exec().concurrency())
      .add("repeats", options.repeats)
      .add("warmup", options.warmup)
      .add("min_sample_ms", options.min_sample_ms)
      .add("alpha", options.alpha)
      .add("beta", options.beta)
      .add("spmv", options.spmv)
      .add_list("algorithms", options.algorithms)
      .raw("vectors", "[" + [&] {
        std::string s;
        for (std::size_t i = 0; i < vectors.size(); ++i) s += (i ? "," : "") + vectors[i];
        return s;
      }() + "]")
      .add_list("layouts", options.layouts)
      .add("triad_array_mb", options.triad_mb)
      .add("triad_gbytes_per_s", triad.median_gbs)
      .add("peer", peer)
      .add("cpu", cpu_model())
      .add("compiler", __VERSION__)
#ifdef NDEBUG
      .add("ndebug", true)
#else
      .add("ndebug", false)
#endif
      .print();

  GroupResult spmv_result;
  if (options.spmv) {
    using Vector = kelp::VectorView<Scalar, Device>;
    const auto x = make_filled<Vector>("x", A.num_cols(), 1, input_value);
    auto variants = make_variants<Vector>(ctx, options.algorithms, x, 1, true);
    spmv_result = measure_group(ctx, "spmv", "vector", 1, variants);
  }
  const std::vector<std::string> spmmv_algorithms = {"automatic"};
  for (const std::string& layout : options.layouts) {
    for (int k : options.vectors) {
      GroupResult r;
      if (layout == "left") {
        using View = kelp::MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
        const auto x = make_filled<View>("x", A.num_cols(), k, input_value);
        auto variants = make_variants<View>(ctx, spmmv_algorithms, x, k, true);
        r = measure_group(ctx, "spmmv", layout, k, variants);
      } else {
        using View = kelp::MultiVectorView<Scalar, Kokkos::LayoutRight, Device>;
        const auto x = make_filled<View>("x", A.num_cols(), k, input_value);
        auto variants = make_variants<View>(ctx, spmmv_algorithms, x, k, true);
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

/// Square real, integer or pattern matrices of dir, sorted by name (others are skipped, noted).
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
  std::vector<fs::path> kept;
  for (const auto& file : files) {
    const auto info = kelp::io::read_matrix_market_info(file.string());
    const bool square = info.num_rows == info.num_cols;
    const bool real = info.field != kelp::io::MatrixMarketField::complex;
    if (square && real) {
      kept.push_back(file);
    } else {
      JsonLine()
          .add("bench", "spmv")
          .add("kind", "skipped")
          .add("matrix", matrix_name(file))
          .add("reason", !real ? "complex field" : "not square")
          .print();
    }
  }
  return kept;
}

std::vector<int> parse_int_list(const std::string& text) {
  std::vector<int> values;
  if (text == "none" || text.empty()) return values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const int value = std::stoi(item);
    KELP_REQUIRE(value >= 1, InvalidArgument,
                 "kelp-bench-spmv: --vectors: " << value << " must be >= 1");
    values.push_back(value);
  }
  return values;
}

std::vector<std::string> parse_list(const std::string& text, const std::vector<std::string>& allowed,
                                    const char* option) {
  std::vector<std::string> values;
  if (text == "none" || text.empty()) return values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    KELP_REQUIRE(std::find(allowed.begin(), allowed.end(), item) != allowed.end(),
                 InvalidArgument, "kelp-bench-spmv: " << option << ": unknown value '" << item << "'");
    values.push_back(item);
  }
  return values;
}

int run(const Options& options) {
  const TriadResult triad = measure_triad(options);
  bool failed = false;
  if (!options.all_shared) {
    Problem problem;
    if (!options.matrix_file.empty()) {
      problem = {matrix_name(options.matrix_file), options.matrix_file,
                 kelp::io::read_matrix_market<Scalar>(options.matrix_file)};
    } else {
      problem = {options.generator + "_" + std::to_string(options.n),
                 options.generator + " n=" + std::to_string(options.n),
                 generate(options.generator, options.n)};
    }
    failed = run_problem(options, problem, triad).failed;
    return failed ? 1 : 0;
  }

  std::map<std::string, std::vector<double>> ratios;  // by Kelp algorithm, over the set
  std::vector<std::string> names;
  const auto record = [&](const Problem& problem) {
    const GroupResult r = run_problem(options, problem, triad);
    failed = failed || r.failed;
    for (const auto& [algorithm, ratio] : r.kelp_over_peer) ratios[algorithm].push_back(ratio);
    names.push_back(problem.name);
  };
  for (const auto& file : shared_matrices(options.shared_dir)) {
    record({matrix_name(file), file.string(), kelp::io::read_matrix_market<Scalar>(file.string())});
  }
  const std::vector<std::pair<std::string, int>> generated = {
      {"laplace3d", 100}, {"laplace2d", 1000}, {"laplace3d_27pt", 50}};
  for (const auto& [generator, n] : generated) {
    record({generator + "_" + std::to_string(n), generator + " n=" + std::to_string(n),
            generate(generator, n)});
  }
  JsonLine line;
  line.add("bench", "spmv").add("kind", "summary").add("op", "spmv").add("matrices", static_cast<int>(names.size()));
  for (const auto& [algorithm, values] : ratios) {
    double log_sum = 0;
    for (double v : values) log_sum += std::log(v);
    line.add("median_kelp_over_peer_" + algorithm, median_of(values))
        .add("min_kelp_over_peer_" + algorithm, *std::min_element(values.begin(), values.end()))
        .add("max_kelp_over_peer_" + algorithm, *std::max_element(values.begin(), values.end()))
        .add("geomean_kelp_over_peer_" + algorithm, std::exp(log_sum / values.size()))
        .add("count_" + algorithm, static_cast<int>(values.size()));
  }
  line.add("verification_failed", failed).print();
  return failed ? 1 : 0;
}

const char* kUsage =
    "usage: kelp-bench-spmv [--generator laplace3d|laplace3d_27pt|laplace2d|laplace2d_9pt] [--n 100]\n"
    "                       [--matrix FILE.mtx[.gz]] [--all-shared [DIR]]\n"
    "                       [--repeats 20] [--warmup 3] [--min-sample-ms 20]\n"
    "                       [--vectors 1,4,8,16,32|none] [--layouts left,right|none]\n"
    "                       [--algorithms row_parallel,merge_path,automatic] [--no-spmv]\n"
    "                       [--beta 0] [--triad-mb 80] [--triad-repeats 20]\n";

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Options options;
  options.shared_dir = KELP_BENCH_DEFAULT_MATRICES_DIR;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool has_value = i + 1 < argc;
      const auto value = [&]() -> std::string {
        KELP_REQUIRE(has_value, InvalidArgument, "kelp-bench-spmv: " << arg << " needs a value");
        return argv[++i];
      };
      if (arg == "--generator") {
        options.generator = value();
      } else if (arg == "--n") {
        options.n = std::stoi(value());
      } else if (arg == "--matrix") {
        options.matrix_file = value();
      } else if (arg == "--all-shared") {
        options.all_shared = true;
        if (has_value && std::string(argv[i + 1]).rfind("--", 0) != 0) options.shared_dir = argv[++i];
      } else if (arg == "--repeats") {
        options.repeats = std::max(1, std::stoi(value()));
      } else if (arg == "--warmup") {
        options.warmup = std::max(0, std::stoi(value()));
      } else if (arg == "--min-sample-ms") {
        options.min_sample_ms = std::max(0.0, std::stod(value()));
      } else if (arg == "--vectors") {
        options.vectors = parse_int_list(value());
      } else if (arg == "--layouts") {
        options.layouts = parse_list(value(), {"left", "right"}, "--layouts");
      } else if (arg == "--algorithms") {
        options.algorithms =
            parse_list(value(), {"row_parallel", "merge_path", "automatic"}, "--algorithms");
      } else if (arg == "--no-spmv") {
        options.spmv = false;
      } else if (arg == "--beta") {
        options.beta = std::stod(value());
      } else if (arg == "--triad-mb") {
        options.triad_mb = std::max(1.0, std::stod(value()));
      } else if (arg == "--triad-repeats") {
        options.triad_repeats = std::max(1, std::stoi(value()));
      } else {
        std::cerr << kUsage;
        return arg == "--help" ? 0 : 2;
      }
    }
    return run(options);
  } catch (const std::exception& e) {
    JsonLine().add("bench", "spmv").add("kind", "error").add("message", e.what()).print();
    return 1;
  }
}
