// SpGEMM (plain and Jacobi-fused), the triple product and their handles: hand-computed products,
// the sequential reference (test/support/sparse_reference.hpp) and Eigen's sparse product on
// generated rectangular matrices with empty rows and rows longer than a team, complex values,
// empty and 1 x 1 shapes, values-only numeric reuse, and misuse errors.
#include <gtest/gtest.h>

#include <Eigen/SparseCore>

#include "kelp/kernels/spadd/spadd.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::spgemm_test {
namespace {

using Complex = Kokkos::complex<double>;
using kernels::SpgemmAlgorithm;
const SpgemmAlgorithm algorithms[] = {SpgemmAlgorithm::automatic, SpgemmAlgorithm::dense,
                                      SpgemmAlgorithm::hash};

/// C = A·B through symbolic + (poisoned) numeric, checked against the reference.
template <class Scalar>
void check_product(const CrsMatrix<Scalar>& A, const CrsMatrix<Scalar>& B, const std::string& what,
                   double tol = 1e-13) {
  const auto expected = test::reference_spgemm(test::to_host_crs(A), test::to_host_crs(B));
  for (auto algorithm : algorithms) {
    kernels::SpgemmHandle<CrsMatrix<Scalar>> handle(algorithm);
    CrsMatrix<Scalar> C;

    kernels::spgemm_symbolic(handle, A, B, C);
    test::poison(C.values());
    kernels::spgemm_numeric(handle, A, B, C);

    const std::string label = what + " (" + kernels::to_string(algorithm) + ")";
    test::expect_crs_near(C, expected, tol, label);
    EXPECT_EQ(handle.nnz(), static_cast<long long>(expected.entries.size())) << label;
    EXPECT_NE(handle.algorithm(), SpgemmAlgorithm::automatic) << label;
  }
}

TEST(Spgemm, TwoByThreeTimesThreeByTwoMatchesHandComputation) {
  auto A = test::crs_from_dense<double>({{1, 0, 2}, {0, 3, 0}});   // 2 x 3
  auto B = test::crs_from_dense<double>({{0, 4}, {5, 0}, {6, 7}});  // 3 x 2

  auto C = kernels::spgemm(A, B);

  // [[1*0 + 2*6, 1*4 + 2*7], [3*5, 0]]
  EXPECT_EQ(test::to_dense(C), (std::vector<std::vector<double>>{{12, 18}, {15, 0}}));
  EXPECT_EQ(C.nnz(), 3);
}

TEST(Spgemm, MatchesReferenceOnRectangularMatricesWithEmptyAndLongRows) {
  // B has rows denser than a team (its long rows span all 1300 columns) and empty rows; A too.
  auto A = test::random_crs<double>(211, 157, 5, 6, 2, 21);
  auto B = test::random_crs<double>(157, 1300, 6, 5, 2, 22);
  check_product(A, B, "double 211x157 * 157x1300");
  check_product(test::random_crs<float>(64, 90, 4, 7, 1, 23), test::random_crs<float>(90, 40, 3, 4, 1, 24),
                "float 64x90 * 90x40", 1e-5);
}

TEST(Spgemm, MatchesReferenceForComplexValues) {
  auto A = test::random_crs<Complex>(120, 300, 5, 9, 2, 31);
  auto B = test::random_crs<Complex>(300, 77, 4, 8, 1, 32);
  check_product(A, B, "complex 120x300 * 300x77");
}

TEST(Spgemm, EmptyOneByOneAndZeroInnerDimension) {
  check_product(test::crs_from_arrays<double>(0, 0, {0}, {}, {}),
                test::crs_from_arrays<double>(0, 0, {0}, {}, {}), "0x0 * 0x0");
  check_product(test::crs_from_arrays<double>(0, 5, {0}, {}, {}),
                test::random_crs<double>(5, 3, 2, 0, 0, 1), "0x5 * 5x3");
  check_product(test::crs_from_arrays<double>(4, 0, {0, 0, 0, 0, 0}, {}, {}),
                test::crs_from_arrays<double>(0, 3, {0}, {}, {}), "4x0 * 0x3");
  check_product(test::crs_from_arrays<Complex>(1, 1, {0, 1}, {0}, {Complex(2, 1)}),
                test::crs_from_arrays<Complex>(1, 1, {0, 1}, {0}, {Complex(0, 3)}), "1x1");
}

TEST(Spgemm, HandlesUnsortedRowsAndDuplicatesInTheInputs) {
  // Row 0 of A: columns 2, 0, 2 (a duplicate); row 1: column 1. B's row 2 is unsorted.
  auto A = test::crs_from_arrays<double>(2, 3, {0, 3, 4}, {2, 0, 2, 1}, {1, 2, 3, 4});
  auto B = test::crs_from_arrays<double>(3, 4, {0, 1, 2, 5}, {3, 0, 3, 1, 0}, {1, 2, 3, 4, 5});
  check_product(A, B, "unsorted with duplicates");
}

TEST(Spgemm, MatchesEigenSparseProduct) {
  auto A = test::random_crs<double>(300, 250, 6, 11, 2, 41);
  auto B = test::random_crs<double>(250, 320, 6, 13, 2, 42);
  using EigenMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, long long>;
  auto to_eigen = [](const CrsMatrix<double>& M) {
    const auto h = test::to_host_crs(M);
    std::vector<Eigen::Triplet<double, long long>> triplets;
    for (int i = 0; i < h.num_rows; ++i)
      for (long long k = h.row_map[i]; k < h.row_map[i + 1]; ++k) triplets.emplace_back(i, h.entries[k], h.values[k]);
    EigenMatrix E(h.num_rows, h.num_cols);
    E.setFromTriplets(triplets.begin(), triplets.end());
    return E;
  };
  const EigenMatrix expected = (to_eigen(A) * to_eigen(B)).pruned(0.0, 0.0);

  auto C = kernels::spgemm(A, B);

  const auto h = test::to_host_crs(C);
  long long nonzero = 0;
  for (int i = 0; i < h.num_rows; ++i) {
    for (long long k = h.row_map[i]; k < h.row_map[i + 1]; ++k) {
      EXPECT_NEAR(h.values[k], expected.coeff(i, h.entries[k]), 1e-13 * (1 + std::abs(h.values[k])));
      if (h.values[k] != 0) ++nonzero;
    }
  }
  EXPECT_EQ(nonzero, expected.nonZeros());
}

TEST(Spgemm, NumericReuseAfterValuesChangeMatchesFreshProduct) {
  auto A = test::random_crs<Complex>(180, 140, 5, 7, 1, 51);
  auto B = test::random_crs<Complex>(140, 200, 5, 9, 1, 52);
  for (auto algorithm : algorithms) {
    kernels::SpgemmHandle<CrsMatrix<Complex>> handle(algorithm);
    CrsMatrix<Complex> C;
    kernels::spgemm_symbolic(handle, A, B, C);
    kernels::spgemm_numeric(handle, A, B, C);
    const auto* entries_before = C.entries().data();
    test::update_values(A, [](std::size_t k, Complex v) { return v * Complex(2, -1) + Complex(double(k % 7), 0); });
    test::update_values(B, [](std::size_t k, Complex v) { return v - Complex(0, double(k % 3)); });
    test::poison(C.values());

    kernels::spgemm_numeric(handle, A, B, C);

    EXPECT_EQ(C.entries().data(), entries_before);
    test::expect_crs_near(C, test::reference_spgemm(test::to_host_crs(A), test::to_host_crs(B)), 1e-13,
                          std::string("reuse ") + kernels::to_string(algorithm));
  }
}

TEST(Spgemm, RejectsMismatchedShapes) {
  auto A = test::random_crs<double>(3, 4, 2, 0, 0, 1);
  auto B = test::random_crs<double>(5, 2, 2, 0, 0, 2);
  kernels::SpgemmHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;

  test::expect_throw_containing<DimensionMismatch>([&] { kernels::spgemm_symbolic(handle, A, B, C); },
                                                   "A is 3 x 4, B is 5 x 2");
}

TEST(Spgemm, RejectsNumericBeforeSymbolicAndChangedPatternsOrShapes) {
  auto A = test::random_crs<double>(30, 20, 3, 0, 0, 1);
  auto B = test::random_crs<double>(20, 10, 3, 0, 0, 2);
  auto A_other = test::random_crs<double>(30, 20, 3, 0, 0, 3);
  auto B_wide = test::random_crs<double>(20, 11, 3, 0, 0, 4);
  kernels::SpgemmHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;
  test::expect_throw_containing<InvalidState>([&] { kernels::spgemm_numeric(handle, A, B, C); },
                                              "called before spgemm_symbolic");
  kernels::spgemm_symbolic(handle, A, B, C);

  test::expect_throw_containing<InvalidState>([&] { kernels::spgemm_numeric(handle, A_other, B, C); },
                                              "A's pattern differs from the one the symbolic phase saw: A is now 30 x 20 with");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::spgemm_numeric(handle, A, B_wide, C); },
                                                   "B is 20 x 11; the symbolic phase saw A 30 x 20, B 20 x 10");
  CrsMatrix<double> other = kernels::spgemm(A, B);
  test::expect_throw_containing<InvalidArgument>([&] { kernels::spgemm_numeric(handle, A, B, other); },
                                                 "is not the matrix that spgemm_symbolic produced");
  auto square = test::random_crs<double>(20, 20, 3, 0, 0, 5);
  test::expect_throw_containing<InvalidState>(
      [&] { kernels::jacobi_spgemm_numeric(handle, 0.5, square, B, C); },
      "the handle's symbolic phase was spgemm_symbolic, expected jacobi_spgemm_symbolic");
}

