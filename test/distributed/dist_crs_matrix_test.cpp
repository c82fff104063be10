// The distributed CRS matrix on 1-4 ranks: SpMV and SpMMV in all modes against a sequential
// host reference on the repository's matrices (nonsymmetric, rectangular, empty rows and
// columns, complex, more ranks than rows), bitwise reproducibility, the vector scatter/gather
// with a renumbering, collective errors, and CG / GMRES / BiCGSTAB run distributed unchanged.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/dist_vector.hpp"
#include "kelp/distributed/local_rows_from_global.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/bicgstab/bicgstab.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/gmres/gmres.hpp"
#include "test/distributed/mpi_world.hpp"
#include "test/support/paths.hpp"

namespace kelp::dist_crs_matrix_test {
namespace {

using C = Kokkos::complex<double>;
using dist::GlobalOrdinal;
using dist::RowPartition;
template <class S>
using HostCrs = CrsMatrix<S, Ordinal, Offset, HostDevice>;


template <class S>
HostCrs<S> load(const std::string& name) {
  return to_host(io::read_matrix_market<S>(test::matrix_path(name)));
}

/// A host CRS matrix from rows of (column, value) pairs.
template <class S>
HostCrs<S> from_rows(Ordinal n_rows, Ordinal n_cols, const std::vector<std::vector<std::pair<Ordinal, S>>>& rows) {
  std::vector<Offset> rm{0};
  std::vector<Ordinal> ci;
  std::vector<S> va;
  for (const auto& row : rows) {
    for (const auto& [c, v] : row) ci.push_back(c), va.push_back(v);
    rm.push_back(static_cast<Offset>(ci.size()));
  }
  typename HostCrs<S>::row_map_type row_map("rm", rm.size());
  typename HostCrs<S>::entries_type entries("ci", ci.size());
  typename HostCrs<S>::values_type values("va", va.size());
  for (std::size_t i = 0; i < rm.size(); ++i) row_map(i) = rm[i];
  for (std::size_t i = 0; i < ci.size(); ++i) entries(i) = ci[i], values(i) = va[i];
  return HostCrs<S>(n_rows, n_cols, row_map, entries, values);
}

/// The n x n 1D Laplacian tridiag(-1, 2, -1): each rank's block couples to its two neighbours
/// through one entry each way.
HostCrs<double> laplace1d(int n) {
  std::vector<std::vector<std::pair<Ordinal, double>>> rows(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (i > 0) rows[static_cast<std::size_t>(i)].emplace_back(i - 1, -1.0);
    rows[static_cast<std::size_t>(i)].emplace_back(i, 2.0);
    if (i + 1 < n) rows[static_cast<std::size_t>(i)].emplace_back(i + 1, -1.0);
  }
  return from_rows<double>(n, n, rows);
}

/// A with every 5th row and every 7th column emptied (rows and columns with no entries).
template <class S>
HostCrs<S> with_empty_rows_and_columns(const HostCrs<S>& A) {
  std::vector<std::vector<std::pair<Ordinal, S>>> rows(static_cast<std::size_t>(A.num_rows()));
  for (Ordinal i = 0; i < A.num_rows(); ++i) {
    if (i % 5 == 0) continue;
    for (auto e = A.row_map()(i); e < A.row_map()(i + 1); ++e) {
      if (A.entries()(e) % 7 != 0) rows[static_cast<std::size_t>(i)].emplace_back(A.entries()(e), A.values()(e));
    }
  }
  return from_rows<S>(A.num_rows(), A.num_cols(), rows);
}

template <class S>
S value_at(GlobalOrdinal i, std::size_t j) {
  const double re = std::sin(1.0 + 0.37 * static_cast<double>(i) + 1.3 * static_cast<double>(j));
  if constexpr (std::is_same<S, C>::value) {
    return C(re, std::cos(0.5 + 0.11 * static_cast<double>(i) - static_cast<double>(j)));
  } else {
    return re;
  }
}

template <class S>
double mag(S v) {
  if constexpr (std::is_same<S, C>::value) {
    return Kokkos::abs(v);
  } else {
    return std::abs(v);
  }
}

template <class S>
S conj_if(S v, bool conjugate) {
  if constexpr (std::is_same<S, C>::value) {
    return conjugate ? Kokkos::conj(v) : v;
  } else {
    (void)conjugate;
    return v;
  }
}

/// Sequential reference: y = alpha op(A) x + beta y0 and, per entry, a scale for the tolerance
/// (sum of |alpha a x| + |beta y0|). x, y0: global, k columns (column-major).
template <class S>
void reference(const HostCrs<S>& A, OperatorMode mode, S alpha, S beta, const std::vector<S>& x,
               const std::vector<S>& y0, std::size_t k, std::vector<S>& y, std::vector<double>& scale) {
  const bool t = is_transposed(mode);
  const auto n_out = static_cast<std::size_t>(t ? A.num_cols() : A.num_rows());
  const auto n_in = static_cast<std::size_t>(t ? A.num_rows() : A.num_cols());
  y.assign(n_out * k, S(0));
  scale.assign(n_out * k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    for (Ordinal i = 0; i < A.num_rows(); ++i) {
      for (auto e = A.row_map()(i); e < A.row_map()(i + 1); ++e) {
        const auto c = static_cast<std::size_t>(A.entries()(e));
        const auto r = static_cast<std::size_t>(i);
        const S a = conj_if(A.values()(e), mode == OperatorMode::conjugate_transpose);
        const std::size_t out = (t ? c : r) + j * n_out, in = (t ? r : c) + j * n_in;
        y[out] += alpha * a * x[in];
        scale[out] += mag(alpha * a * x[in]);
      }
    }
    for (std::size_t i = 0; i < n_out; ++i) {
      if (beta != S(0)) y[i + j * n_out] += beta * y0[i + j * n_out];
      scale[i + j * n_out] += mag(beta * y0[i + j * n_out]);
    }
  }
}

/// A column partition different from the row one: sizes in reverse order of balanced's.
RowPartition reversed_balanced(GlobalOrdinal n, int ranks) {
  const auto b = RowPartition::balanced(n, ranks);
  RowPartition p;
  p.offsets.assign(static_cast<std::size_t>(ranks) + 1, 0);
  for (int r = 0; r < ranks; ++r) p.offsets[static_cast<std::size_t>(r) + 1] = p.offsets[static_cast<std::size_t>(r)] + b.size(ranks - 1 - r);
  return p;
}

/// Distributed y = alpha op(A) x + beta y0 for every mode against the reference, k = 1 and 3,
/// beta = 0 over NaN and beta != 0; then the same products again must give identical bits.
template <class S>
void check_products(const HostCrs<S>& A, const RowPartition& rows, const RowPartition& cols) {
  const int rank = test::mpi_rank();
  dist::DistCrsMatrix<S> Ad(MPI_COMM_WORLD, dist::local_rows_from_global(A, rows, cols, rank));
  ASSERT_EQ(Ad.num_local_rows(), rows.size(rank));
  ASSERT_EQ(Ad.num_local_cols(), cols.size(rank));
  const S nan = S(std::numeric_limits<double>::quiet_NaN());
  for (const auto mode : {OperatorMode::no_transpose, OperatorMode::transpose, OperatorMode::conjugate_transpose}) {
    const bool t = is_transposed(mode);
    const RowPartition& in_part = t ? rows : cols;
    const RowPartition& out_part = t ? cols : rows;
    for (const std::size_t k : {std::size_t(1), std::size_t(3)}) {
      for (const S beta : {S(0), S(-0.5)}) {
        const S alpha = S(1.5);
        std::vector<S> x(static_cast<std::size_t>(in_part.global_size()) * k), y0(static_cast<std::size_t>(out_part.global_size()) * k);
        for (std::size_t j = 0; j < k; ++j) {
          for (GlobalOrdinal i = 0; i < in_part.global_size(); ++i) x[static_cast<std::size_t>(i) + j * static_cast<std::size_t>(in_part.global_size())] = value_at<S>(i, j);
          for (GlobalOrdinal i = 0; i < out_part.global_size(); ++i) y0[static_cast<std::size_t>(i) + j * static_cast<std::size_t>(out_part.global_size())] = value_at<S>(i + 1000, j);
        }
        std::vector<S> ref;
        std::vector<double> scale;
        reference(A, mode, alpha, beta, x, y0, k, ref, scale);

        const auto n_in = static_cast<std::size_t>(in_part.size(rank)), n_out = static_cast<std::size_t>(out_part.size(rank));
        MultiVectorView<S, Kokkos::LayoutLeft> X("X", n_in, k), Y("Y", n_out, k), Y2("Y2", n_out, k);
        auto Xh = Kokkos::create_mirror_view(X);
        auto Yh = Kokkos::create_mirror_view(Y);
        for (std::size_t j = 0; j < k; ++j) {
          for (std::size_t i = 0; i < n_in; ++i) Xh(i, j) = x[static_cast<std::size_t>(in_part.begin(rank)) + i + j * static_cast<std::size_t>(in_part.global_size())];
          for (std::size_t i = 0; i < n_out; ++i) {
            Yh(i, j) = beta == S(0) ? nan : y0[static_cast<std::size_t>(out_part.begin(rank)) + i + j * static_cast<std::size_t>(out_part.global_size())];
          }
        }
        Kokkos::deep_copy(X, Xh);
        Kokkos::deep_copy(Y, Yh);
        Kokkos::deep_copy(Y2, Yh);
        if (k == 1) {
          Ad.apply(Kokkos::subview(X, Kokkos::ALL, 0), Kokkos::subview(Y, Kokkos::ALL, 0), alpha, beta, mode);
          Ad.apply(Kokkos::subview(X, Kokkos::ALL, 0), Kokkos::subview(Y2, Kokkos::ALL, 0), alpha, beta, mode);
        } else {
          Ad.apply(X, Y, alpha, beta, mode);
          Ad.apply(X, Y2, alpha, beta, mode);
        }
        Kokkos::deep_copy(Yh, Y);
        auto Y2h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y2);
        int bad = 0;
        for (std::size_t j = 0; j < k; ++j) {
          for (std::size_t i = 0; i < n_out; ++i) {
            const std::size_t g = static_cast<std::size_t>(out_part.begin(rank)) + i + j * static_cast<std::size_t>(out_part.global_size());
            const double err = mag(Yh(i, j) - ref[g]);
            if (!(err <= 1e-13 * scale[g] + 1e-300) && bad++ < 3) {
              ADD_FAILURE() << "rank " << rank << " mode " << to_string(mode) << " k " << k << " beta "
                            << mag(beta) << ": y(" << i << ", " << j << ") off by " << err << " (scale " << scale[g] << ")";
            }
          }
        }
        EXPECT_EQ(std::memcmp(Yh.data(), Y2h.data(), n_out * k * sizeof(S)), 0)
            << "two products differ in their bits (mode " << to_string(mode) << ", k " << k << ")";
      }
    }
  }
}

TEST(DistCrsMatrix, NonsymmetricMatchesTheSerialProductInEveryMode) {
  const auto A = load<double>("mahindas");
  check_products(A, RowPartition::balanced(A.num_rows(), test::mpi_size()), RowPartition::balanced(A.num_cols(), test::mpi_size()));
}

TEST(DistCrsMatrix, ColumnPartitionDifferentFromTheRowPartition) {
  const auto A = load<double>("olm1000");
  check_products(A, RowPartition::balanced(A.num_rows(), test::mpi_size()), reversed_balanced(A.num_cols(), test::mpi_size()));
}

TEST(DistCrsMatrix, RectangularMatrices) {
  for (const char* name : {"lp_e226", "rapP"}) {
    SCOPED_TRACE(name);
    const auto A = load<double>(name);
    check_products(A, RowPartition::balanced(A.num_rows(), test::mpi_size()), RowPartition::balanced(A.num_cols(), test::mpi_size()));
  }
}

TEST(DistCrsMatrix, EmptyRowsAndColumns) {
  const auto A = with_empty_rows_and_columns(load<double>("sherman5"));
  check_products(A, RowPartition::balanced(A.num_rows(), test::mpi_size()), RowPartition::balanced(A.num_cols(), test::mpi_size()));
}

TEST(DistCrsMatrix, ComplexNonsymmetric) {
  const auto A = load<C>("young1c");
  check_products(A, RowPartition::balanced(A.num_rows(), test::mpi_size()), RowPartition::balanced(A.num_cols(), test::mpi_size()));
}

TEST(DistCrsMatrix, MoreRanksThanRows) {
  // 2 x 2 and 2 x 3 (complex) on up to 4 ranks: ranks 2 and 3 own nothing.
  const auto A = from_rows<double>(2, 2, {{{0, 1.0}, {1, 2.0}}, {{0, 3.0}, {1, 4.0}}});
  check_products(A, RowPartition::balanced(2, test::mpi_size()), RowPartition::balanced(2, test::mpi_size()));
  const auto B = from_rows<C>(2, 3, {{{0, C(1, 1)}, {2, C(2, -1)}}, {{1, C(0, 3)}}});
  check_products(B, RowPartition::balanced(2, test::mpi_size()), RowPartition::balanced(3, test::mpi_size()));
  // Everything on the last rank.
  RowPartition last;
  last.offsets.assign(static_cast<std::size_t>(test::mpi_size()), 0);
  last.offsets.push_back(2);
  check_products(A, last, RowPartition::balanced(2, test::mpi_size()));
}

TEST(DistCrsMatrix, HaloPlanIsConsistent) {
  // A 1D Laplacian: each inner rank has exactly its two neighbours, one entry each way.
  const int n = 40;
  const auto A = laplace1d(n);
  const auto part = RowPartition::balanced(n, test::mpi_size());
  const int rank = test::mpi_rank();
  dist::DistCrsMatrix<double> Ad(MPI_COMM_WORLD, dist::local_rows_from_global(A, part, part, rank));
  const int neighbours = (rank > 0 ? 1 : 0) + (rank + 1 < test::mpi_size() ? 1 : 0);
  EXPECT_EQ(Ad.num_ghosts(), neighbours);
  EXPECT_EQ(Ad.halo().num_messages(), neighbours);
  EXPECT_EQ(Ad.halo().num_send(), neighbours);
  EXPECT_EQ(Ad.local_nnz(), A.row_map()(part.end(rank)) - A.row_map()(part.begin(rank)));
}

TEST(DistVector, ScatterAndGatherWithARenumbering) {
  const GlobalOrdinal n = 23;
  const auto part = RowPartition::balanced(n, test::mpi_size());
  std::vector<GlobalOrdinal> new_of_old(static_cast<std::size_t>(n));
  for (GlobalOrdinal i = 0; i < n; ++i) new_of_old[static_cast<std::size_t>(i)] = (7 * i + 3) % n;  // 7 is invertible mod 23
  std::vector<double> global;
  if (test::mpi_rank() == 0) {
    for (GlobalOrdinal i = 0; i < n; ++i) global.push_back(100.0 + static_cast<double>(i));
  }
  const auto local = dist::scatter_vector<double>(MPI_COMM_WORLD, part, global, new_of_old);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local);
  ASSERT_EQ(static_cast<GlobalOrdinal>(h.extent(0)), part.size(test::mpi_rank()));
  for (std::size_t i = 0; i < h.extent(0); ++i) {
    const GlobalOrdinal new_index = part.begin(test::mpi_rank()) + static_cast<GlobalOrdinal>(i);
    GlobalOrdinal old = 0;
    while (new_of_old[static_cast<std::size_t>(old)] != new_index) ++old;
    EXPECT_EQ(h(i), 100.0 + static_cast<double>(old));
  }
  const auto back = dist::gather_vector(MPI_COMM_WORLD, part, local, new_of_old);
  if (test::mpi_rank() == 0) {
    EXPECT_EQ(back, global);
  } else {
    EXPECT_TRUE(back.empty());
  }
}

