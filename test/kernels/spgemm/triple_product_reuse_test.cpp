// The triple product's values-only numeric phase (Pᵀ's values gathered through the permutation
// cached at symbolic time): after new values of A and of P it equals a fresh product and the
// sequential reference; real and complex (Pᵀ is the plain transpose, not conjugated);
// rectangular P with empty rows, empty columns and a long row; 0-column and 0 x 0 shapes; and a
// changed pattern of P is an error, not a read through a stale permutation.

#include <gtest/gtest.h>

#include <string>

#include "kelp/kernels/spgemm/triple_product.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::triple_product_reuse_test {
namespace {

using Complex = Kokkos::complex<double>;

/// Pᵀ·(A·P) from the sequential reference (plain transpose).
template <class Scalar>
test::HostCrs<Scalar> reference_ptap(const CrsMatrix<Scalar>& A, const CrsMatrix<Scalar>& P) {
  const auto hP = test::to_host_crs(P);
  return test::reference_spgemm(test::reference_transpose(hP, false),
                                test::reference_spgemm(test::to_host_crs(A), hP));
}

/// Symbolic + numeric, then new values of A and of P, numeric reuse: equals a fresh product.
template <class Scalar>
void check_reuse(CrsMatrix<Scalar> A, CrsMatrix<Scalar> P, const std::string& what) {
  kernels::TripleProductHandle<CrsMatrix<Scalar>> handle;
  CrsMatrix<Scalar> C;
  kernels::triple_product_symbolic(handle, A, P, C);
  test::poison(C.values());
  kernels::triple_product_numeric(handle, A, P, C);
  test::expect_crs_near(C, reference_ptap(A, P), 1e-12, what + ": first numeric");
  const auto* entries_before = C.entries().data();
  const auto* restriction_entries_before = handle.restriction().entries().data();

  test::update_values(A, [](std::size_t k, Scalar v) { return Scalar(1.5) * v + Scalar(double(k % 5)); });
  test::update_values(P, [](std::size_t k, Scalar v) { return Scalar(-0.5) * v + Scalar(double(k % 3) + 1); });
  test::poison(C.values());
  kernels::triple_product_numeric(handle, A, P, C);

  EXPECT_EQ(C.entries().data(), entries_before) << what;
  EXPECT_EQ(handle.restriction().entries().data(), restriction_entries_before) << what;
  const auto expected = reference_ptap(A, P);
  test::expect_crs_near(C, expected, 1e-12, what + ": reuse after new values of A and P");

  kernels::TripleProductHandle<CrsMatrix<Scalar>> fresh;
  CrsMatrix<Scalar> D;
  kernels::triple_product_symbolic(fresh, A, P, D);
  kernels::triple_product_numeric(fresh, A, P, D);
  test::expect_crs_near(D, expected, 1e-12, what + ": fresh product");
}

TEST(TripleProductReuse, RealRectangularWithEmptyRowsColumnsAndLongRow) {
  // 300 x 300 A with empty rows; P 300 x 120 with every 7th row empty, a long row, and (at ~1.5
  // entries per row over 120 columns) some empty columns.
  check_reuse(test::random_crs<double>(300, 300, 4, 9, 1, 11), test::random_crs<double>(300, 120, 1, 7, 1, 12),
              "real 300 x 120");
  // P wider than its row count gives many empty columns of P (empty rows of Pᵀ).
  check_reuse(test::random_crs<double>(40, 40, 3, 5, 0, 13), test::random_crs<double>(40, 90, 1, 4, 0, 14),
              "real 40 x 90");
}

TEST(TripleProductReuse, ComplexUsesThePlainTranspose) {
  check_reuse(test::random_crs<Complex>(150, 150, 4, 8, 1, 21), test::random_crs<Complex>(150, 60, 2, 6, 1, 22),
              "complex 150 x 60");
}

TEST(TripleProductReuse, EmptyShapes) {
  check_reuse(test::random_crs<double>(5, 5, 2, 0, 0, 31), test::random_crs<double>(5, 0, 0, 0, 0, 32), "5 x 0 P");
  check_reuse(test::random_crs<double>(0, 0, 0, 0, 0, 33), test::random_crs<double>(0, 0, 0, 0, 0, 34), "0 x 0");
  check_reuse(test::random_crs<double>(1, 1, 1, 0, 0, 35), test::random_crs<double>(1, 1, 1, 0, 0, 36), "1 x 1");
}

TEST(TripleProductReuse, RejectsChangedPatternOfP) {
  auto A = test::random_crs<double>(30, 30, 3, 0, 0, 41);
  auto P = test::random_crs<double>(30, 10, 2, 0, 0, 42);
  auto P_other = test::random_crs<double>(30, 10, 2, 0, 0, 43);
  kernels::TripleProductHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;
  kernels::triple_product_symbolic(handle, A, P, C);

  test::expect_throw_containing<InvalidState>([&] { kernels::triple_product_numeric(handle, A, P_other, C); },
                                              "triple_product_numeric: P's pattern differs from the one the symbolic phase saw: P is now 30 x 10");
}

TEST(TripleProductReuse, RejectsChangedPatternOfAOtherShapesAndAnotherC) {
  auto A = test::random_crs<double>(30, 30, 3, 0, 0, 51);
  auto A_other = test::random_crs<double>(30, 30, 3, 0, 0, 52);
  auto A_big = test::random_crs<double>(31, 31, 3, 0, 0, 53);
  auto P = test::random_crs<double>(30, 10, 2, 0, 0, 54);
  auto P_big = test::random_crs<double>(31, 10, 2, 0, 0, 55);
  kernels::TripleProductHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C, other;
  kernels::triple_product_symbolic(handle, A, P, C);
  kernels::TripleProductHandle<CrsMatrix<double>> handle2;
  kernels::triple_product_symbolic(handle2, A, P, other);

  test::expect_throw_containing<InvalidState>([&] { kernels::triple_product_numeric(handle, A_other, P, C); },
                                              "triple_product_numeric: A's pattern differs from the one the symbolic phase saw");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::triple_product_numeric(handle, A_big, P_big, C); },
                                                   "A is 31 x 31, P is 31 x 10; the symbolic phase saw A 30 x 30, P 30 x 10");
  test::expect_throw_containing<InvalidArgument>([&] { kernels::triple_product_numeric(handle, A, P, other); },
                                                 "is not the matrix that triple_product_symbolic produced");
}

}  // namespace
}  // namespace kelp::triple_product_reuse_test
