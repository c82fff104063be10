// SpAdd C = alpha A + beta B against the sequential reference: unsorted rows and duplicates,
// rectangular shapes with empty and long rows, complex values, empty and 1 x 1 shapes,
// values-only numeric reuse and misuse errors.
#include <gtest/gtest.h>

#include "kelp/kernels/spadd/spadd.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::spadd_test {
namespace {

using Complex = Kokkos::complex<double>;

template <class Scalar>
void check_spadd(Scalar alpha, const CrsMatrix<Scalar>& A, Scalar beta, const CrsMatrix<Scalar>& B,
                 const std::string& what) {
  kernels::SpaddHandle<CrsMatrix<Scalar>> handle;
  CrsMatrix<Scalar> C;

  kernels::spadd_symbolic(handle, A, B, C);
  test::poison(C.values());
  kernels::spadd_numeric(handle, alpha, A, beta, B, C);

  test::expect_crs_near(C, test::reference_spadd(alpha, test::to_host_crs(A), beta, test::to_host_crs(B)),
                        1e-14, what);
  EXPECT_TRUE(kernels::rows_sorted_unique(C)) << what;
}

TEST(Spadd, TwoByTwoMatchesHandComputation) {
  auto A = test::crs_from_dense<double>({{1, 0}, {2, 3}});
  auto B = test::crs_from_dense<double>({{0, 4}, {5, 0}});

  auto C = kernels::spadd(2.0, A, -1.0, B);

  EXPECT_EQ(test::to_dense(C), (std::vector<std::vector<double>>{{2, -4}, {-1, 6}}));
}

TEST(Spadd, MergesUnsortedRowsAndDuplicates) {
  // A row 0: columns 3, 1, 3 (duplicate); B row 0: 1, 0, 1; row 1 of both: unsorted.
  auto A = test::crs_from_arrays<double>(2, 4, {0, 3, 5}, {3, 1, 3, 2, 0}, {1, 2, 3, 4, 5});
  auto B = test::crs_from_arrays<double>(2, 4, {0, 3, 4}, {1, 0, 1, 2}, {6, 7, 8, 9});
  check_spadd(1.5, A, -0.5, B, "unsorted with duplicates");

  auto C = kernels::spadd(1.0, A, 1.0, B);

  const auto h = test::to_host_crs(C);
  EXPECT_EQ(h.row_map, (std::vector<long long>{0, 3, 5}));
  EXPECT_EQ(h.entries, (std::vector<int>{0, 1, 3, 0, 2}));
  EXPECT_EQ(h.values, (std::vector<double>{7, 16, 4, 5, 13}));
}

TEST(Spadd, MatchesReferenceOnRectangularAndComplexMatrices) {
  check_spadd(0.5, test::random_crs<double>(301, 1200, 5, 6, 2, 1), -2.0,
              test::random_crs<double>(301, 1200, 4, 4, 2, 2), "double 301 x 1200");
  check_spadd(Complex(1, -1), test::random_crs<Complex>(90, 40, 5, 3, 1, 3), Complex(0.5, 2),
              test::random_crs<Complex>(90, 40, 5, 7, 0, 4), "complex 90 x 40");
}

TEST(Spadd, EmptyAndOneByOne) {
  check_spadd(1.0, test::crs_from_arrays<double>(0, 0, {0}, {}, {}), 1.0,
              test::crs_from_arrays<double>(0, 0, {0}, {}, {}), "0 x 0");
  check_spadd(1.0, test::crs_from_arrays<double>(3, 0, {0, 0, 0, 0}, {}, {}), 1.0,
              test::crs_from_arrays<double>(3, 0, {0, 0, 0, 0}, {}, {}), "3 x 0");
  check_spadd(Complex(2, 0), test::crs_from_arrays<Complex>(1, 1, {0, 1}, {0}, {Complex(1, 1)}),
              Complex(0, 1), test::crs_from_arrays<Complex>(1, 1, {0, 0}, {}, {}), "1 x 1 plus empty");
}

TEST(Spadd, NumericReuseAfterValuesChange) {
  auto A = test::random_crs<double>(200, 150, 5, 5, 1, 7);
  auto B = test::random_crs<double>(200, 150, 5, 8, 1, 8);
  kernels::SpaddHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;
  kernels::spadd_symbolic(handle, A, B, C);
  kernels::spadd_numeric(handle, 1.0, A, 1.0, B, C);
  test::update_values(A, [](std::size_t k, double v) { return v * 3 - double(k % 4); });
  test::poison(C.values());

  kernels::spadd_numeric(handle, 0.25, A, -1.0, B, C);

  test::expect_crs_near(C, test::reference_spadd(0.25, test::to_host_crs(A), -1.0, test::to_host_crs(B)),
                        1e-14, "reuse");
}

TEST(Spadd, RejectsMismatchedShapesChangedPatternsAndWrongOrder) {
  auto A = test::random_crs<double>(10, 6, 3, 0, 0, 1);
  auto B = test::random_crs<double>(10, 7, 3, 0, 0, 2);
  auto B_same_shape = test::random_crs<double>(10, 6, 3, 0, 0, 3);
  auto B_other = test::random_crs<double>(10, 6, 3, 0, 0, 4);
  kernels::SpaddHandle<CrsMatrix<double>> handle;
  CrsMatrix<double> C;

  test::expect_throw_containing<DimensionMismatch>([&] { kernels::spadd_symbolic(handle, A, B, C); },
                                                   "A is 10 x 6, B is 10 x 7");
  test::expect_throw_containing<InvalidState>(
      [&] { kernels::spadd_numeric(handle, 1.0, A, 1.0, B_same_shape, C); }, "called before spadd_symbolic");
  kernels::spadd_symbolic(handle, A, B_same_shape, C);
  test::expect_throw_containing<InvalidState>(
      [&] { kernels::spadd_numeric(handle, 1.0, A, 1.0, B_other, C); },
      "B's pattern differs from the one the symbolic phase saw: B is now 10 x 6 with");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::spadd_numeric(handle, 1.0, A, 1.0, B, C); }, "B is 10 x 7; the symbolic phase saw A 10 x 6, B 10 x 6");
}

}  // namespace
}  // namespace kelp::spadd_test
