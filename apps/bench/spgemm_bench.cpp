// kelp-bench-spgemm: SpGEMM on the 7-point 3D Laplacian (and optionally the repository's
// matrices): symbolic, numeric, numeric-reuse and total times of A·A; the Jacobi-fused
// prolongator smoothing (I − ω D⁻¹A)·P against the unfused D⁻¹A, A·P, SpAdd chain; the Galerkin
// triple product PᵀAP with P from aggregating 2×2×2 blocks. Peers in the same run: Eigen's sparse
// product (CPU builds with Eigen; A·A and PᵀAP), Kokkos Kernels' SpGEMM (KELP_HAVE_KOKKOSKERNELS:
// peer builds against the system Kokkos; A·A and PᵀAP, with numeric reuse) and cuSPARSE's SpGEMM
// (KELP_HAVE_CUSPARSE: CUDA builds; A·A one-shot and with cusparseSpGEMMreuse).
// Medians over the repeats (wall and process CPU seconds), all in the same run.
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}     STREAM triad of the machine, for context
//   {"kind":"config", ...}    sizes, threads, execution space
//   {"kind":"spgemm", ...}    one per (matrix, product, implementation): median seconds of the
//                             phases, GFLOP/s = 2 multiply-adds / total, reuse/total ratio
//   {"kind":"jacobi", ...}    fused and unfused smoothed prolongator: numeric and total seconds
//   {"kind":"triple", ...}    PᵀAP: total and numeric-reuse seconds
//
// Usage: kelp-bench-spgemm [--n 100] [--repeats 5] [--algorithm automatic|dense|hash]
//                          [--matrices bcsstk13,wing_lap] [--matrices-dir DIR] [--no-triad]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spadd/spadd.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"
#ifdef KELP_HAVE_EIGEN
#include <Eigen/SparseCore>
#endif
#ifdef KELP_HAVE_CUSPARSE
#include "kelp/apps/bench/cusparse_spgemm_peer.hpp"
#endif
#ifdef KELP_HAVE_KOKKOSKERNELS
#include <KokkosKernels_Handle.hpp>
#include <KokkosKernels_SparseUtils.hpp>
#include <KokkosSparse_spgemm.hpp>
#include <Trilinos_version.h>
#endif

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using kelp::kernels::SpgemmAlgorithm;
using kelp::kernels::SpgemmHandle;

struct Options {
  int n = 100;
  int repeats = 5;
  std::string algorithm = "automatic";
  std::string matrices;
  std::string matrices_dir = KELP_BENCH_DEFAULT_MATRICES_DIR;
  bool no_triad = false;
};

SpgemmAlgorithm algorithm_of(const std::string& name) {
  if (name == "dense") return SpgemmAlgorithm::dense;
  if (name == "hash") return SpgemmAlgorithm::hash;
  return SpgemmAlgorithm::automatic;
}

/// Median wall and CPU (process, all threads) seconds of one measurement. Converts to the wall
/// time; the CPU time is what other jobs on a shared machine disturb less (with one thread).
struct Timing {
  double wall = 0;
  double cpu = 0;
  operator double() const { return wall; }
};

/// Median seconds of f over `repeats` runs after one warm-up, fenced.
template <class F>
Timing median_seconds(int repeats, const F& f) {
  f();
  Kokkos::fence();
  std::vector<double> samples, cpu;
  for (int r = 0; r < repeats; ++r) {
    const double cpu_start = kelp::bench::cpu_seconds();
    const auto start = kelp::bench::Clock::now();
    f();
    Kokkos::fence();
    samples.push_back(kelp::bench::seconds_since(start));
    cpu.push_back(kelp::bench::cpu_seconds() - cpu_start);
  }
  return Timing{median(samples), median(cpu)};
}

/// Tentative prolongator of an n³ grid: each 2×2×2 block of points is one aggregate (value 1).
Matrix aggregation_prolongator(long long n) {
  const long long m = (n + 1) / 2;
  std::vector<kelp::Ordinal> rows, cols;
  std::vector<double> values;
  for (long long z = 0; z < n; ++z)
    for (long long y = 0; y < n; ++y)
      for (long long x = 0; x < n; ++x) {
        rows.push_back(static_cast<kelp::Ordinal>(x + n * (y + n * z)));
        cols.push_back(static_cast<kelp::Ordinal>(x / 2 + m * (y / 2 + m * (z / 2))));
        values.push_back(1.0);
      }
  return kelp::crs_from_coo<double>(static_cast<kelp::Ordinal>(n * n * n),
                                    static_cast<kelp::Ordinal>(m * m * m), rows, cols, values);
}

