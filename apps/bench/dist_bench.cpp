// kelp-bench-dist: the distributed SpMV (dist::DistCrsMatrix, overlapped halo exchange) and a
// distributed Jacobi-CG iteration on the 7-point Laplacian n^3, run under mpiexec. Only rank 0
// prints (JSON lines, apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}     STREAM triad run on all ranks at once (rank 0's line), plus
//   {"kind":"triad_all_ranks", ...} the sum of the ranks' median GB/s (the machine's roof for
//                             this rank count)
//   {"kind":"config", ...}    sizes, ranks, threads, halo volume and message counts per rank
//   {"kind":"spmv", ...}      median seconds per product (max over ranks of each repeat), GB/s,
//                             fraction of the all-ranks triad; a second, fenced pass splits it
//                             into pack / local / wait / ghost (medians of the per-repeat max
//                             over ranks; fencing makes their sum a little above the total)
//   {"kind":"cg", ...}        median seconds per CG iteration (Jacobi on the local blocks)
// Each rank generates only its own rows (contiguous blocks of the natural ordering).
// Effective bytes of y = A x: nnz * (8 + 4) + (N + 1) * 8 + 2 N * 8 (values and indices, row
// offsets, x read once, y written once), the same rule as kelp-bench-spmv; halo traffic is not
// counted (it is reported separately).
// Usage: mpiexec -n R kelp-bench-dist [--n 100] [--repeats 20] [--warmup 3] [--cg-iterations 50]
//        [--cg-repeats 3] [--triad-mb 0] [--triad-repeats 10]
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/kernels/core/scope_guard.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::dist::GlobalOrdinal;

struct Options {
  long long n = 100;
  long long nz = 0;  ///< 0: n (a cube); weak scaling grows nz with the ranks
  int repeats = 20;
  int warmup = 3;
  int cg_iterations = 50;
  int cg_repeats = 3;
  double triad_mb = 0;
  int triad_repeats = 10;
};

long long nz_of(const Options& o) { return o.nz > 0 ? o.nz : o.n; }

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

/// Max over ranks of a local value.
double max_over_ranks(double v, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, comm);
  return v;
}

template <class T>
std::vector<T> gather_to_root(T v, MPI_Datatype type, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<T> all(static_cast<std::size_t>(ranks));
  MPI_Gather(&v, 1, type, all.data(), 1, type, 0, comm);
  return all;
}

