// Additive Schwarz with overlap on 1-4 ranks: overlap 0 is block Jacobi over the ranks (bitwise),
// one rank is the local preconditioner itself, the symmetric variant is a symmetric operator and
// makes PCG converge to the serial solution, more overlap means fewer GMRES iterations (2D and
// 3D Laplacians, a nonsymmetric real matrix), values-only updates reuse the plan, empty ranks
// work, and a zero pivot on one rank stops every rank with the same message.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "kelp/distributed/additive_schwarz.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/dist_vector.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/distributed/local_rows_from_global.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/gmres/gmres.hpp"
#include "test/support/paths.hpp"

namespace kelp::additive_schwarz_test {
namespace {

using C = Kokkos::complex<double>;
using dist::AdditiveSchwarz;
using dist::GlobalOrdinal;
using dist::RowPartition;
using dist::SchwarzVariant;
template <class S>
using Local = precond::Preconditioner<CrsMatrix<S>>;

int my_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int num_ranks() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

template <class S>
S value_at(GlobalOrdinal i) {
  const double re = std::sin(1.0 + 0.37 * static_cast<double>(i));
  if constexpr (std::is_same<S, C>::value) {
    return C(re, std::cos(0.5 + 0.11 * static_cast<double>(i)));
  } else {
    return re;
  }
}

template <class S>
std::vector<S> global_values(GlobalOrdinal n, GlobalOrdinal shift = 0) {
  std::vector<S> v(static_cast<std::size_t>(n));
  for (GlobalOrdinal i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = value_at<S>(i + shift);
  return v;
}

/// This rank's part of a global vector (every rank holds it whole).
template <class S>
VectorView<S> local_part(const RowPartition& part, const std::vector<S>& global) {
  VectorView<S> v("v", static_cast<std::size_t>(part.size(my_rank())));
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = global[static_cast<std::size_t>(part.begin(my_rank())) + i];
  Kokkos::deep_copy(v, h);
  return v;
}

template <class S>
std::vector<S> to_std(const VectorView<S>& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<S>(h.data(), h.data() + h.extent(0));
}

template <class S>
CrsMatrix<S> load(const std::string& name) {
  return io::read_matrix_market<S>(test::matrix_path(name));
}

template <class S>
std::shared_ptr<dist::DistCrsMatrix<S>> distribute(const CrsMatrix<S>& A, MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto part = RowPartition::balanced(A.num_rows(), size);
  return std::make_shared<dist::DistCrsMatrix<S>>(comm, dist::local_rows_from_global(A, part, part, rank));
}

template <class S>
typename AdditiveSchwarz<S>::LocalFactory jacobi() {
  return [](const CrsMatrix<S>&) { return std::make_shared<precond::Jacobi<CrsMatrix<S>>>(); };
}

template <class S>
typename AdditiveSchwarz<S>::LocalFactory gauss_seidel(int sweeps, precond::GaussSeidelDirection direction) {
  return [=](const CrsMatrix<S>&) {
    precond::GaussSeidelParams p;
    p.sweeps = sweeps;
    p.direction = direction;
    return std::make_shared<precond::GaussSeidel<CrsMatrix<S>>>(p);
  };
}

template <class S>
std::shared_ptr<AdditiveSchwarz<S>> schwarz(const dist::DistCrsMatrix<S>& A, int overlap, SchwarzVariant variant,
                                            typename AdditiveSchwarz<S>::LocalFactory local) {
  auto M = std::make_shared<AdditiveSchwarz<S>>(dist::AdditiveSchwarzParams{overlap, variant}, std::move(local));
  M->setup(A);
  return M;
}

/// Overlap 0 equals the local preconditioner on the local block, bitwise, in both variants.
template <class S>
void expect_overlap0_is_block_jacobi(const CrsMatrix<S>& A_global, typename AdditiveSchwarz<S>::LocalFactory make) {
  auto A = distribute(A_global);
  const auto x = local_part(A->row_partition(), global_values<S>(A->global_rows()));
  auto block = make(A->local_block());
  block->setup(A->local_block());
  VectorView<S> expected("expected", x.extent(0));
  block->apply(x, expected);
  for (const auto variant : {SchwarzVariant::restricted, SchwarzVariant::symmetric}) {
    auto M = schwarz<S>(*A, 0, variant, make);
    EXPECT_EQ(M->subdomain().num_rows(), A->num_local_rows());
    VectorView<S> y("y", x.extent(0));
    Kokkos::deep_copy(y, S(std::nan("")));
    M->apply(x, y);
    const auto e = to_std(expected), got = to_std(y);
    for (std::size_t i = 0; i < e.size(); ++i) ASSERT_EQ(got[i], e[i]) << "row " << i;
  }
}

TEST(AdditiveSchwarz, OverlapZeroIsBlockJacobiOverRanks) {
  expect_overlap0_is_block_jacobi<double>(load<double>("sherman5"), jacobi<double>());
  expect_overlap0_is_block_jacobi<double>(load<double>("sherman5"),
                                          gauss_seidel<double>(2, precond::GaussSeidelDirection::forward));
  expect_overlap0_is_block_jacobi<double>(load<double>("gr_30_30"),
                                          gauss_seidel<double>(1, precond::GaussSeidelDirection::symmetric));
  expect_overlap0_is_block_jacobi<C>(load<C>("young1c"), gauss_seidel<C>(1, precond::GaussSeidelDirection::symmetric));
}

/// One rank (MPI_COMM_SELF, the whole matrix): the subdomain is the matrix, the result is the
/// local preconditioner's on it, for any overlap.
TEST(AdditiveSchwarz, OneRankIsTheLocalPreconditioner) {
  const auto A_global = load<double>("cryg2500");
  auto A = distribute(A_global, MPI_COMM_SELF);
  const auto make = gauss_seidel<double>(1, precond::GaussSeidelDirection::symmetric);
  VectorView<double> xs("x", static_cast<std::size_t>(A->global_rows()));
  Kokkos::deep_copy(xs, 0.0);
  auto xh = Kokkos::create_mirror_view(xs);
  const auto g = global_values<double>(A->global_rows());
  for (std::size_t i = 0; i < g.size(); ++i) xh(i) = g[i];
  Kokkos::deep_copy(xs, xh);
  auto local = make(A_global);
  local->setup(A_global);
  VectorView<double> expected("expected", xs.extent(0)), y("y", xs.extent(0));
  local->apply(xs, expected);
  for (int overlap : {0, 2}) {
    auto M = schwarz<double>(*A, overlap, SchwarzVariant::symmetric, make);
    M->apply(xs, y);
    const auto e = to_std(expected), got = to_std(y);
    for (std::size_t i = 0; i < e.size(); ++i) ASSERT_EQ(got[i], e[i]) << "overlap " << overlap << ", row " << i;
  }
}

/// A "preconditioner" that multiplies by its matrix: RAS with it is the distributed product
/// (every column of an owned row is in the subdomain once overlap >= 1), which checks the
/// overlap gather and the subdomain's values entry by entry.
class SubdomainProduct final : public precond::Preconditioner<CrsMatrix<double>> {
 protected:
  const char* name() const override { return "test::SubdomainProduct"; }

 public:
  std::string summary() const override { return "subdomain product"; }

 protected:
  void setup_symbolic_impl(const CrsMatrix<double>&) override {}
  void setup_numeric_impl(const CrsMatrix<double>& A) override { A_ = std::make_unique<MatrixOperator<CrsMatrix<double>>>(A); }
  void apply_impl(const_vector_type x, vector_type y, double alpha, double beta, OperatorMode) const override {
    A_->apply(x, y, alpha, beta);
  }

 private:
  std::unique_ptr<MatrixOperator<CrsMatrix<double>>> A_;
};

TEST(AdditiveSchwarz, RestrictedWithTheSubdomainProductIsTheDistributedProduct) {
  for (const char* name : {"sherman5", "gr_30_30"}) {
    auto A = distribute(load<double>(name));
    const auto x = local_part(A->row_partition(), global_values<double>(A->global_rows()));
    VectorView<double> expected("expected", x.extent(0));
    A->apply(x, expected);
    for (int overlap : {1, 2}) {
      auto M = schwarz<double>(*A, overlap, SchwarzVariant::restricted,
                               [](const CrsMatrix<double>&) { return std::make_shared<SubdomainProduct>(); });
      VectorView<double> y("y", x.extent(0));
      M->apply(x, y);
      const auto e = to_std(expected), got = to_std(y);
      for (std::size_t i = 0; i < e.size(); ++i) {
        ASSERT_NEAR(got[i], e[i], 1e-12 * (1 + std::abs(e[i]))) << name << ", overlap " << overlap << ", row " << i;
      }
    }
  }
}

/// Global <a, b> over the ranks.
double global_dot(const VectorView<double>& a, const VectorView<double>& b) {
  return dist::MpiReduction(MPI_COMM_WORLD).dot(a, b);
}

TEST(AdditiveSchwarz, SymmetricVariantIsASymmetricOperator) {
  const auto rows = RowPartition::balanced(24 * 20, num_ranks());
  std::vector<std::shared_ptr<dist::DistCrsMatrix<double>>> problems;
  problems.push_back(std::make_shared<dist::DistCrsMatrix<double>>(MPI_COMM_WORLD, dist::laplace2d<double>(24, 20, rows, my_rank())));
  problems.push_back(distribute(load<double>("gr_30_30")));
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const auto& A = *problems[k];
    const auto x = local_part(A.row_partition(), global_values<double>(A.global_rows()));
    const auto y = local_part(A.row_partition(), global_values<double>(A.global_rows(), 777));
    for (int overlap : {1, 2, 3}) {
      for (const bool with_gs : {false, true}) {
        const auto make = with_gs ? gauss_seidel<double>(2, precond::GaussSeidelDirection::symmetric) : jacobi<double>();
        auto M = schwarz<double>(A, overlap, SchwarzVariant::symmetric, make);
        VectorView<double> Mx("Mx", x.extent(0)), My("My", x.extent(0));
        M->apply(x, Mx);
        M->apply(y, My);
        const double a = global_dot(Mx, y), b = global_dot(x, My);
        EXPECT_NEAR(a, b, 1e-12 * std::abs(a)) << "problem " << k << ", overlap " << overlap;
      }
    }
  }
  // Against that, RAS is not symmetric (gr_30_30: 9-point, several colors; with red-black
  // Gauss-Seidel on the 5-point Laplacian it happens to be).
  if (num_ranks() > 1) {
    const auto& A = *problems[1];
    const auto x = local_part(A.row_partition(), global_values<double>(A.global_rows()));
    const auto y = local_part(A.row_partition(), global_values<double>(A.global_rows(), 777));
    auto R = schwarz<double>(A, 2, SchwarzVariant::restricted, gauss_seidel<double>(2, precond::GaussSeidelDirection::symmetric));
    VectorView<double> Rx("Rx", x.extent(0)), Ry("Ry", x.extent(0));
    R->apply(x, Rx);
    R->apply(y, Ry);
    EXPECT_GT(std::abs(global_dot(Rx, y) - global_dot(x, Ry)), 1e-10 * std::abs(global_dot(Rx, y)));
  }
}

/// ||b - A x|| / ||b|| over the ranks.
double true_relative_residual(const dist::DistCrsMatrix<double>& A, const VectorView<double>& b, const VectorView<double>& x) {
  VectorView<double> r("r", b.extent(0));
  Kokkos::deep_copy(r, b);
  A.apply(x, r, -1.0, 1.0);
  return std::sqrt(global_dot(r, r) / global_dot(b, b));
}

TEST(AdditiveSchwarz, PcgWithSymmetricOverlapConvergesToTheSerialSolution) {
  const auto A_global = load<double>("gr_30_30");
  const GlobalOrdinal n = A_global.num_rows();
  const auto b_global = global_values<double>(n);
  // The serial reference (every rank, the whole matrix).
  solvers::CgParams params;
  params.relative_tolerance = 1e-10;
  params.max_iterations = 5000;
  VectorView<double> b_all("b", static_cast<std::size_t>(n)), x_all("x", static_cast<std::size_t>(n));
  {
    auto bh = Kokkos::create_mirror_view(b_all);
    for (GlobalOrdinal i = 0; i < n; ++i) bh(static_cast<std::size_t>(i)) = b_global[static_cast<std::size_t>(i)];
    Kokkos::deep_copy(b_all, bh);
    auto serial_M = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
    serial_M->setup(A_global);
    solvers::Cg<double> cg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A_global), serial_M, params);
    ASSERT_TRUE(cg.solve(b_all, x_all).converged());
  }
  const auto x_ref = to_std(x_all);
  auto A = distribute(A_global);
  auto op = std::make_shared<dist::DistOperator<double>>(A);
  const auto b = local_part(A->row_partition(), b_global);
  int iterations[3] = {};
  for (int overlap : {0, 1, 2}) {
    auto M = schwarz<double>(*A, overlap, SchwarzVariant::symmetric,
                             gauss_seidel<double>(1, precond::GaussSeidelDirection::symmetric));
    VectorView<double> x("x", b.extent(0));
    solvers::Cg<double, DefaultDevice, dist::MpiReduction> cg(op, M, params, dist::MpiReduction(MPI_COMM_WORLD));
    const auto result = cg.solve(b, x);
    iterations[overlap] = result.iterations;
    EXPECT_TRUE(result.converged()) << "overlap " << overlap;
    EXPECT_LE(true_relative_residual(*A, b, x), 1e-9);
    const auto gathered = dist::gather_vector(MPI_COMM_WORLD, A->row_partition(), x);
    if (my_rank() == 0) {
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < gathered.size(); ++i) {
        diff += (gathered[i] - x_ref[i]) * (gathered[i] - x_ref[i]);
        norm += x_ref[i] * x_ref[i];
      }
      EXPECT_LE(std::sqrt(diff), 1e-6 * std::sqrt(norm)) << "overlap " << overlap;
    }
  }
  if (my_rank() == 0) {
    std::printf("[ pcg AS    ] %d ranks, iterations at overlap 0, 1, 2: %d %d %d\n", num_ranks(), iterations[0],
                iterations[1], iterations[2]);
  }
}