#ifdef KELP_HAVE_KOKKOSKERNELS
/// C = A·B through Kokkos Kernels (KokkosSparse::Experimental::spgemm_symbolic/_numeric, the
/// default algorithm, on Kelp's own arrays). The KokkosKernelsHandle keeps KK's symbolic state,
/// so numeric() again after new values is KK's numeric reuse. C's rows are not sorted by KK.
class KkProduct {
 public:
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<kelp::Offset, kelp::Ordinal, double, Exec,
                                                                  Matrix::memory_space, Matrix::memory_space>;
  void symbolic(const Matrix& A, const Matrix& B) {
    handle_.create_spgemm_handle(KokkosSparse::SPGEMM_DEFAULT);  // drops the previous one
    row_map_ = Matrix::row_map_type("kelp-bench-spgemm::kk_row_map", static_cast<std::size_t>(A.num_rows()) + 1);
    KokkosSparse::Experimental::spgemm_symbolic(&handle_, A.num_rows(), B.num_rows(), B.num_cols(), A.row_map(),
                                                A.entries(), false, B.row_map(), B.entries(), false, row_map_);
    const auto nnz = static_cast<std::size_t>(handle_.get_spgemm_handle()->get_c_nnz());
    entries_ = Matrix::entries_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp-bench-spgemm::kk_entries"), nnz);
    values_ = Matrix::values_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp-bench-spgemm::kk_values"), nnz);
  }
  void numeric(const Matrix& A, const Matrix& B) {
    KokkosSparse::Experimental::spgemm_numeric(&handle_, A.num_rows(), B.num_rows(), B.num_cols(), A.row_map(),
                                               A.entries(), A.values(), false, B.row_map(), B.entries(),
                                               B.values(), false, row_map_, entries_, values_);
  }
  long long nnz() const { return static_cast<long long>(entries_.extent(0)); }
  Matrix result(kelp::Ordinal num_rows, kelp::Ordinal num_cols) const {
    return Matrix(num_rows, num_cols, row_map_, entries_, values_);
  }

 private:
  Handle handle_;
  Matrix::row_map_type row_map_;
  Matrix::entries_type entries_;
  Matrix::values_type values_;
};

/// Pᵀ through Kokkos Kernels' own transpose (KokkosKernels::Impl::transpose_matrix; rows unsorted).
Matrix kk_transpose(const Matrix& P) {
  Matrix::row_map_type row_map("kelp-bench-spgemm::kk_transpose_row_map", static_cast<std::size_t>(P.num_cols()) + 1);
  Matrix::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp-bench-spgemm::kk_transpose_entries"),
                               P.nnz());
  Matrix::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp-bench-spgemm::kk_transpose_values"),
                             P.nnz());
  KokkosKernels::Impl::transpose_matrix<Matrix::row_map_type, Matrix::entries_type, Matrix::values_type,
                                        Matrix::row_map_type, Matrix::entries_type, Matrix::values_type,
                                        Matrix::row_map_type, Exec>(P.num_rows(), P.num_cols(), P.row_map(),
                                                                    P.entries(), P.values(), row_map, entries,
                                                                    values);
  return Matrix(P.num_cols(), P.num_rows(), row_map, entries, values);
}

std::string kk_version() { return std::string("Kokkos Kernels (Trilinos ") + TRILINOS_VERSION_STRING + ")"; }