TEST(DistVector, BadRenumberingThrowsOnEveryRank) {
  const auto part = RowPartition::balanced(5, test::mpi_size());
  std::vector<double> global(5, 1.0);
  const std::vector<GlobalOrdinal> not_a_permutation{0, 1, 1, 3, 4};
  EXPECT_THROW(dist::scatter_vector<double>(MPI_COMM_WORLD, part, global, not_a_permutation), InvalidArgument);
  const std::vector<double> wrong_size(4, 1.0);
  EXPECT_THROW(dist::scatter_vector<double>(MPI_COMM_WORLD, part, wrong_size), DimensionMismatch);
}

/// The message every rank got must be the same: compared through rank 0's length and bytes.
void expect_same_message_on_all_ranks(const std::string& message) {
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string root(static_cast<std::size_t>(length), ' ');
  if (test::mpi_rank() == 0) root = message;
  MPI_Bcast(&root[0], length, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(message, root);
}

TEST(DistCrsMatrix, BadColumnOnOneRankThrowsTheSameErrorEverywhere) {
  const auto A = load<double>("olm1000");
  const auto part = RowPartition::balanced(A.num_rows(), test::mpi_size());
  const int bad_rank = test::mpi_size() > 1 ? 1 : 0;
  auto mine = dist::local_rows_from_global(A, part, part, test::mpi_rank());
  if (test::mpi_rank() == bad_rank) mine.col_index[1] = A.num_cols() + 5;
  std::string message;
  try {
    dist::DistCrsMatrix<double> Ad(MPI_COMM_WORLD, mine);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("rank " + std::to_string(bad_rank) + ": "), std::string::npos) << message;
  EXPECT_NE(message.find("column index 1005"), std::string::npos) << message;
  expect_same_message_on_all_ranks(message);
}

TEST(DistCrsMatrix, InconsistentInputThrowsOnEveryRank) {
  const auto A = load<double>("olm1000");
  const auto part = RowPartition::balanced(A.num_rows(), test::mpi_size());
  const int last = test::mpi_size() - 1;
  {  // the global column count differs on the last rank
    auto mine = dist::local_rows_from_global(A, part, part, test::mpi_rank());
    if (test::mpi_rank() == last && test::mpi_size() > 1) mine.global_cols += 1;
    if (test::mpi_size() > 1) {
      EXPECT_THROW(dist::DistCrsMatrix<double>(MPI_COMM_WORLD, mine), InvalidArgument);
    }
  }
  {  // a row map one entry short on the last rank
    auto mine = dist::local_rows_from_global(A, part, part, test::mpi_rank());
    if (test::mpi_rank() == last) mine.row_map.pop_back();
    std::string message;
    try {
      dist::DistCrsMatrix<double> Ad(MPI_COMM_WORLD, mine);
    } catch (const DimensionMismatch& e) {
      message = e.what();
    }
    EXPECT_NE(message.find("row_map has"), std::string::npos) << message;
    expect_same_message_on_all_ranks(message);
  }
  {  // a partition over the wrong number of ranks (on every rank)
    auto mine = dist::local_rows_from_global(A, part, part, test::mpi_rank());
    mine.cols = RowPartition::balanced(A.num_cols(), test::mpi_size() + 1);
    EXPECT_THROW(dist::DistCrsMatrix<double>(MPI_COMM_WORLD, mine), InvalidArgument);
  }
}

// ---- Solvers on the distributed operator -------------------------------------------------------

template <class S>
struct Problem {
  std::shared_ptr<dist::DistCrsMatrix<S>> A;
  std::shared_ptr<dist::DistOperator<S>> op;
  std::shared_ptr<precond::Jacobi<CrsMatrix<S>>> M;  // on the local block = global Jacobi
  VectorView<S> b, x;
};

template <class S>
Problem<S> distribute(const HostCrs<S>& A_host) {
  Problem<S> p;
  const auto part = RowPartition::balanced(A_host.num_rows(), test::mpi_size());
  p.A = std::make_shared<dist::DistCrsMatrix<S>>(MPI_COMM_WORLD, dist::local_rows_from_global(A_host, part, part, test::mpi_rank()));
  p.op = std::make_shared<dist::DistOperator<S>>(p.A);
  p.M = std::make_shared<precond::Jacobi<CrsMatrix<S>>>();
  p.M->setup(p.A->local_block());
  std::vector<S> b;
  if (test::mpi_rank() == 0) {
    for (Ordinal i = 0; i < A_host.num_rows(); ++i) b.push_back(value_at<S>(i, 0));
  }
  p.b = dist::scatter_vector<S>(MPI_COMM_WORLD, part, b);
  p.x = VectorView<S>("x", static_cast<std::size_t>(part.size(test::mpi_rank())));
  return p;
}

/// The serial solve on rank 0's whole matrix, and the distributed one: same iterations (+-2),
/// solutions within the tolerance.
template <class Solve>
void compare_with_serial(const HostCrs<double>& A_host, Solve solve, double tolerance) {
  auto A = copy_to<DefaultDevice>(A_host);
  auto serial_op = std::make_shared<MatrixOperator<CrsMatrix<double>>>(A);
  auto serial_M = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  serial_M->setup(A);
  VectorView<double> b("b", static_cast<std::size_t>(A.num_rows())), x("x", static_cast<std::size_t>(A.num_rows()));
  auto bh = Kokkos::create_mirror_view(b);
  for (Ordinal i = 0; i < A.num_rows(); ++i) bh(i) = value_at<double>(i, 0);
  Kokkos::deep_copy(b, bh);
  const auto serial = solve(serial_op, serial_M, b, x, solvers::LocalReduction());

  auto p = distribute(A_host);
  const auto distributed = solve(p.op, p.M, p.b, p.x, dist::MpiReduction());

  EXPECT_TRUE(serial.converged());
  EXPECT_TRUE(distributed.converged());
  EXPECT_NEAR(distributed.iterations, serial.iterations, 2);
  const auto gathered = dist::gather_vector(MPI_COMM_WORLD, p.A->row_partition(), p.x);
  if (test::mpi_rank() == 0) {
    auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < gathered.size(); ++i) {
      diff += (gathered[i] - xh(i)) * (gathered[i] - xh(i));
      norm += xh(i) * xh(i);
    }
    EXPECT_LE(std::sqrt(diff), tolerance * std::sqrt(norm));
  }
}