/// A local solve to 1e-13 (CG with Jacobi on the subdomain matrix): linear to rounding, so it
/// stands in for the exact subdomain solve of the classical theory.
class SubdomainSolve final : public precond::Preconditioner<CrsMatrix<double>> {
 public:
  std::string summary() const override { return "subdomain solve"; }

 protected:
  const char* name() const override { return "test::SubdomainSolve"; }
  void setup_symbolic_impl(const CrsMatrix<double>&) override {}
  void setup_numeric_impl(const CrsMatrix<double>& A) override {
    auto jacobi = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
    jacobi->setup(A);
    solvers::CgParams params;
    params.relative_tolerance = 1e-13;
    params.max_iterations = 5000;
    cg_ = std::make_unique<solvers::Cg<double>>(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), jacobi, params);
  }
  void apply_impl(const_vector_type x, vector_type y, double alpha, double beta, OperatorMode) const override {
    if (s_.extent(0) != x.extent(0)) s_ = VectorView<double>("s", x.extent(0));
    Kokkos::deep_copy(s_, 0.0);
    cg_->solve(x, s_);
    kernels::axpby(alpha, s_, beta, y);
  }

 private:
  std::unique_ptr<solvers::Cg<double>> cg_;
  mutable VectorView<double> s_;
};

/// With (near) exact subdomain solves, overlap improves symmetric AS as the theory says (with
/// an inexact local sweep such as one Gauss-Seidel sweep, the double counting in the overlap can
/// cost more than the overlap gains: see docs/performance.md, issue 14).
TEST(AdditiveSchwarz, PcgIterationsFallWithOverlapForExactSubdomainSolves) {
  if (num_ranks() < 2) GTEST_SKIP() << "overlap needs two ranks or more";
  const auto rows = RowPartition::balanced(12 * 12 * 12, num_ranks());
  auto A = std::make_shared<dist::DistCrsMatrix<double>>(MPI_COMM_WORLD, dist::laplace3d<double>(12, 12, 12, rows, my_rank()));
  auto op = std::make_shared<dist::DistOperator<double>>(A);
  const auto b = local_part(rows, global_values<double>(A->global_rows()));
  solvers::CgParams params;
  params.relative_tolerance = 1e-8;
  params.max_iterations = 500;
  std::vector<int> iterations;
  for (int overlap : {0, 1, 2}) {
    auto M = schwarz<double>(*A, overlap, SchwarzVariant::symmetric,
                             [](const CrsMatrix<double>&) { return std::make_shared<SubdomainSolve>(); });
    VectorView<double> x("x", b.extent(0));
    solvers::Cg<double, DefaultDevice, dist::MpiReduction> cg(op, M, params, dist::MpiReduction(MPI_COMM_WORLD));
    const auto result = cg.solve(b, x);
    EXPECT_TRUE(result.converged()) << "overlap " << overlap;
    EXPECT_LE(true_relative_residual(*A, b, x), 1e-7);
    iterations.push_back(result.iterations);
  }
  if (my_rank() == 0) {
    std::printf("[ pcg AS exact ] %d ranks, iterations at overlap 0, 1, 2: %d %d %d\n", num_ranks(), iterations[0],
                iterations[1], iterations[2]);
  }
  EXPECT_LT(iterations[1], iterations[0]);
  EXPECT_LT(iterations[2], iterations[0]);
}