void bench_kk_product(const Options& options, const std::string& name, const Matrix& A, const Matrix& B,
                      double flops, double kelp_total) {
  const Timing symbolic = median_seconds(options.repeats, [&] {
    KkProduct p;
    p.symbolic(A, B);
  });
  const Timing total = median_seconds(options.repeats, [&] {
    KkProduct p;
    p.symbolic(A, B);
    p.numeric(A, B);
  });
  KkProduct product;
  product.symbolic(A, B);
  product.numeric(A, B);
  const Timing reuse = median_seconds(options.repeats, [&] { product.numeric(A, B); });
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "spgemm"}, {"matrix", name}, {"product", "A*A"},
                       {"implementation", "kokkos_kernels"}, {"peer", kk_version()}, {"algorithm", "SPGEMM_DEFAULT"},
                       {"nnz_C", product.nnz()}, {"symbolic_s", number_or_null(symbolic)},
                       {"numeric_reuse_s", number_or_null(reuse)}, {"total_s", number_or_null(total)},
                       {"symbolic_cpu_s", number_or_null(symbolic.cpu)},
                       {"numeric_reuse_cpu_s", number_or_null(reuse.cpu)}, {"total_cpu_s", number_or_null(total.cpu)},
                       {"gflops_total", number_or_null(flops / total / 1e9)},
                       {"reuse_over_total", number_or_null(reuse / total)},
                       {"kelp_total_over_kk", number_or_null(kelp_total / total)}, {"threads", Exec().concurrency()}});
}

/// PᵀAP with Kokkos Kernels: KK's transpose, A·P, Pᵀ·(AP). The reuse redoes the transpose (KK
/// has no values-only transpose) and the two numeric phases.
void bench_kk_triple(const Options& options, const std::string& name, const Matrix& A, const Matrix& P,
                     double kelp_total, double kelp_reuse) {
  const Timing total = median_seconds(options.repeats, [&] {
    const Matrix R = kk_transpose(P);
    KkProduct ap, rap;
    ap.symbolic(A, P);
    ap.numeric(A, P);
    const Matrix AP = ap.result(A.num_rows(), P.num_cols());
    rap.symbolic(R, AP);
    rap.numeric(R, AP);
  });
  Matrix R = kk_transpose(P);
  KkProduct ap, rap;
  ap.symbolic(A, P);
  ap.numeric(A, P);
  const Matrix AP = ap.result(A.num_rows(), P.num_cols());
  rap.symbolic(R, AP);
  rap.numeric(R, AP);
  const Timing reuse = median_seconds(options.repeats, [&] {
    ap.numeric(A, P);
    R = kk_transpose(P);
    rap.numeric(R, AP);
  });
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "triple"}, {"matrix", name}, {"product", "P^T A P"},
                       {"implementation", "kokkos_kernels"}, {"peer", kk_version()}, {"nnz_C", rap.nnz()},
                       {"total_s", number_or_null(total)}, {"numeric_reuse_s", number_or_null(reuse)},
                       {"total_cpu_s", number_or_null(total.cpu)}, {"numeric_reuse_cpu_s", number_or_null(reuse.cpu)},
                       {"reuse_over_total", number_or_null(reuse / total)},
                       {"kelp_total_over_kk", number_or_null(kelp_total / total)},
                       {"kelp_reuse_over_kk", number_or_null(kelp_reuse / reuse)}, {"threads", Exec().concurrency()}});
}
#endif

#ifdef KELP_HAVE_CUSPARSE
void bench_cusparse_product(const Options& options, const std::string& name, const Matrix& A, const Matrix& B,
                            double flops, double kelp_total, double kelp_reuse) {
  kelp::bench::CusparseSpgemmPeer<Matrix> peer(A, B);
  long long nnz = 0;
  const Timing total = median_seconds(options.repeats, [&] { nnz = peer.multiply_once(); });
  const Timing symbolic = median_seconds(options.repeats, [&] { (void)peer.reuse_symbolic(); });
  peer.reuse_symbolic();
  peer.reuse_compute();
  const Timing reuse = median_seconds(options.repeats, [&] { peer.reuse_compute(); });
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "spgemm"}, {"matrix", name}, {"product", "A*A"},
                       {"implementation", "cusparse"},
                       {"peer", "cuSPARSE " + std::to_string(CUSPARSE_VER_MAJOR) + "." +
                                    std::to_string(CUSPARSE_VER_MINOR) + " (CSR, CUSPARSE_SPGEMM_DEFAULT)"},
                       {"nnz_C", nnz}, {"total_s", number_or_null(total)},
                       {"reuse_symbolic_s", number_or_null(symbolic)}, {"numeric_reuse_s", number_or_null(reuse)},
                       {"gflops_total", number_or_null(flops / total / 1e9)},
                       {"reuse_over_total", number_or_null(reuse / total)},
                       {"kelp_total_over_cusparse", number_or_null(kelp_total / total)},
                       {"kelp_reuse_over_cusparse", number_or_null(kelp_reuse / reuse)}});
}
#endif

