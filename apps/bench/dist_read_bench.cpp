// kelp-bench-dist-read: the distributed Matrix Market reader (issue 14) against the serial one.
//
// Under mpirun with p ranks it times, `repeats` times each, interleaved:
//   serial       kelp::io::read_matrix_market (host CRS) on rank 0 while the others wait
//   distributed  kelp::dist::read_matrix_market on every rank (the slowest rank's time)
// for a plain and a gzip copy of the 7-point Laplacian n^3 (written once into --dir by rank 0
// unless present) or for --matrix FILE. JSON lines on rank 0 (apps/bench/bench_common.hpp):
//   {"kind":"config", ...}       file, bytes on disk, ranks, threads, CPU model
//   {"kind":"measurement", ...}  reader, ranks, median and minimum seconds, MB of file per second
//
// Usage: mpirun -n P kelp-bench-dist-read [--n 100] [--dir /tmp] [--matrix FILE] [--repeats 5]

#include <mpi.h>
#include <sys/stat.h>

#include <Kokkos_Core.hpp>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/read_matrix_market.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

namespace {

using kelp::bench::Json;

std::int64_t file_bytes(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 ? static_cast<std::int64_t>(status.st_size) : -1;
}

/// Whether an existing generated file has the header of the n^3 Laplacian (an interrupted run
/// can leave a truncated one; the full read then names the problem).
bool reusable(const std::string& file, long long n) {
  try {
    const auto info = kelp::io::read_matrix_market_info(file);
    return info.num_rows == n * n * n && info.num_cols == n * n * n;
  } catch (const kelp::Error&) {
    return false;
  }
}

/// The slowest rank's wall seconds of `function` (a collective).
template <class Function>
double time_collective(const Function& function) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = kelp::bench::Clock::now();
  function();
  double mine = kelp::bench::seconds_since(start), slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int run(int argc, char** argv) {
  CLI::App app("kelp-bench-dist-read: distributed vs serial Matrix Market read", "kelp-bench-dist-read");
  long long n = 100;
  int repeats = 5;
  std::string dir = "/tmp", matrix;
  app.add_option("--n", n, "grid points per direction of the generated 7-point Laplacian")
      ->check(CLI::Range(1LL, 2000LL))->capture_default_str();
  app.add_option("--dir", dir, "folder for the generated files (kept for later runs)")->capture_default_str();
  app.add_option("--matrix", matrix, "read this real Matrix Market file instead of the generated ones");
  app.add_option("--repeats", repeats, "timed runs per reader")->check(CLI::Range(1, 100000))->capture_default_str();
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::ostringstream quiet;  // one usage message, from rank 0
  const int status = kelp::bench::parse_command_line(app, args, "usage: mpiexec -n R kelp-bench-dist-read [options]\n",
                                                     rank == 0 ? std::cout : quiet, rank == 0 ? std::cerr : quiet);
  if (status >= 0) return status;
  // Work that only rank 0 does (writing the files, the serial read) runs inside collective_try:
  // when it fails, every rank stops with its message instead of waiting in the next collective.
  constexpr const char* where = "kelp-bench-dist-read";

  std::vector<std::string> files;
  if (!matrix.empty()) {
    files.push_back(matrix);
  } else {
    const std::string base = dir + "/kelp_laplace3d_" + std::to_string(n) + ".mtx";
    files = {base, base + ".gz"};
    kelp::dist::collective_try(MPI_COMM_WORLD, where, [&] {
      if (rank != 0) return;
      for (const auto& file : files) {
        // A file from an earlier run is reused when it reads as the same matrix's header.
        if (file_bytes(file) > 0 && reusable(file, n)) continue;
        const auto A = kelp::generators::laplace3d<double, kelp::HostDevice>(n, n, n);
        kelp::io::MatrixMarketWriteOptions options;
        options.symmetry = kelp::io::MatrixMarketSymmetry::symmetric;
        kelp::io::write_matrix_market(file, A, options);
      }
    });
  }

  for (const auto& file : files) {
    if (rank == 0) {
      Json config{{"bench", "dist_read"}, {"kind", "config"},  {"file", file}, {"bytes", file_bytes(file)}, {"ranks", size},
                  {"threads", Kokkos::DefaultHostExecutionSpace::concurrency()},
                  {"cpu", kelp::bench::cpu_model()}, {"repeats", repeats}};
      kelp::bench::print_json_line(config);
    }
    std::vector<double> serial, distributed;
    for (int r = 0; r < repeats; ++r) {  // interleaved, so that load drift hits both alike
      const auto s = time_collective([&] {
        kelp::dist::collective_try(MPI_COMM_WORLD, where, [&] {
          if (rank == 0) kelp::io::read_matrix_market<double, kelp::Ordinal, kelp::Offset, kelp::HostDevice>(file);
        });
      });
      serial.push_back(s);
      const auto d = time_collective([&] { kelp::dist::read_matrix_market<double>(file, MPI_COMM_WORLD); });
      distributed.push_back(d);
    }
    if (rank == 0) {
      const double megabytes = static_cast<double>(file_bytes(file)) / 1e6;
      for (const auto& [reader, times] : {std::make_pair("serial", serial), std::make_pair("distributed", distributed)}) {
        Json line{{"bench", "dist_read"},
                  {"kind", "measurement"},
                  {"file", file},
                  {"reader", reader},
                  {"ranks", size},
                  {"median_s", kelp::bench::number_or_null(kelp::bench::median(times))},
                  {"min_s", kelp::bench::number_or_null(kelp::bench::minimum(times))},
                  {"file_mb_per_s", kelp::bench::number_or_null(megabytes / kelp::bench::median(times))}};
        kelp::bench::print_json_line(line);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos;
    try {
      status = run(argc, argv);
    } catch (const std::exception& e) {
      // Errors of the collective parts reach every rank alike: rank 0 prints them.
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) std::cerr << "kelp-bench-dist-read: " << e.what() << "\n";
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
