// kelp-bench-sell: SELL-C-sigma SpMV / SpMMV (kernels/sell) against CRS SpMV (kernels/spmv, its
// automatic algorithm) on the same matrix and vectors, and against the STREAM triad of the run.
//
// JSON lines (apps/bench/bench_common.hpp; non-finite numbers are null):
//   {"kind":"triad", ...}        a(i) = b(i) + s*c(i) on arrays beyond the last-level cache
//   {"kind":"config", ...}       matrix, sizes, threads, execution space, CPU model, options
//   {"kind":"conversion", ...}   per SELL shape: seconds of to_sell, stored entries, chunk
//                                occupancy beta = nnz / stored (Kreutzer et al.), fill-in 1/beta
//   {"kind":"measurement", ...}  per (k, layout, format, shape, kernel): median and minimum
//                                seconds per product, GB/s, GFLOP/s, fraction of triad, and for
//                                SELL crs_over_sell = CRS median time / SELL median time (> 1:
//                                SELL is faster)
//   {"kind":"error", ...}        a SELL result that disagrees with CRS (no time reported)
//
// Bytes (the same minimum traffic as kelp-bench-spmv, so GB/s compare across formats):
//   nnz * (8 + 4) + (num_rows + 1) * 8 + k * (num_cols + num_rows) * 8      (double, y = A x)
// "sell_bytes" adds what SELL really streams: stored entries (padding) * 12 + 4 bytes of row
// length and 4 of permutation per row + 8 per chunk offset, instead of the CRS row offsets.
// Timing: warm-up, one verified product (y poisoned with NaN first), then `repeats` samples of
// back-to-back products lasting at least --min-sample-ms each; medians over the samples.
// Verification: |y_sell - y_crs|_i <= 1e-12 * sum_j |a_ij| |x_j| for every row and column.
//
// Usage: kelp-bench-sell [--generator laplace3d|laplace3d_27pt] [--n 100] [--matrix FILE]
//        [--C 32] [--sigma 1,256] [--vectors 1,8,32] [--layouts left,right]
//        [--kernels rows,chunks,automatic] [--repeats 10] [--min-sample-ms 20]
//        [--triad-mb 0 (auto)] [--triad-repeats 10]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/sell/sell_spmv.hpp"
#include "kelp/kernels/sell/to_sell.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using Sell = kelp::kernels::SellMatrix<double>;
using kelp::kernels::SellAlgorithm;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  std::string matrix;  // a Matrix Market file instead of the generator
  std::string C = "32";
  std::string sigma = "1,256";
  std::string vectors = "1,8,32";
  std::string layouts = "left,right";
  std::string kernels = "rows,chunks,automatic";
  int repeats = 10;
  double min_sample_ms = 20;
  double triad_mb = 0;
  int triad_repeats = 10;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::vector<int> split_ints(const std::string& text, const char* option) {
  std::vector<int> values;
  for (const std::string& item : split(text)) {
    try {
      values.push_back(std::stoi(item));
    } catch (const std::exception&) {
      KELP_THROW(InvalidArgument, "kelp-bench-sell: " << option << ": '" << item << "' is not an integer");
    }
  }
  return values;
}

SellAlgorithm parse_kernel(const std::string& name) {
  if (name == "rows") return SellAlgorithm::rows;
  if (name == "chunks") return SellAlgorithm::chunks;
  if (name == "automatic") return SellAlgorithm::automatic;
  KELP_THROW(InvalidArgument,
             "kelp-bench-sell: --kernels: unknown kernel '" << name << "'; allowed: [rows, chunks, automatic]");
}

Matrix load(const Options& options, std::string& name) {
  if (!options.matrix.empty()) {
    name = options.matrix;
    return kelp::io::read_matrix_market<double>(options.matrix);
  }
  name = options.generator + "_" + std::to_string(options.n);
  const long long n = options.n;
  if (options.generator == "laplace3d_27pt") return kelp::generators::laplace3d_27pt<double>(n, n, n);
  return kelp::generators::laplace3d<double>(n, n, n);
}

double hashed_value(std::size_t i, std::size_t j) {
  return 0.5 + static_cast<double>((i * 2654435761u + j * 40503u) % 1000) / 1000.0;
}