#ifdef KELP_HAVE_EIGEN
using EigenMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

/// M as Eigen's row-major sparse matrix, the peer's input (built outside the timings). Eigen is
/// linked in host builds only (apps/bench/CMakeLists.txt), so M's views are host-accessible.
EigenMatrix to_eigen(const Matrix& M) {
  std::vector<Eigen::Triplet<double, int>> triplets;
  triplets.reserve(M.nnz());
  for (int i = 0; i < M.num_rows(); ++i)
    for (auto k = M.row_map()(i); k < M.row_map()(i + 1); ++k)
      triplets.emplace_back(i, M.entries()(k), M.values()(k));
  EigenMatrix E(M.num_rows(), M.num_cols());
  E.setFromTriplets(triplets.begin(), triplets.end());
  return E;
}
#endif

void bench_product(const Options& options, const std::string& name, const Matrix& A, const Matrix& B) {
  const auto algorithm = algorithm_of(options.algorithm);
  SpgemmHandle<Matrix> handle(algorithm);
  Matrix C;
  const Timing symbolic = median_seconds(options.repeats, [&] {
    SpgemmHandle<Matrix> h(algorithm);
    Matrix D;
    kelp::kernels::spgemm_symbolic(h, A, B, D);
  });
  const Timing total = median_seconds(options.repeats, [&] {
    SpgemmHandle<Matrix> h(algorithm);
    Matrix D;
    kelp::kernels::spgemm_symbolic(h, A, B, D);
    kelp::kernels::spgemm_numeric(h, A, B, D);
  });
  kelp::kernels::spgemm_symbolic(handle, A, B, C);
  const Timing reuse = median_seconds(options.repeats, [&] { kelp::kernels::spgemm_numeric(handle, A, B, C); });
  const double flops = 2.0 * static_cast<double>(handle.products());
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "spgemm"}, {"matrix", name}, {"product", "A*A"},
                       {"implementation", "kelp"}, {"algorithm", kelp::kernels::to_string(handle.algorithm())},
                       {"num_rows", A.num_rows()}, {"nnz_A", static_cast<long long>(A.nnz())},
                       {"nnz_C", handle.nnz()}, {"multiply_adds", handle.products()},
                       {"symbolic_s", number_or_null(symbolic)}, {"numeric_reuse_s", number_or_null(reuse)},
                       {"total_s", number_or_null(total)}, {"gflops_total", number_or_null(flops / total / 1e9)},
                       {"gflops_numeric", number_or_null(flops / reuse / 1e9)},
                       {"reuse_over_total", number_or_null(reuse / total)},
                       {"symbolic_cpu_s", number_or_null(symbolic.cpu)},
                       {"numeric_reuse_cpu_s", number_or_null(reuse.cpu)}, {"total_cpu_s", number_or_null(total.cpu)},
                       {"threads", Exec().concurrency()}});
#ifdef KELP_HAVE_KOKKOSKERNELS
  bench_kk_product(options, name, A, B, flops, total);
#endif
#ifdef KELP_HAVE_CUSPARSE
  bench_cusparse_product(options, name, A, B, flops, total, reuse);
#endif
#ifdef KELP_HAVE_EIGEN
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
    const EigenMatrix EA = to_eigen(A), EB = to_eigen(B);
    long long nnz = 0;
    const Timing eigen = median_seconds(options.repeats, [&] {
      EigenMatrix EC = EA * EB;
      nnz = EC.nonZeros();
    });
    print_json_line(Json{{"bench", "spgemm"}, {"kind", "spgemm"}, {"matrix", name}, {"product", "A*A"},
                         {"implementation", "eigen"}, {"nnz_C", nnz}, {"total_s", number_or_null(eigen)},
                         {"gflops_total", number_or_null(flops / eigen / 1e9)},
                         {"kelp_total_over_eigen", number_or_null(total / eigen)},
                         {"total_cpu_s", number_or_null(eigen.cpu)}, {"threads_eigen", 1}});
  }