TEST(DistSolvers, CgOnACoupledSpdMatrixMatchesTheSerialSolve) {
  for (const char* name : {"gr_30_30", "bcsstk14"}) {
    SCOPED_TRACE(name);
    solvers::CgParams params;
    params.relative_tolerance = 1e-8;
    params.max_iterations = 2000;
    compare_with_serial(
        load<double>(name),
        [&](auto A, auto M, auto b, auto x, auto reduce) {
          solvers::Cg<double, DefaultDevice, decltype(reduce)> cg(A, M, params, reduce);
          return cg.solve(b, x);
        },
        1e-5);
  }
}

/// Convection-diffusion on an m x m grid (upwind, nonsymmetric, diagonally dominant).
HostCrs<double> convection_diffusion(int m) {
  std::vector<std::vector<std::pair<Ordinal, double>>> rows(static_cast<std::size_t>(m * m));
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      auto& row = rows[static_cast<std::size_t>(j * m + i)];
      if (j > 0) row.emplace_back((j - 1) * m + i, -1.0);
      if (i > 0) row.emplace_back(j * m + i - 1, -1.6);
      row.emplace_back(j * m + i, 4.9);
      if (i + 1 < m) row.emplace_back(j * m + i + 1, -0.4);
      if (j + 1 < m) row.emplace_back((j + 1) * m + i, -1.0);
    }
  }
  return from_rows<double>(m * m, m * m, rows);
}