/// Median seconds per call of `apply` over `repeats` samples of back-to-back calls lasting at
/// least min_sample_ms each (after a warm-up call), and the minimum.
template <class F>
std::pair<double, double> time_calls(const Options& options, const F& apply) {
  apply();
  Kokkos::fence();
  double probe = std::numeric_limits<double>::infinity();
  for (int r = 0; r < 3; ++r) {
    const auto start = kelp::bench::Clock::now();
    apply();
    Kokkos::fence();
    probe = std::min(probe, kelp::bench::seconds_since(start));
  }
  const long long calls = std::clamp<long long>(
      static_cast<long long>(std::ceil(options.min_sample_ms * 1e-3 / std::max(probe, 1e-9))), 1, 1000000);
  std::vector<double> samples;
  for (int r = 0; r < options.repeats; ++r) {
    const auto start = kelp::bench::Clock::now();
    for (long long c = 0; c < calls; ++c) apply();
    Kokkos::fence();
    samples.push_back(kelp::bench::seconds_since(start) / static_cast<double>(calls));
  }
  return {median(samples), kelp::bench::minimum(samples)};
}

/// Worst |y - y_ref|_i / (sum_j |a_ij| |x_j|) over rows and columns (NaN: infinity).
template <class Y>
double scaled_difference(const Y& y, const Y& y_ref, const std::vector<double>& scale, int k) {
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_ref);
  double worst = 0;
  const std::size_t n = a.extent(0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int j = 0; j < k; ++j) {
      const double d = std::abs(a(i, j) - b(i, j)) / std::max(scale[j * n + i], 1e-300);
      if (!(d <= worst)) worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
    }
  }
  return worst;
}

template <class Layout>
int run_block(const Options& options, const Matrix& A, const std::vector<std::pair<Sell, double>>& sells,
              const std::vector<std::string>& kernels, int k, const std::string& layout, double triad) {
  using View = Kokkos::View<double**, Layout>;
  const std::size_t n = A.num_rows(), m = A.num_cols();
  View x("x", m, k), y_crs("y_crs", n, k), y("y", n, k);
  auto xh = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j) xh(i, j) = hashed_value(i, j);
  Kokkos::deep_copy(x, xh);

  // sum_j |a_ij| |x_j| per row and column: the verification's scale.
  const auto H = kelp::to_host(A);
  std::vector<double> scale(n * k, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (kelp::Offset p = H.row_map()(i); p < H.row_map()(i + 1); ++p) {
      for (int j = 0; j < k; ++j) scale[j * n + i] += std::abs(H.values()(p)) * std::abs(xh(H.entries()(p), j));
    }
  }

  const double num_rows = n, num_cols = m, nnz = A.nnz();
  const double bytes = nnz * 12 + (num_rows + 1) * 8 + k * (num_cols + num_rows) * 8;
  const double flops = 2 * nnz * k;
  const auto report = [&](Json line, double t, double t_min) {
    line["median_s"] = number_or_null(t);
    line["min_s"] = number_or_null(t_min);
    line["gbytes_per_s"] = number_or_null(bytes / t / 1e9);
    line["gflops_per_s"] = number_or_null(flops / t / 1e9);
    line["fraction_of_triad"] = number_or_null(bytes / t / 1e9 / triad);
    return line;
  };

  kelp::kernels::SpmvHandle<Matrix> handle;
  const auto [t_crs, t_crs_min] = time_calls(options, [&] { kelp::kernels::spmv(handle, kelp::kernels::SpmvMode::no_transpose, 1.0, A, x, 0.0, y_crs); });
  print_json_line(report(Json{{"bench", "sell"}, {"kind", "measurement"}, {"k", k}, {"layout", layout},
                              {"format", "crs"}, {"kernel", kelp::kernels::to_string(handle.algorithm())},
                              {"bytes", bytes}},
                         t_crs, t_crs_min));

  int status = 0;
  for (const auto& entry : sells) {
    const Sell& S = entry.first;
    const double sell_bytes = static_cast<double>(S.stored_entries()) * 12 + num_rows * 8 +
                              (S.num_chunks() + 1.0) * 8 + k * (num_cols + num_rows) * 8;
    for (const std::string& kernel_name : kernels) {
      const SellAlgorithm kernel = parse_kernel(kernel_name);
      Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
      kelp::kernels::sell_spmv(1.0, S, x, 0.0, y, kernel);
      Kokkos::fence();
      const double difference = scaled_difference(y, y_crs, scale, k);
      Json line{{"bench", "sell"}, {"k", k}, {"layout", layout}, {"format", "sell"},
                {"shape", kelp::kernels::to_string(S.shape())}, {"C", S.shape().C}, {"sigma", S.shape().sigma},
                {"kernel", kernel_name}, {"chunk_occupancy", S.chunk_occupancy()}};
      if (!(difference <= 1e-12)) {
        line["kind"] = "error";
        line["scaled_difference_vs_crs"] = number_or_null(difference);
        line["message"] = "SELL and CRS disagree; no time reported";
        print_json_line(line);
        status = 1;
        continue;
      }
      const auto [t, t_min] = time_calls(options, [&] { kelp::kernels::sell_spmv(1.0, S, x, 0.0, y, kernel); });
      line["kind"] = "measurement";
      line["bytes"] = bytes;
      line["sell_bytes"] = sell_bytes;
      line = report(line, t, t_min);
      line["crs_over_sell"] = number_or_null(t_crs / t);
      print_json_line(line);
    }
  }
  return status;
}