#endif
}

void bench_jacobi(const Options& options, const std::string& name, const Matrix& A, const Matrix& P) {
  const auto algorithm = algorithm_of(options.algorithm);
  const double omega = 2.0 / 3.0;
  SpgemmHandle<Matrix> fused(algorithm);
  Matrix C;
  const double fused_total = median_seconds(options.repeats, [&] {
    SpgemmHandle<Matrix> h(algorithm);
    Matrix D;
    kelp::kernels::jacobi_spgemm_symbolic(h, A, P, D);
    kelp::kernels::jacobi_spgemm_numeric(h, omega, A, P, D);
  });
  kelp::kernels::jacobi_spgemm_symbolic(fused, A, P, C);
  const double fused_numeric =
      median_seconds(options.repeats, [&] { kelp::kernels::jacobi_spgemm_numeric(fused, omega, A, P, C); });

  // Unfused: scale A's rows by D⁻¹ (a copy), then (D⁻¹A)·P, then P − ω (D⁻¹A P).
  Matrix DinvA(A.num_rows(), A.num_cols(), A.row_map(), A.entries(),
               Matrix::values_type("DinvA", A.nnz()));
  Matrix::values_type diagonal("diagonal", A.num_rows());
  const auto scale_rows = [&] {
    kelp::kernels::extract_diagonal(A, diagonal);
    const auto row_map = A.row_map();
    const auto values = A.values();
    const auto scaled = DinvA.values();
    Kokkos::parallel_for("kelp-bench-spgemm::scale_rows", Kokkos::RangePolicy<Exec>(0, A.num_rows()),
                         KOKKOS_LAMBDA(const int i) {
                           for (auto k = row_map(i); k < row_map(i + 1); ++k) scaled(k) = values(k) / diagonal(i);
                         });
  };
  SpgemmHandle<Matrix> product(algorithm);
  kelp::kernels::SpaddHandle<Matrix> add;
  Matrix AP, S;
  const double unfused_total = median_seconds(options.repeats, [&] {
    SpgemmHandle<Matrix> h(algorithm);
    kelp::kernels::SpaddHandle<Matrix> a;
    Matrix X, Y;
    scale_rows();
    kelp::kernels::spgemm_symbolic(h, DinvA, P, X);
    kelp::kernels::spgemm_numeric(h, DinvA, P, X);
    kelp::kernels::spadd_symbolic(a, P, X, Y);
    kelp::kernels::spadd_numeric(a, 1.0, P, -omega, X, Y);
  });
  scale_rows();
  kelp::kernels::spgemm_symbolic(product, DinvA, P, AP);
  kelp::kernels::spgemm_numeric(product, DinvA, P, AP);
  kelp::kernels::spadd_symbolic(add, P, AP, S);
  const double unfused_numeric = median_seconds(options.repeats, [&] {
    scale_rows();
    kelp::kernels::spgemm_numeric(product, DinvA, P, AP);
    kelp::kernels::spadd_numeric(add, 1.0, P, -omega, AP, S);
  });
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "jacobi"}, {"matrix", name},
                       {"product", "(I - omega D^-1 A) P"}, {"nnz_P", static_cast<long long>(P.nnz())},
                       {"nnz_C", fused.nnz()}, {"fused_total_s", number_or_null(fused_total)},
                       {"unfused_total_s", number_or_null(unfused_total)},
                       {"fused_numeric_s", number_or_null(fused_numeric)},
                       {"unfused_numeric_s", number_or_null(unfused_numeric)},
                       {"fused_over_unfused_total", number_or_null(fused_total / unfused_total)},
                       {"fused_over_unfused_numeric", number_or_null(fused_numeric / unfused_numeric)},
                       {"threads", Exec().concurrency()}});
}