TEST(DistSolvers, GmresAndBicgstabOnANonsymmetricMatrixMatchTheSerialSolve) {
  const auto A = convection_diffusion(24);
  solvers::GmresParams gp;
  gp.relative_tolerance = 1e-9;
  gp.restart = 20;
  compare_with_serial(
      A,
      [&](auto Aop, auto M, auto b, auto x, auto reduce) {
        solvers::Gmres<double, DefaultDevice, decltype(reduce)> gmres(Aop, M, gp, reduce);
        return gmres.solve(b, x);
      },
      1e-6);
  solvers::BicgstabParams bp;
  bp.relative_tolerance = 1e-9;
  compare_with_serial(
      A,
      [&](auto Aop, auto M, auto b, auto x, auto reduce) {
        solvers::Bicgstab<double, DefaultDevice, decltype(reduce)> bicgstab(Aop, M, bp, reduce);
        return bicgstab.solve(b, x);
      },
      1e-6);
}

TEST(DistSolvers, OperatorChecksShapesAndSupportsEveryMode) {
  const auto A = load<double>("lp_e226");
  const auto rows = RowPartition::balanced(A.num_rows(), test::mpi_size());
  const auto cols = RowPartition::balanced(A.num_cols(), test::mpi_size());
  auto Ad = std::make_shared<dist::DistCrsMatrix<double>>(MPI_COMM_WORLD, dist::local_rows_from_global(A, rows, cols, test::mpi_rank()));
  dist::DistOperator<double> op(Ad);
  EXPECT_TRUE(op.supports(OperatorMode::conjugate_transpose));
  EXPECT_EQ(op.num_rows(), rows.size(test::mpi_rank()));
  EXPECT_EQ(op.num_cols(), cols.size(test::mpi_rank()));
  EXPECT_NE(op.summary().find("223 x 472"), std::string::npos) << op.summary();
  VectorView<double> wrong("wrong", static_cast<std::size_t>(op.num_cols()) + 1), y("y", static_cast<std::size_t>(op.num_rows()));
  EXPECT_THROW(op.apply(wrong, y), DimensionMismatch);  // checked locally, before any message

  // Blocks through the Operator interface: one exchange for k = 2 columns, equal to two
  // vector products (to rounding), in the transposed mode.
  const auto n_in = static_cast<std::size_t>(op.num_rows()), n_out = static_cast<std::size_t>(op.num_cols());
  MultiVectorView<double, Kokkos::LayoutLeft> X("X", n_in, 2), Y("Y", n_out, 2), Z("Z", n_out, 2);
  auto Xh = Kokkos::create_mirror_view(X);
  for (std::size_t j = 0; j < 2; ++j) {
    for (std::size_t i = 0; i < n_in; ++i) Xh(i, j) = value_at<double>(rows.begin(test::mpi_rank()) + static_cast<GlobalOrdinal>(i), j);
  }
  Kokkos::deep_copy(X, Xh);
  Kokkos::deep_copy(Y, std::numeric_limits<double>::quiet_NaN());
  Kokkos::deep_copy(Z, std::numeric_limits<double>::quiet_NaN());
  op.apply(X, Y, 2.0, 0.0, OperatorMode::transpose);
  for (std::size_t j = 0; j < 2; ++j) {
    op.apply(Kokkos::subview(X, Kokkos::ALL, j), Kokkos::subview(Z, Kokkos::ALL, j), 2.0, 0.0, OperatorMode::transpose);
  }
  auto Yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  auto Zh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Z);
  for (std::size_t j = 0; j < 2; ++j) {
    for (std::size_t i = 0; i < n_out; ++i) EXPECT_NEAR(Yh(i, j), Zh(i, j), 1e-12 * (1.0 + std::abs(Zh(i, j))));
  }
}

