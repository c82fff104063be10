// kelp-bench-sort: sorting CRS rows by column (kernels::sort_rows) when some rows are longer than
// a team sorts, and the plain-array sort kernels::sort_keys_values (issue 8).
//
// The matrix: `--short-rows` rows of 1..32 random columns plus `--long-rows` rows of
// `--row-length` random columns (values alongside, double). Each long-row method sorts the same
// unsorted copy (restored before every repeat, outside the timing):
//   "automatic"  sort_rows as users call it (merge sort per row on CPUs, bitonic network on GPUs)
//   "bitonic"    the global-memory bitonic network over all long rows (every thread, every step)
//   "merge"      one thread per long row, bottom-up merge sort
//   "heap"       one thread per long row, in-place heapsort: the fallback before issue 8
// and, for the plain array of `--keys` random keys with double values: "array_<method>"
// (sort_keys_values) and "std_sort" (std::sort of (key, value) pairs on the host, one thread).
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}   the STREAM triad of the same run (context)
//   {"kind":"config", ...}  threads, execution space, CPU, sizes, repeats
//   {"kind":"result", ...}  one per method: median and min wall ms over the repeats (the fence
//                           included), median process CPU ms, Mkeys/s = sorted entries / median,
//                           whether the result was checked sorted
//
// Usage: kelp-bench-sort [--long-rows 4] [--row-length 100000] [--short-rows 100000]
//                        [--keys 1000000] [--repeats 7]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/sparse/sort_keys_values.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::minimum;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using kelp::kernels::impl::LongRowSort;

struct Options {
  int long_rows = 4;
  int row_length = 100000;
  int short_rows = 100000;
  long long keys = 1000000;
  int repeats = 7;
};

Matrix unsorted_matrix(const Options& options) {
  std::mt19937 rng(2026);
  const int num_rows = options.short_rows + options.long_rows;
  const int num_cols = std::max(options.row_length, 64) * 2;
  std::uniform_int_distribution<int> col(0, num_cols - 1);
  std::uniform_int_distribution<int> short_length(1, 32);
  std::vector<long long> lengths(static_cast<std::size_t>(num_rows));
  for (int i = 0; i < num_rows; ++i) lengths[i] = short_length(rng);
  // The long rows spread through the matrix.
  for (int r = 0; r < options.long_rows; ++r) lengths[static_cast<std::size_t>(r) * num_rows / options.long_rows] = options.row_length;
  Matrix::row_map_type row_map("row_map", num_rows + 1);
  auto row_map_h = Kokkos::create_mirror_view(row_map);
  row_map_h(0) = 0;
  for (int i = 0; i < num_rows; ++i) row_map_h(i + 1) = row_map_h(i) + lengths[i];
  const auto nnz = static_cast<std::size_t>(row_map_h(num_rows));
  Matrix::entries_type entries("entries", nnz);
  Matrix::values_type values("values", nnz);
  auto entries_h = Kokkos::create_mirror_view(entries);
  auto values_h = Kokkos::create_mirror_view(values);
  for (std::size_t k = 0; k < nnz; ++k) {
    entries_h(k) = col(rng);
    values_h(k) = entries_h(k) + 0.5;
  }
  Kokkos::deep_copy(row_map, row_map_h);
  Kokkos::deep_copy(entries, entries_h);
  Kokkos::deep_copy(values, values_h);
  return Matrix(num_rows, num_cols, row_map, entries, values);
}

bool rows_sorted(const Matrix& A) {
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());
  for (kelp::Ordinal i = 0; i < A.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      if (values(k) != entries(k) + 0.5) return false;
      if (k > row_map(i) && entries(k) < entries(k - 1)) return false;
    }
  }
  return true;
}

void print_result(const std::string& method, const kelp::bench::Samples& samples, double sorted_entries, bool checked) {
  print_json_line(Json{{"bench", "sort"},
                       {"kind", "result"},
                       {"method", method},
                       {"median_ms", number_or_null(1e3 * median(samples.wall))},
                       {"min_ms", number_or_null(1e3 * minimum(samples.wall))},
                       {"median_cpu_ms", number_or_null(1e3 * median(samples.cpu))},
                       {"mkeys_per_s", number_or_null(sorted_entries / median(samples.wall) / 1e6)},
                       {"sorted", checked}});
}