void bench_triple(const Options& options, const std::string& name, const Matrix& A, const Matrix& P) {
  const auto algorithm = algorithm_of(options.algorithm);
  const Timing total = median_seconds(options.repeats, [&] {
    kelp::kernels::TripleProductHandle<Matrix> h(algorithm);
    Matrix D;
    kelp::kernels::triple_product_symbolic(h, A, P, D);
    kelp::kernels::triple_product_numeric(h, A, P, D);
  });
  kelp::kernels::TripleProductHandle<Matrix> handle(algorithm);
  Matrix C;
  kelp::kernels::triple_product_symbolic(handle, A, P, C);
  const Timing reuse = median_seconds(options.repeats, [&] { kelp::kernels::triple_product_numeric(handle, A, P, C); });
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "triple"}, {"matrix", name}, {"product", "P^T A P"},
                       {"implementation", "kelp"},
                       {"coarse_rows", C.num_rows()}, {"nnz_C", static_cast<long long>(C.nnz())},
                       {"total_s", number_or_null(total)}, {"numeric_reuse_s", number_or_null(reuse)},
                       {"total_cpu_s", number_or_null(total.cpu)}, {"numeric_reuse_cpu_s", number_or_null(reuse.cpu)},
                       {"reuse_over_total", number_or_null(reuse / total)}, {"threads", Exec().concurrency()}});
#ifdef KELP_HAVE_KOKKOSKERNELS
  bench_kk_triple(options, name, A, P, total, reuse);
#endif
#ifdef KELP_HAVE_EIGEN
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
    // Eigen: Pᵀ as its own matrix (the transposition counts), then Pᵀ·(A·P); no reuse form.
    const EigenMatrix EA = to_eigen(A), EP = to_eigen(P);
    long long nnz = 0;
    const Timing eigen = median_seconds(options.repeats, [&] {
      const EigenMatrix EPt = EP.transpose();
      const EigenMatrix EAP = EA * EP;
      const EigenMatrix EC = EPt * EAP;
      nnz = EC.nonZeros();
    });
    print_json_line(Json{{"bench", "spgemm"}, {"kind", "triple"}, {"matrix", name}, {"product", "P^T A P"},
                         {"implementation", "eigen"}, {"nnz_C", nnz}, {"total_s", number_or_null(eigen)},
                         {"total_cpu_s", number_or_null(eigen.cpu)},
                         {"kelp_total_over_eigen", number_or_null(total / eigen)}, {"threads_eigen", 1}});
  }
#endif
}

int run(const Options& options) {
  if (!options.no_triad) (void)kelp::bench::measure_triad("spgemm", 0, 10);
  print_json_line(Json{{"bench", "spgemm"}, {"kind", "config"}, {"n", options.n},
                       {"repeats", options.repeats}, {"algorithm", options.algorithm},
                       {"execution_space", Exec::name()}, {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()}});
  const std::string name = "laplace3d_" + std::to_string(options.n);
  const Matrix A = kelp::generators::laplace3d<double>(options.n, options.n, options.n);
  bench_product(options, name, A, A);
  const Matrix P = kelp::copy_to<kelp::DefaultDevice>(aggregation_prolongator(options.n));
  bench_jacobi(options, name, A, P);
  bench_triple(options, name, A, P);
  std::stringstream list(options.matrices);
  for (std::string matrix; std::getline(list, matrix, ',');) {
    if (matrix.empty()) continue;
    const Matrix M = kelp::io::read_matrix_market<double>(options.matrices_dir + "/" + matrix + ".mtx.gz");
    if (M.num_rows() == M.num_cols()) {
      bench_product(options, matrix, M, M);
    } else {
      print_json_line(Json{{"bench", "spgemm"}, {"kind", "skipped"}, {"matrix", matrix},
                           {"reason", std::to_string(M.num_rows()) + " x " + std::to_string(M.num_cols()) +
                                          " is not square: A * A is not defined"}});
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "spgemm",
      "kelp-bench-spgemm: SpGEMM, Jacobi-fused SpGEMM and PtAP times",
      [&](CLI::App& app) {
        app.add_option("--n", options.n, "grid points per dimension of the 3D Laplacian")
            ->check(CLI::Range(2, 1000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed runs per measurement")
            ->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--algorithm", options.algorithm, "automatic, dense or hash")
            ->check(CLI::IsMember({"automatic", "dense", "hash"}))->capture_default_str();
        app.add_option("--matrices", options.matrices, "comma-separated names in --matrices-dir (A*A of each)");
        app.add_option("--matrices-dir", options.matrices_dir, "folder of NAME.mtx.gz")->capture_default_str();
        app.add_flag("--no-triad", options.no_triad, "skip the STREAM triad");
      },
      [&] { return run(options); });
}