/// A square matrix with a nonzero diagonal (random off-diagonal part plus a shifted diagonal).
template <class Scalar>
CrsMatrix<Scalar> with_diagonal(int n, unsigned seed) {
  const auto R = test::to_host_crs(test::random_crs<Scalar>(n, n, 4, 9, 1, seed));
  auto rows = test::rows_of(R);
  for (int i = 0; i < n; ++i) rows[i][i] += Scalar(4.0 + i % 3);
  const auto h = test::host_crs_from_rows(n, n, rows);
  return test::crs_from_arrays<Scalar>(n, n, h.row_map, h.entries, h.values);
}

template <class Scalar>
void check_jacobi(int n, int m, Scalar omega, unsigned seed) {
  auto A = with_diagonal<Scalar>(n, seed);
  auto P = test::random_crs<Scalar>(n, m, 2, 10, 1, seed + 1);
  const auto expected = test::reference_jacobi_spgemm(omega, test::to_host_crs(A), test::to_host_crs(P));
  for (auto algorithm : algorithms) {
    kernels::SpgemmHandle<CrsMatrix<Scalar>> handle(algorithm);
    CrsMatrix<Scalar> C;

    kernels::jacobi_spgemm_symbolic(handle, A, P, C);
    test::poison(C.values());
    kernels::jacobi_spgemm_numeric(handle, omega, A, P, C);

    test::expect_crs_near(C, expected, 1e-13, std::string("jacobi ") + kernels::to_string(algorithm));
  }
  // Unfused: P - omega * (D^{-1} A) P, with D^{-1} A scaled on the host.
  auto rows = test::rows_of(test::to_host_crs(A));
  for (int i = 0; i < n; ++i) {
    const Scalar d = rows[i][i];
    for (auto& entry : rows[i]) entry.second /= d;
  }
  const auto h = test::host_crs_from_rows(n, n, rows);
  auto DinvA = test::crs_from_arrays<Scalar>(n, n, h.row_map, h.entries, h.values);
  auto unfused = kernels::spadd(Scalar(1), P, -omega, kernels::spgemm(DinvA, P));
  kernels::SpgemmHandle<CrsMatrix<Scalar>> handle;
  CrsMatrix<Scalar> C;
  kernels::jacobi_spgemm_symbolic(handle, A, P, C);
  kernels::jacobi_spgemm_numeric(handle, omega, A, P, C);
  test::expect_crs_near(C, test::to_host_crs(unfused), 1e-13, "jacobi vs unfused");
}