/// Times `sort` on a fresh unsorted copy (restored untimed before each repeat).
template <class Restore, class Sort>
kelp::bench::Samples time_sort(int repeats, const Restore& restore, const Sort& sort) {
  kelp::bench::Samples samples;
  for (int r = 0; r < repeats; ++r) {
    restore();
    Kokkos::fence();
    const auto one = kelp::bench::time_runs(1, [&] {
      sort();
      Kokkos::fence();
    });
    samples.wall.push_back(one.wall[0]);
    samples.cpu.push_back(one.cpu[0]);
  }
  return samples;
}

std::pair<const char*, LongRowSort> const kMethods[] = {{"automatic", LongRowSort::automatic},
                                                         {"bitonic", LongRowSort::bitonic},
                                                         {"merge", LongRowSort::merge},
                                                         {"heap", LongRowSort::heap}};

void run_rows(const Options& options) {
  const Matrix original = unsorted_matrix(options);
  Matrix A = unsorted_matrix(options);
  const double sorted_entries = static_cast<double>(A.nnz());
  const Exec exec;
  for (const auto& entry : kMethods) {  // no structured binding: lambdas capture it only from C++20
    const char* const name = entry.first;
    const LongRowSort method = entry.second;
    const auto restore = [&] {
      Kokkos::deep_copy(A.entries(), original.entries());
      Kokkos::deep_copy(A.values(), original.values());
    };
    const auto sort = [&] {
      kelp::kernels::impl::sort_crs_rows(exec, A.num_rows(), A.row_map(), A.entries(), A.values(), true, method);
    };
    const auto samples = time_sort(options.repeats, restore, sort);
    print_result(name, samples, sorted_entries, rows_sorted(A));
  }
}

void run_array(const Options& options) {
  const auto n = static_cast<std::size_t>(options.keys);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(0, 1 << 30);
  Kokkos::View<int*> keys0("keys0", n), keys("keys", n);
  Kokkos::View<double*> values0("values0", n), values("values", n);
  auto keys_h = Kokkos::create_mirror_view(keys0);
  auto values_h = Kokkos::create_mirror_view(values0);
  for (std::size_t k = 0; k < n; ++k) {
    keys_h(k) = dist(rng);
    values_h(k) = keys_h(k) + 0.5;
  }
  Kokkos::deep_copy(keys0, keys_h);
  Kokkos::deep_copy(values0, values_h);
  const Exec exec;
  for (const auto& entry : kMethods) {
    const char* const name = entry.first;
    const LongRowSort method = entry.second;
    if (method == LongRowSort::heap) continue;  // not offered for arrays
    const auto restore = [&] {
      Kokkos::deep_copy(keys, keys0);
      Kokkos::deep_copy(values, values0);
    };
    const auto samples = time_sort(options.repeats, restore, [&] {
      kelp::kernels::sort_keys_values(exec, keys, values, method);
    });
    auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
    print_result(std::string("array_") + name, samples, static_cast<double>(n), std::is_sorted(out.data(), out.data() + n));
  }
  std::vector<std::pair<int, double>> pairs(n);
  const auto samples = kelp::bench::time_runs(options.repeats, [&] {
    for (std::size_t k = 0; k < n; ++k) pairs[k] = {keys_h(k), values_h(k)};
    std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  });
  print_result("std_sort", samples, static_cast<double>(n),
               std::is_sorted(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; }));
}

int run(const Options& options) {
  (void)kelp::bench::measure_triad("sort", 0, 10);
  print_json_line(Json{{"bench", "sort"},
                       {"kind", "config"},
                       {"long_rows", options.long_rows},
                       {"row_length", options.row_length},
                       {"short_rows", options.short_rows},
                       {"keys", options.keys},
                       {"repeats", options.repeats},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()}});
  run_rows(options);
  if (options.keys > 0) run_array(options);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "sort", "kelp-bench-sort: CRS row sort with long rows, and the device-wide array sort",
      [&](CLI::App& app) {
        app.add_option("--long-rows", options.long_rows, "rows of --row-length entries")->check(CLI::Range(0, 1 << 20));
        app.add_option("--row-length", options.row_length, "entries of each long row")->check(CLI::Range(1025, 1 << 28));
        app.add_option("--short-rows", options.short_rows, "rows of 1..32 entries")->check(CLI::Range(0, 1 << 28));
        app.add_option("--keys", options.keys, "length of the plain array (0: skip it)")->check(CLI::Range(0LL, 1LL << 32));
        app.add_option("--repeats", options.repeats, "timed runs per method (median reported)")->check(CLI::Range(1, 1000));
      },
      [&] { return run(options); });
}