int run(const Options& options) {
  const double triad = kelp::bench::measure_triad("sell", options.triad_mb, options.triad_repeats).median_gbs;
  std::string name;
  const Matrix A = load(options, name);
  const std::vector<std::string> kernels = split(options.kernels);
  for (const std::string& kernel : kernels) (void)parse_kernel(kernel);
  print_json_line(Json{{"bench", "sell"}, {"kind", "config"}, {"matrix", name}, {"num_rows", A.num_rows()},
                       {"num_cols", A.num_cols()}, {"nnz", static_cast<long long>(A.nnz())},
                       {"execution_space", Exec::name()}, {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()}, {"C", options.C}, {"sigma", options.sigma},
                       {"vectors", options.vectors}, {"layouts", options.layouts}, {"kernels", options.kernels},
                       {"repeats", options.repeats}, {"min_sample_ms", options.min_sample_ms}});

  std::vector<std::pair<Sell, double>> sells;
  for (int C : split_ints(options.C, "--C")) {
    for (int sigma : split_ints(options.sigma, "--sigma")) {
      if (sigma != 1 && sigma % C != 0) {  // not a SELL shape for this C
        print_json_line(Json{{"bench", "sell"}, {"kind", "skipped"}, {"C", C}, {"sigma", sigma},
                             {"reason", "sigma must be 1 or a multiple of C"}});
        continue;
      }
      Kokkos::fence();
      const auto start = kelp::bench::Clock::now();
      Sell S = kelp::kernels::to_sell(A, {C, sigma});
      const double seconds = kelp::bench::seconds_since(start);
      print_json_line(Json{{"bench", "sell"}, {"kind", "conversion"}, {"shape", kelp::kernels::to_string(S.shape())},
                           {"C", C}, {"sigma", sigma}, {"seconds", seconds},
                           {"stored_entries", static_cast<long long>(S.stored_entries())},
                           {"chunk_occupancy", S.chunk_occupancy()}, {"fill_in_ratio", S.fill_in_ratio()}});
      sells.emplace_back(S, seconds);
    }
  }

  int status = 0;
  for (int k : split_ints(options.vectors, "--vectors")) {
    KELP_REQUIRE(k >= 1, InvalidArgument, "kelp-bench-sell: --vectors: " << k << " < 1");
    for (const std::string& layout : split(options.layouts)) {
      if (layout == "left") {
        status |= run_block<Kokkos::LayoutLeft>(options, A, sells, kernels, k, layout, triad);
      } else if (layout == "right") {
        status |= run_block<Kokkos::LayoutRight>(options, A, sells, kernels, k, layout, triad);
      } else {
        KELP_THROW(InvalidArgument, "kelp-bench-sell: --layouts: unknown layout '" << layout
                                                                                      << "'; allowed: [left, right]");
      }
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "sell",
      "kelp-bench-sell: SELL-C-sigma SpMV/SpMMV against CRS SpMV and the triad",
      [&](CLI::App& app) {
        app.add_option("--generator", options.generator, "laplace3d or laplace3d_27pt")
            ->check(CLI::IsMember({"laplace3d", "laplace3d_27pt"}))
            ->capture_default_str();
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(1, 2000))->capture_default_str();
        app.add_option("--matrix", options.matrix, "Matrix Market file (real) instead of the generator");
        app.add_option("--C", options.C, "chunk heights, comma-separated (powers of two <= 1024)")->capture_default_str();
        app.add_option("--sigma", options.sigma, "sorting windows, comma-separated (1 or multiples of C)")
            ->capture_default_str();
        app.add_option("--vectors", options.vectors, "vector counts k, comma-separated")->capture_default_str();
        app.add_option("--layouts", options.layouts, "left, right or both")->capture_default_str();
        app.add_option("--kernels", options.kernels, "rows, chunks, automatic")->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed samples")->check(CLI::Range(1, 100000))->capture_default_str();
        app.add_option("--min-sample-ms", options.min_sample_ms, "minimum length of one sample")
            ->check(CLI::Range(0.0, 1e6))
            ->capture_default_str();
        app.add_option("--triad-mb", options.triad_mb, "triad array size in MB (0: automatic)")->check(kelp::bench::finite_range(0.0, 1e6))->capture_default_str();
        app.add_option("--triad-repeats", options.triad_repeats, "triad runs")->check(CLI::Range(1, 1000))->capture_default_str();
      },
      [&] { return run(options); });
}