TEST(JacobiSpgemm, MatchesReferenceAndUnfusedProduct) {
  check_jacobi<double>(230, 60, 0.6, 61);
  check_jacobi<Complex>(150, 1100, Complex(0.7, 0.1), 71);
}

TEST(JacobiSpgemm, RejectsZeroDiagonalAndNonSquareA) {
  auto A = test::crs_from_dense<double>({{2, 1}, {1, 0}});
  auto P = test::crs_from_dense<double>({{1}, {1}});
  auto R = test::crs_from_dense<double>({{1, 1}});
  kernels::SpgemmHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;
  kernels::jacobi_spgemm_symbolic(handle, A, P, C);

  test::expect_throw_containing<NumericalError>([&] { kernels::jacobi_spgemm_numeric(handle, 0.5, A, P, C); },
                                                "zero or missing diagonal entry in row 1");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::jacobi_spgemm_symbolic(handle, R, P, C); },
                                                   "A is 1 x 2, P is 2 x 1");
}

TEST(TripleProduct, MatchesTwoReferenceProductsAndReusesSymbolic) {
  auto A = with_diagonal<double>(400, 81);
  auto P = test::random_crs<double>(400, 50, 1, 0, 0, 82);
  const auto expected_of = [&] {
    const auto hP = test::to_host_crs(P);
    return test::reference_spgemm(test::reference_transpose(hP, false),
                                  test::reference_spgemm(test::to_host_crs(A), hP));
  };
  kernels::TripleProductHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;
  kernels::triple_product_symbolic(handle, A, P, C);
  kernels::triple_product_numeric(handle, A, P, C);
  test::expect_crs_near(C, expected_of(), 1e-13, "PtAP");
  test::update_values(A, [](std::size_t k, double v) { return 1.5 * v + double(k % 5); });
  test::poison(C.values());

  kernels::triple_product_numeric(handle, A, P, C);

  test::expect_crs_near(C, expected_of(), 1e-13, "PtAP after new values");
}

TEST(TripleProduct, RejectsNumericBeforeSymbolic) {
  auto A = with_diagonal<double>(4, 1);
  auto P = test::random_crs<double>(4, 2, 1, 0, 0, 2);
  kernels::TripleProductHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;

  test::expect_throw_containing<InvalidState>([&] { kernels::triple_product_numeric(handle, A, P, C); },
                                              "called before triple_product_symbolic");
}

}  // namespace
}  // namespace kelp::spgemm_test