// ---- The compressed ghost block (issue 14, performance): only rows with ghost entries. ----

/// The local and ghost blocks, mapped back to global columns through the row list, give this
/// rank's rows of A exactly (what a gather to the global matrix relies on); the row list is
/// increasing, names exactly the rows with an off-rank entry, and has no empty ghost row.
template <class S>
void check_blocks_rebuild_rows(const HostCrs<S>& A, const RowPartition& rows, const RowPartition& cols,
                               const dist::DistCrsMatrix<S>& Ad) {
  const int rank = test::mpi_rank();
  const auto L = to_host(Ad.local_block());
  const auto G = to_host(Ad.ghost_block());
  const auto& list = Ad.ghost_rows_host();
  auto list_d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Ad.ghost_rows());
  ASSERT_EQ(G.num_rows(), Ad.num_ghost_rows());
  ASSERT_EQ(list.size(), static_cast<std::size_t>(G.num_rows()));
  ASSERT_EQ(list_d.extent(0), list.size());
  ASSERT_EQ(G.num_cols(), Ad.num_ghosts());
  std::size_t r = 0;  // next compressed ghost row
  for (Ordinal i = 0; i < Ad.num_local_rows(); ++i) {
    const GlobalOrdinal gi = rows.begin(rank) + i;
    std::vector<std::pair<GlobalOrdinal, S>> expected, got;
    bool off_rank = false;
    for (auto e = A.row_map()(gi); e < A.row_map()(gi + 1); ++e) {
      expected.emplace_back(A.entries()(e), A.values()(e));
      off_rank = off_rank || cols.owner(A.entries()(e)) != rank;
    }
    for (auto e = L.row_map()(i); e < L.row_map()(i + 1); ++e) got.emplace_back(cols.begin(rank) + L.entries()(e), L.values()(e));
    if (r < list.size() && list[r] == i) {
      EXPECT_EQ(list_d(r), i);
      EXPECT_LT(G.row_map()(static_cast<Ordinal>(r)), G.row_map()(static_cast<Ordinal>(r) + 1)) << "empty ghost row " << r;
      for (auto e = G.row_map()(static_cast<Ordinal>(r)); e < G.row_map()(static_cast<Ordinal>(r) + 1); ++e) {
        got.emplace_back(Ad.ghost_columns()[static_cast<std::size_t>(G.entries()(e))], G.values()(e));
      }
      ++r;
    }
    EXPECT_EQ(off_rank, r > 0 && list[r - 1] == i) << "rank " << rank << " local row " << i;
    std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    ASSERT_EQ(got.size(), expected.size()) << "rank " << rank << " local row " << i;
    for (std::size_t e = 0; e < got.size(); ++e) {
      EXPECT_EQ(got[e].first, expected[e].first);
      EXPECT_EQ(got[e].second, expected[e].second);
    }
  }
  EXPECT_EQ(r, list.size()) << "row list not increasing or out of range";
}

