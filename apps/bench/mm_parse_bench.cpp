// kelp-bench-mm: Matrix Market parse speed.
//
// Writes a generated 3D 7-point Laplacian (n^3 rows, about 7 n^3 entries) as plain and as gzip
// Matrix Market to a temporary folder, then parses each file `repeat` times, and does the same
// for every *.mtx / *.mtx.gz in a matrix folder. Two stages are timed per file:
//   parse_coo: io::read_matrix_market_coo (text -> host triplets; the parser alone)
//   read_crs:  io::read_matrix_market<double> (parse + crs_from_coo assembly)
// Output: one JSON line for the configuration, then one per (file, stage) with the median and
// minimum wall seconds, the median CPU seconds of the process (robust on a shared machine),
// MB/s of uncompressed text and million stored entries per second (by wall and by CPU time).
// JSON lines: see apps/bench/bench_common.hpp (non-finite numbers are written as null).
//
// Usage: kelp-bench-mm [--n 100] [--repeat 5] [--matrices DIR] [--work-dir DIR] [--keep]
//   --n N           Laplacian grid points per dimension (n^3 rows); 0 (or less) skips it
//   --repeat N      parses per file and stage, at least 1
//   --matrices DIR  every *.mtx / *.mtx.gz in it is parsed too; default $KELP_MATRICES_DIR, else
//                   test/data/matrices; empty or not a folder: none
//   --work-dir DIR  where the generated files go; default a fresh temporary folder (removed after)
//   --keep          keep the generated files
// `kelp-bench-mm --help` prints the same with the defaults. The last of a repeated option wins;
// Kokkos sees only the --kokkos-* arguments.
// Exit status: 0 all well; 1 a file could not be written or read (message on stderr); 2 a bad
// command line (unknown option, missing or bad value: one error line naming the option and the
// value, and a short usage, on stderr).

#include <stdlib.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/kernels/core/scope_guard.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/apps/driver/run/thread_binding.hpp"

namespace {

namespace fs = std::filesystem;
using kelp::io::MatrixMarketField;
using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;

struct BenchConfig {
  int n = 100;                 // Laplacian grid points per dimension: 100^3 rows, ~7e6 entries
  int repeat = 5;              // parses per file and stage; the median is reported
  std::string matrices_dir;    // every *.mtx(.gz) in it is parsed too; empty: skip
  std::string work_dir;        // where the generated files go; empty: a fresh temp folder
  bool keep = false;           // keep the generated files
};

/// Size of the decompressed content (equals the file size for plain files).
std::int64_t text_bytes(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return -1;
  std::vector<char> buffer(1 << 22);
  std::int64_t total = 0;
  int count = 0;
  while ((count = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) {
    total += count;
  }
  gzclose(file);
  return total;
}

/// 7-point Laplacian on an n x n x n grid (Dirichlet boundary), assembled directly in CRS.
kelp::CrsMatrix<double, kelp::Ordinal, kelp::Offset, kelp::HostDevice> laplace3d(int n) {
  using Matrix = kelp::CrsMatrix<double, kelp::Ordinal, kelp::Offset, kelp::HostDevice>;
  const kelp::Ordinal num_rows = n * n * n;
  const kelp::Offset nnz = 7 * kelp::Offset(n) * n * n - 6 * kelp::Offset(n) * n;
  typename Matrix::row_map_type row_map("row_map", num_rows + 1);
  typename Matrix::entries_type entries("entries", nnz);
  typename Matrix::values_type values("values", nnz);
  kelp::Offset k = 0;
  for (int z = 0; z < n; ++z) {
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        const kelp::Ordinal row = x + n * (y + n * z);
        const auto add = [&](kelp::Ordinal col, double value) {
          entries(k) = col;
          values(k) = value;
          ++k;
        };
        if (z > 0) add(row - n * n, -1.0);
        if (y > 0) add(row - n, -1.0);
        if (x > 0) add(row - 1, -1.0);
        add(row, 6.0);
        if (x < n - 1) add(row + 1, -1.0);
        if (y < n - 1) add(row + n, -1.0);
        if (z < n - 1) add(row + n * n, -1.0);
        row_map(row + 1) = k;
      }
    }
  }
  return Matrix(num_rows, num_rows, row_map, entries, values);
}