int run(const Options& o, MPI_Comm comm) {
  const int rank = rank_of(comm);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const bool root = rank == 0;
  std::ostringstream sink;  // other ranks' lines go nowhere
  std::ostream& out = root ? std::cout : sink;

  // Triad on all ranks at once: the bandwidth roof for this number of ranks.
  MPI_Barrier(comm);
  const auto triad = [&] {
    // The other ranks' triad lines go to the sink; std::cout gets its buffer back also when the
    // triad throws (left pointing at the dead sink, it crashed the exit's flush).
    struct Redirect {
      std::streambuf* saved;
      ~Redirect() { std::cout.rdbuf(saved); }
    } redirect{std::cout.rdbuf()};
    if (!root) std::cout.rdbuf(sink.rdbuf());
    return kelp::bench::measure_triad("dist", o.triad_mb, o.triad_repeats);
  }();
  double triad_sum = triad.median_gbs;
  MPI_Allreduce(MPI_IN_PLACE, &triad_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  kelp::bench::print_json_line(Json{{"bench", "dist"}, {"kind", "triad_all_ranks"}, {"ranks", ranks},
                                    {"median_gbytes_per_s_sum", triad_sum}},
                               out);

  // Each rank generates only its rows (rows balanced over the ranks).
  const auto partition = kelp::dist::RowPartition::balanced(o.n * o.n * nz_of(o), ranks);
  auto A = std::make_shared<kelp::dist::DistCrsMatrix<double>>(
      comm, kelp::dist::laplace3d<double>(o.n, o.n, nz_of(o), partition, rank));
  const GlobalOrdinal N = A->global_rows();
  long long nnz = A->local_nnz();
  MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPI_LONG_LONG, MPI_SUM, comm);
  const auto ghosts = gather_to_root<int>(A->num_ghosts(), MPI_INT, comm);
  const auto ghost_rows = gather_to_root<int>(A->num_ghost_rows(), MPI_INT, comm);
  const auto sends = gather_to_root<int>(A->halo().num_send(), MPI_INT, comm);
  const auto messages = gather_to_root<int>(A->halo().num_messages(), MPI_INT, comm);
  kelp::bench::print_json_line(
      Json{{"bench", "dist"}, {"kind", "config"}, {"generator", "laplace3d"}, {"n", o.n}, {"nz", nz_of(o)}, {"rows", N},
           {"nnz", nnz}, {"ranks", ranks}, {"threads_per_rank", Kokkos::DefaultExecutionSpace().concurrency()},
           {"execution_space", Kokkos::DefaultExecutionSpace::name()}, {"cpu", kelp::bench::cpu_model()},
           {"ghosts_received_per_rank", ghosts}, {"entries_sent_per_rank", sends},
           {"messages_sent_per_rank", messages}, {"ghost_rows_per_rank", ghost_rows},
           {"halo_bytes_sent_per_rank_per_product",
            [&] {
              std::vector<long long> b;
              for (int s : sends) b.push_back(8LL * s);
              return b;
            }()},
           {"repeats", o.repeats}},
      out);

  kelp::VectorView<double> x("x", static_cast<std::size_t>(A->num_local_cols())),
      y("y", static_cast<std::size_t>(A->num_local_rows()));
  Kokkos::deep_copy(x, 1.0);
  for (int w = 0; w < o.warmup; ++w) A->apply(x, y);
  std::vector<double> total;
  for (int r = 0; r < o.repeats; ++r) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    A->apply(x, y);
    Kokkos::fence();
    total.push_back(max_over_ranks(MPI_Wtime() - t0, comm));
  }
  // The split: a second pass with fences between the phases.
  std::vector<double> pack, local, wait, ghost, fenced;
  A->set_timing(true);
  for (int r = 0; r < o.repeats; ++r) {
    MPI_Barrier(comm);
    A->set_timing(true);
    A->apply(x, y);
    const auto t = A->times();
    pack.push_back(max_over_ranks(t.pack, comm));
    local.push_back(max_over_ranks(t.local, comm));
    wait.push_back(max_over_ranks(t.wait, comm));
    ghost.push_back(max_over_ranks(t.ghost, comm));
    fenced.push_back(max_over_ranks(t.total, comm));
  }
  A->set_timing(false);
  const double bytes = 12.0 * static_cast<double>(nnz) + 8.0 * static_cast<double>(N + 1) + 16.0 * static_cast<double>(N);
  const double t = median(total);
  kelp::bench::print_json_line(
      Json{{"bench", "dist"}, {"kind", "spmv"}, {"ranks", ranks}, {"n", o.n},
           {"median_s", number_or_null(t)}, {"min_s", number_or_null(kelp::bench::minimum(total))},
           {"effective_gbytes_per_s", number_or_null(bytes / t / 1e9)},
           {"fraction_of_triad_all_ranks", number_or_null(bytes / t / 1e9 / triad_sum)},
           {"split_median_s",
            Json{{"pack", median(pack)}, {"local", median(local)}, {"wait", median(wait)},
                 {"ghost", median(ghost)}, {"total_fenced", median(fenced)}}}},
      out);

  // Jacobi-CG on the same operator: seconds per iteration (fixed iteration count).
  auto op = std::make_shared<kelp::dist::DistOperator<double>>(A);
  auto M = std::make_shared<kelp::precond::Jacobi<kelp::CrsMatrix<double>>>();
  M->setup(A->local_block());
  kelp::solvers::CgParams params;
  params.max_iterations = o.cg_iterations;
  params.relative_tolerance = 1e-300;  // run every iteration
  kelp::solvers::Cg<double, kelp::DefaultDevice, kelp::dist::MpiReduction> cg(op, M, params, kelp::dist::MpiReduction(comm));
  std::vector<double> per_iteration;
  for (int r = 0; r <= o.cg_repeats; ++r) {
    Kokkos::deep_copy(x, 0.0);
    Kokkos::deep_copy(y, 1.0);
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    const auto result = cg.solve(y, x);
    Kokkos::fence();
    const double s = max_over_ranks(MPI_Wtime() - t0, comm);
    if (r > 0 && result.iterations > 0) per_iteration.push_back(s / result.iterations);  // first: warm-up
  }
  kelp::bench::print_json_line(Json{{"bench", "dist"}, {"kind", "cg"}, {"ranks", ranks}, {"n", o.n},
                                    {"iterations", o.cg_iterations},
                                    {"median_s_per_iteration", number_or_null(median(per_iteration))},
                                    {"note", "solve time includes the initial and final true residuals"}},
                               out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    kelp::bench::SplitArguments arguments(argc, argv);
    kelp::ScopeGuard kokkos(arguments.kokkos_argc(), arguments.kokkos_argv());
    Options o;
    CLI::App app{"kelp-bench-dist: distributed SpMV (local / ghost / wait split) and CG iteration", "kelp-bench-dist"};
    app.add_option("--n", o.n, "grid points per dimension (7-point Laplacian n^3)")->check(CLI::Range(2, 2000))->capture_default_str();
    app.add_option("--nz", o.nz, "grid points in z (0: n); n x n x nz grows with the ranks for weak scaling")
        ->check(CLI::Range(0, 1000000))->capture_default_str();
    app.add_option("--repeats", o.repeats, "timed products")->check(CLI::Range(1, 100000))->capture_default_str();
    app.add_option("--warmup", o.warmup, "untimed products first")->check(CLI::Range(0, 1000))->capture_default_str();
    app.add_option("--cg-iterations", o.cg_iterations, "CG iterations per solve")->check(CLI::Range(1, 100000))->capture_default_str();
    app.add_option("--cg-repeats", o.cg_repeats, "timed CG solves")->check(CLI::Range(1, 1000))->capture_default_str();
    app.add_option("--triad-mb", o.triad_mb, "triad array size in MB per rank (0: automatic)")
        ->check(kelp::bench::finite_range(0.0, 1e6))->capture_default_str();
    app.add_option("--triad-repeats", o.triad_repeats, "timed triads")->check(CLI::Range(1, 1000))->capture_default_str();
    std::ostringstream quiet;
    const bool root = rank_of(MPI_COMM_WORLD) == 0;
    status = kelp::bench::parse_command_line(app, arguments.args(), "usage: mpiexec -n R kelp-bench-dist [options]\n",
                                             root ? std::cout : quiet, root ? std::cerr : quiet);
    if (status < 0) {
      try {
        status = run(o, MPI_COMM_WORLD);
      } catch (const std::exception& e) {
        // The failing rank reports (it may be one rank alone, while the others wait in a
        // collective: MPI_Abort then ends them, instead of a hang).
        int ranks = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &ranks);
        kelp::bench::print_json_line(Json{{"bench", "dist"}, {"kind", "error"}, {"rank", rank_of(MPI_COMM_WORLD)},
                                          {"message", e.what()}});
        std::cout.flush();
        if (ranks > 1) MPI_Abort(MPI_COMM_WORLD, 1);
        status = 1;
      }
    }
  }
  MPI_Finalize();
  return status;
}