/// GMRES(30) iterations with RAS at the given overlaps.
std::vector<int> gmres_iterations(const std::shared_ptr<dist::DistCrsMatrix<double>>& A, const std::vector<int>& overlaps,
                                  const typename AdditiveSchwarz<double>::LocalFactory& make) {
  auto op = std::make_shared<dist::DistOperator<double>>(A);
  const auto b = local_part(A->row_partition(), global_values<double>(A->global_rows()));
  solvers::GmresParams params;
  params.relative_tolerance = 1e-8;
  params.max_iterations = 3000;
  params.restart = 30;
  std::vector<int> out;
  for (int overlap : overlaps) {
    auto M = schwarz<double>(*A, overlap, SchwarzVariant::restricted, make);
    VectorView<double> x("x", b.extent(0));
    solvers::Gmres<double, DefaultDevice, dist::MpiReduction> gmres(op, M, params, dist::MpiReduction(MPI_COMM_WORLD));
    const auto result = gmres.solve(b, x);
    EXPECT_TRUE(result.converged()) << "overlap " << overlap;
    EXPECT_LE(true_relative_residual(*A, b, x), 1e-7) << "overlap " << overlap;
    out.push_back(result.iterations);
  }
  if (my_rank() == 0) {
    std::printf("[ gmres RAS ] %d ranks, iterations at overlap 0, 1, 2: %d %d %d\n", num_ranks(), out[0], out[1], out[2]);
  }
  return out;
}