void bench_file(const std::string& path, const std::string& label, int repeat) {
  const auto info = kelp::io::read_matrix_market_info(path);
  const std::int64_t bytes = text_bytes(path);
  const std::int64_t disk_bytes = static_cast<std::int64_t>(fs::file_size(path));
  const bool complex = info.field == MatrixMarketField::complex;

  std::int64_t checksum = 0;  // keeps the reads observable
  const auto parse_coo = [&] { checksum += kelp::io::read_matrix_market_coo(path).rows.size(); };
  const auto read_crs = [&] {
    if (complex) {
      checksum += kelp::io::read_matrix_market<Kokkos::complex<double>>(path).nnz();
    } else {
      checksum += kelp::io::read_matrix_market<double>(path).nnz();
    }
  };
  for (const auto& [stage, function] :
       {std::pair<const char*, std::function<void()>>{"parse_coo", parse_coo},
        std::pair<const char*, std::function<void()>>{"read_crs", read_crs}}) {
    const kelp::bench::Samples samples = kelp::bench::time_runs(repeat, function);
    const double wall = median(samples.wall);
    const double cpu = median(samples.cpu);
    const double entries = static_cast<double>(info.num_stored_entries);
    print_json_line(Json{{"bench", "mm_parse"},
                         {"file", label},
                         {"stage", stage},
                         {"format", kelp::io::to_string(info.format)},
                         {"field", kelp::io::to_string(info.field)},
                         {"symmetry", kelp::io::to_string(info.symmetry)},
                         {"rows", static_cast<long long>(info.num_rows)},
                         {"stored_entries", static_cast<long long>(info.num_stored_entries)},
                         {"text_bytes", static_cast<long long>(bytes)},
                         {"disk_bytes", static_cast<long long>(disk_bytes)},
                         {"repeat", repeat},
                         {"median_s", number_or_null(wall)},
                         {"min_s", number_or_null(kelp::bench::minimum(samples.wall))},
                         {"cpu_median_s", number_or_null(cpu)},
                         {"mb_per_s", number_or_null(bytes / wall / 1e6)},
                         {"mentries_per_s", number_or_null(entries / wall / 1e6)},
                         {"cpu_mb_per_s", number_or_null(bytes / cpu / 1e6)},
                         {"cpu_mentries_per_s", number_or_null(entries / cpu / 1e6)}});
  }
  if (checksum < 0) std::cout << "unreachable\n";
}

int run(const BenchConfig& config) {
  std::string work_dir = config.work_dir;
  bool made_work_dir = false;
  if (work_dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "kelp-bench-mm-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::cerr << "kelp-bench-mm: cannot create a temporary folder\n";
      return 1;
    }
    work_dir = pattern;
    made_work_dir = true;
  }
  print_json_line(Json{{"bench", "mm_parse"},
                       {"config",
                        {{"n", config.n},
                         {"repeat", config.repeat},
                         {"matrices", config.matrices_dir},
                         {"work_dir", work_dir},
                         {"keep", config.keep},
                         {"cpu", kelp::bench::cpu_model()}}}});

  if (config.n > 0) {
    const auto A = laplace3d(config.n);
    const std::string name = "laplace3d_" + std::to_string(config.n) + ".mtx";
    for (const std::string& file : {name, name + ".gz"}) {
      const std::string path = (fs::path(work_dir) / file).string();
      const auto start = kelp::bench::Clock::now();
      kelp::io::write_matrix_market(path, A);
      const double seconds = kelp::bench::seconds_since(start);
      print_json_line(Json{{"bench", "mm_parse"},
                           {"file", file},
                           {"stage", "write"},
                           {"stored_entries", static_cast<long long>(A.nnz())},
                           {"disk_bytes", static_cast<long long>(fs::file_size(path))},
                           {"seconds", number_or_null(seconds)}});
      bench_file(path, file, config.repeat);
    }
  }

  if (!config.matrices_dir.empty() && fs::is_directory(config.matrices_dir)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(config.matrices_dir)) {
      const std::string name = entry.path().filename().string();
      const bool mtx = name.size() > 4 && name.compare(name.size() - 4, 4, ".mtx") == 0;
      const bool mtx_gz = name.size() > 7 && name.compare(name.size() - 7, 7, ".mtx.gz") == 0;
      if (entry.is_regular_file() && (mtx || mtx_gz)) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) bench_file(file.string(), file.filename().string(), config.repeat);
  }

  if (made_work_dir && !config.keep) fs::remove_all(work_dir);
  return 0;
}