/// Blocks rebuilt, then every product mode against the serial reference.
template <class S>
void check_ghost_rows(const HostCrs<S>& A, const RowPartition& rows, const RowPartition& cols,
                      Ordinal expected_ghost_rows) {
  dist::DistCrsMatrix<S> Ad(MPI_COMM_WORLD, dist::local_rows_from_global(A, rows, cols, test::mpi_rank()));
  if (expected_ghost_rows >= 0) { EXPECT_EQ(Ad.num_ghost_rows(), expected_ghost_rows); }
  check_blocks_rebuild_rows(A, rows, cols, Ad);
  check_products(A, rows, cols);
}

TEST(DistGhostRows, OnlyTheBoundaryRowsOfA1dLaplacian) {
  const int n = 41;  // odd: unequal blocks on 2 and 4 ranks
  const auto A = laplace1d(n);
  const auto part = RowPartition::balanced(n, test::mpi_size());
  const int rank = test::mpi_rank();
  const int neighbours = (rank > 0 ? 1 : 0) + (rank + 1 < test::mpi_size() ? 1 : 0);
  check_ghost_rows(A, part, part, neighbours);
  dist::DistCrsMatrix<double> Ad(MPI_COMM_WORLD, dist::local_rows_from_global(A, part, part, rank));
  EXPECT_EQ(Ad.ghost_block().nnz(), neighbours);
  if (rank > 0) { EXPECT_EQ(Ad.ghost_rows_host().front(), 0); }
  if (rank + 1 < test::mpi_size()) { EXPECT_EQ(Ad.ghost_rows_host().back(), Ad.num_local_rows() - 1); }
}