TEST(AdditiveSchwarz, GmresNeedsFewerIterationsWithMoreOverlap) {
  if (num_ranks() < 2) GTEST_SKIP() << "overlap needs two ranks or more";
  const auto gs = gauss_seidel<double>(4, precond::GaussSeidelDirection::symmetric);
  const int r = my_rank(), p = num_ranks();
  std::vector<std::shared_ptr<dist::DistCrsMatrix<double>>> problems;
  problems.push_back(std::make_shared<dist::DistCrsMatrix<double>>(
      MPI_COMM_WORLD, dist::laplace2d<double>(40, 40, RowPartition::balanced(1600, p), r)));
  problems.push_back(std::make_shared<dist::DistCrsMatrix<double>>(
      MPI_COMM_WORLD, dist::laplace3d<double>(14, 14, 14, RowPartition::balanced(14 * 14 * 14, p), r)));
  problems.push_back(distribute(load<double>("sherman5")));
  for (const auto& A : problems) {
    const auto it = gmres_iterations(A, {0, 1, 2}, gs);
    EXPECT_LT(it[1], it[0]);
    EXPECT_LT(it[2], it[0]);
  }
}

TEST(AdditiveSchwarz, ValuesOnlyUpdateReusesThePlan) {
  const auto rows = RowPartition::balanced(30 * 30, num_ranks());
  auto mine = dist::laplace2d<double>(30, 30, rows, my_rank());
  dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, mine);
  auto twice = mine;
  for (auto& v : twice.values) v *= 2;
  dist::DistCrsMatrix<double> A2(MPI_COMM_WORLD, twice);
  for (const auto variant : {SchwarzVariant::restricted, SchwarzVariant::symmetric}) {
    auto M = schwarz<double>(A, 2, variant, gauss_seidel<double>(1, precond::GaussSeidelDirection::symmetric));
    const auto x = local_part(rows, global_values<double>(A.global_rows()));
    VectorView<double> y1("y1", x.extent(0)), y2("y2", x.extent(0));
    M->apply(x, y1);
    M->setup_numeric(A2);  // same pattern: M(2A) = M(A) / 2
    M->apply(x, y2);
    const auto a = to_std(y1), b = to_std(y2);
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(b[i], 0.5 * a[i], 1e-14 * std::abs(a[i])) << i;
    // A different pattern (a dropped entry on the last rank) is refused on every rank.
    auto other = mine;
    if (my_rank() == num_ranks() - 1 && other.col_index.size() > 1) {
      other.col_index.pop_back();
      other.values.pop_back();
      other.row_map.back() -= 1;
    }
    dist::DistCrsMatrix<double> B(MPI_COMM_WORLD, other);
    EXPECT_THROW(M->setup_numeric(B), InvalidState);
  }
}