const char* kUsage =
    "usage: kelp-bench-mm [--n 100] [--repeat 5] [--matrices DIR] [--work-dir DIR] [--keep]\n"
    "       (run 'kelp-bench-mm --help' for what they do)\n";

/// Parses the command line into `config` (CLI11); -1: run, otherwise the exit status (0 after
/// --help).
int parse_config(const std::vector<std::string>& args, BenchConfig& config) {
  CLI::App app{"kelp-bench-mm: Matrix Market parse speed. Writes a generated 3D 7-point Laplacian\n"
               "as plain and gzip Matrix Market, parses each file (and every *.mtx / *.mtx.gz of\n"
               "--matrices) --repeat times in two stages, parse_coo (the parser alone) and\n"
               "read_crs (parse + CRS assembly), and prints one JSON line per (file, stage).",
               "kelp-bench-mm"};
  app.footer(
      "Kokkos options: --kokkos-* (e.g. --kokkos-threads=2).\n"
      "Exit codes: 0 all well, 1 a file could not be written or read, 2 a bad command line.");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // last one wins
  app.add_option("--n", config.n,
                 "grid points per dimension of the generated Laplacian\n"
                 "(n^3 rows, about 7 n^3 entries); 0 skips it")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->check(CLI::Validator(
          [](std::string& text) { return text.find('-') == std::string::npos ? "" : "'" + text + "' is negative"; }, ""))
      ->capture_default_str();
  app.add_option("--repeat", config.repeat, "parses per file and stage (at least 1)")
      ->type_name("N")
      ->check(kelp::bench::integer_value())
      ->capture_default_str();
  app.add_option("--matrices", config.matrices_dir,
                 "every *.mtx / *.mtx.gz in DIR is parsed too (default:\n"
                 "$KELP_MATRICES_DIR, else the repository's test/data/matrices);\n"
                 "'' (or not a folder): none")
      ->type_name("DIR")
      ->capture_default_str();
  app.add_option("--work-dir", config.work_dir,
                 "where the generated files go\n"
                 "(default: a fresh temporary folder, removed afterwards)")
      ->type_name("DIR");
  app.add_flag("--keep", config.keep, "keep the generated files");
  const int status = kelp::bench::parse_command_line(app, args, kUsage);
  if (status >= 0) return status;
  config.repeat = std::max(1, config.repeat);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  kelp::solvers::bind_threads_or_restart(argv);  // bound threads, and no warning in the JSON
  kelp::bench::SplitArguments arguments(argc, argv);
  kelp::ScopeGuard kokkos(arguments.kokkos_argc(), arguments.kokkos_argv());
  BenchConfig config;
  if (const char* env = std::getenv("KELP_MATRICES_DIR")) {
    config.matrices_dir = env;
  } else {
    config.matrices_dir = KELP_BENCH_DEFAULT_MATRICES_DIR;
  }
  if (const int status = parse_config(arguments.args(), config); status >= 0) return status;
  try {
    return run(config);
  } catch (const std::exception& e) {
    std::cerr << "kelp-bench-mm: " << e.what() << "\n";
    return 1;
  }
}