TEST(DistGhostRows, NoGhostRowsWhenEveryRankIsUncoupled) {
  // Tridiagonal within each rank's block only: no halo at all, an empty ghost block.
  const int n = 37;
  const auto part = RowPartition::balanced(n, test::mpi_size());
  std::vector<std::vector<std::pair<Ordinal, C>>> rows(n);
  for (int i = 0; i < n; ++i) {
    const int owner = part.owner(i);
    if (i > 0 && part.owner(i - 1) == owner) rows[static_cast<std::size_t>(i)].emplace_back(i - 1, C(-1, 0.5));
    rows[static_cast<std::size_t>(i)].emplace_back(i, C(3, 0));
    if (i + 1 < n && part.owner(i + 1) == owner) rows[static_cast<std::size_t>(i)].emplace_back(i + 1, C(-1, -0.25));
  }
  const auto A = from_rows<C>(n, n, rows);
  check_ghost_rows(A, part, part, 0);
  dist::DistCrsMatrix<C> Ad(MPI_COMM_WORLD, dist::local_rows_from_global(A, part, part, test::mpi_rank()));
  EXPECT_EQ(Ad.num_ghosts(), 0);
  EXPECT_EQ(Ad.halo().num_messages(), 0);
}

TEST(DistGhostRows, EveryRowIsAGhostRow) {
  // a(i, i) and a(i, (i + n/2) mod n): on 2-4 ranks the second column is always owned elsewhere.
  const int n = 30;
  std::vector<std::vector<std::pair<Ordinal, double>>> rows(n);
  for (int i = 0; i < n; ++i) {
    const int j = (i + n / 2) % n;
    rows[static_cast<std::size_t>(i)].emplace_back(std::min(i, j), 1.0 + i);
    rows[static_cast<std::size_t>(i)].emplace_back(std::max(i, j), -0.5 * i);
  }
  const auto A = from_rows<double>(n, n, rows);
  const auto part = RowPartition::balanced(n, test::mpi_size());
  check_ghost_rows(A, part, part, test::mpi_size() > 1 ? static_cast<Ordinal>(part.size(test::mpi_rank())) : 0);
}

TEST(DistGhostRows, EmptyRanksAndRealMatrices) {
  // More ranks than rows: the empty ranks have no ghost rows and still take part.
  const auto A = from_rows<double>(2, 3, {{{0, 1.0}, {2, 2.0}}, {{1, 3.0}}});
  const auto rows = RowPartition::balanced(2, test::mpi_size());
  check_ghost_rows(A, rows, RowPartition::balanced(3, test::mpi_size()), rows.size(test::mpi_rank()) == 0 ? 0 : -1);
  // Nonsymmetric with empty rows and columns, and a column partition unlike the row one.
  const auto B = with_empty_rows_and_columns(load<double>("sherman5"));
  check_ghost_rows(B, RowPartition::balanced(B.num_rows(), test::mpi_size()), reversed_balanced(B.num_cols(), test::mpi_size()), -1);
  const auto R = load<double>("lp_e226");  // rectangular
  check_ghost_rows(R, RowPartition::balanced(R.num_rows(), test::mpi_size()), RowPartition::balanced(R.num_cols(), test::mpi_size()), -1);
}

}  // namespace
}  // namespace kelp::dist_crs_matrix_test