TEST(AdditiveSchwarz, EmptyRanksWork) {
  // 3 rows over up to 4 ranks: the last rank owns nothing.
  const auto rows = RowPartition::balanced(3, num_ranks());
  dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, dist::laplace1d<double>(3, rows, my_rank()));
  for (const auto variant : {SchwarzVariant::restricted, SchwarzVariant::symmetric}) {
    auto M = schwarz<double>(A, 2, variant, jacobi<double>());
    const auto x = local_part(rows, std::vector<double>{1.0, 2.0, 3.0});
    VectorView<double> y("y", x.extent(0));
    M->apply(x, y);
    const auto got = dist::gather_vector(MPI_COMM_WORLD, rows, y);
    if (my_rank() == 0) {
      // Jacobi local: RAS is D^{-1} x; symmetric AS counts each row once per subdomain holding it.
      // Overlap 2 covers all 3 rows, so every non-empty rank's subdomain holds every row.
      const double count = variant == SchwarzVariant::restricted ? 1.0 : static_cast<double>(std::min(num_ranks(), 3));
      for (int i = 0; i < 3; ++i) {
        EXPECT_DOUBLE_EQ(got[static_cast<std::size_t>(i)], count * (i + 1) / 2.0) << i;
      }
    }
  }
}

TEST(AdditiveSchwarz, ZeroPivotOnOneRankStopsEveryRankWithTheSameMessage) {
  // A 1D Laplacian whose last row has a zero diagonal: only the last rank's local Jacobi fails.
  const GlobalOrdinal n = 12;
  const auto rows = RowPartition::balanced(n, num_ranks());
  auto mine = dist::laplace1d<double>(n, rows, my_rank());
  for (std::size_t e = 0; e < mine.col_index.size(); ++e) {
    if (mine.col_index[e] == n - 1 && rows.end(my_rank()) == n) {
      // the diagonal entry of the last row
      const bool last_row = e >= static_cast<std::size_t>(mine.row_map[mine.row_map.size() - 2]);
      if (last_row) mine.values[e] = 0.0;
    }
  }
  dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, mine);
  AdditiveSchwarz<double> M({1, SchwarzVariant::restricted}, jacobi<double>());
  M.setup_symbolic(A);
  std::string message;
  try {
    M.setup_numeric(A);
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("rank " + std::to_string(num_ranks() - 1) + ": "), std::string::npos) << message;
  // Every rank has the same message.
  const auto length = static_cast<long long>(message.size());
  long long lo = length, hi = length;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lo, hi);
  EXPECT_FALSE(M.is_set_up());
  VectorView<double> x("x", static_cast<std::size_t>(A.num_local_rows())), y("y", x.extent(0));
  EXPECT_THROW(M.apply(x, y), InvalidState);
}

TEST(AdditiveSchwarz, BadArgumentsThrowOnEveryRank) {
  EXPECT_THROW(AdditiveSchwarz<double>({-1, SchwarzVariant::restricted}, jacobi<double>()), InvalidArgument);
  EXPECT_THROW(AdditiveSchwarz<double>({1, SchwarzVariant::restricted}, nullptr), InvalidArgument);
  const auto rows = RowPartition::balanced(10, num_ranks());
  dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, dist::laplace1d<double>(10, rows, my_rank()));
  // The overlap differs across ranks.
  AdditiveSchwarz<double> M({my_rank() == 0 ? 1 : 2, SchwarzVariant::restricted}, jacobi<double>());
  if (num_ranks() > 1) {
    EXPECT_THROW(M.setup(A), InvalidArgument);
  }
}

}  // namespace
}  // namespace kelp::additive_schwarz_test
