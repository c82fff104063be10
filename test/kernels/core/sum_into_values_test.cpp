// Assembly into a fixed pattern: finite-element Laplacians assembled element by element in a
// parallel loop on the default execution space (the device on a GPU build), several elements
// adding to one entry at once, compared with the generators' matrices; entries outside the
// pattern reported; sorted and unsorted rows; complex scalars; 32-bit offsets from wrap_crs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kelp/kernels/core/sum_into_values.hpp"
#include "kelp/kernels/core/wrap_crs.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/host_code_arrays.hpp"
#include "test/support/poison.hpp"

namespace kelp::sum_into_values_test {
namespace {

/// Linear elements on [0, 1] with n interior nodes and Dirichlet ends: element e joins nodes
/// e-1 and e (e = 0..n; nodes -1 and n are boundary nodes and not unknowns). Element matrix
/// scale * [[1, -1], [-1, 1]], so the assembled matrix is scale * laplace1d(n).
template <class Matrix>
struct Laplace1dElements {
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  OrdinalT n;
  Scalar scale;
  KOKKOS_INLINE_FUNCTION OrdinalT operator()(const long long e,
                                             const CrsAssembler<Matrix>& assembler) const {
    const OrdinalT nodes[2] = {static_cast<OrdinalT>(e - 1), static_cast<OrdinalT>(e)};
    const Scalar Ke[2][2] = {{scale, -scale}, {-scale, scale}};
    OrdinalT missed = 0;
    for (int a = 0; a < 2; ++a) {
      if (nodes[a] < 0 || nodes[a] >= n) continue;  // boundary row
      OrdinalT cols[2];
      Scalar vals[2];
      OrdinalT m = 0;
      for (int b = 0; b < 2; ++b) {
        if (nodes[b] < 0 || nodes[b] >= n) continue;  // boundary column: lifted to the rhs
        cols[m] = nodes[b];
        vals[m++] = Ke[a][b];
      }
      missed += m - assembler.sum_into_values(nodes[a], cols, vals, m);
    }
    return missed;
  }
};

/// Linear triangles on an nx x ny grid of interior nodes (Dirichlet boundary around it): each
/// square cell (ci, cj), ci in [-1, nx), cj in [-1, ny), with corners a = (ci, cj), b = a + x,
/// c = a + x + y, d = a + y, is cut along b-d into triangles (a, b, d) and (c, d, b), both with
/// their right angle first. Element matrix of such a triangle: scale/2 * [[2,-1,-1],[-1,1,0],
/// [-1,0,1]]; the sum is scale * laplace2d(nx, ny) (the 5-point stencil). The b-d couplings are
/// exactly zero: with skip_zeros they are not added, otherwise they fall outside the 5-point
/// pattern and count as misses.
template <class Matrix>
struct Laplace2dTriangles {
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  OrdinalT nx, ny;
  Scalar scale;
  bool skip_zeros;

  KOKKOS_INLINE_FUNCTION OrdinalT node(long long i, long long j) const {
    return i < 0 || i >= nx || j < 0 || j >= ny ? OrdinalT(-1) : static_cast<OrdinalT>(i + nx * j);
  }

  KOKKOS_INLINE_FUNCTION OrdinalT operator()(const long long t,
                                             const CrsAssembler<Matrix>& assembler) const {
    const long long cell = t / 2;
    const long long ci = cell % (nx + 1) - 1, cj = cell / (nx + 1) - 1;
    OrdinalT v[3];  // right-angle vertex first
    if (t % 2 == 0) {
      v[0] = node(ci, cj), v[1] = node(ci + 1, cj), v[2] = node(ci, cj + 1);
    } else {
      v[0] = node(ci + 1, cj + 1), v[1] = node(ci, cj + 1), v[2] = node(ci + 1, cj);
    }
    const Scalar h = scale / Scalar(2);
    const Scalar Ke[3][3] = {{Scalar(2) * h, -h, -h}, {-h, h, Scalar(0)}, {-h, Scalar(0), h}};
    OrdinalT missed = 0;
    for (int a = 0; a < 3; ++a) {
      if (v[a] < 0) continue;
      OrdinalT cols[3];
      Scalar vals[3];
      OrdinalT m = 0;
      for (int b = 0; b < 3; ++b) {
        if (v[b] < 0 || (skip_zeros && Ke[a][b] == Scalar(0))) continue;
        cols[m] = v[b];
        vals[m++] = Ke[a][b];
      }
      missed += m - assembler.sum_into_values(v[a], cols, vals, m);
    }
    return missed;
  }
};

/// An assembly functor that forgets to return its misses.
template <class Matrix>
struct Forgetful {
  Laplace2dTriangles<Matrix> elements;
  KOKKOS_INLINE_FUNCTION int operator()(const long long t,
                                        const CrsAssembler<Matrix>& assembler) const {
    elements(t, assembler);
    return 0;
  }
};

/// The values of A poisoned, then zeroed, as before a new assembly.
template <class Matrix>
void poison_then_zero(const Matrix& A) {
  test::poison(A.values());
  zero_values(A);
}

template <class Scalar>
class CrsAssemblerTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(CrsAssemblerTyped, ScalarTypes);

template <class Scalar>
Scalar test_scale() {
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    return Scalar(1.5, -0.25);  // few mantissa bits: every partial sum is exact
  } else {
    return Scalar(1.5);
  }
}

TYPED_TEST(CrsAssemblerTyped, FiniteElementLaplacian1dOnWrappedArraysMatchesTheGenerator) {
  using Scalar = TypeParam;
  const int n = 37;
  const Scalar scale = test_scale<Scalar>();
  const auto expected = generators::laplace1d<Scalar>(n);
  auto arrays = test::host_code_arrays_of<int>(expected);  // the PDE code's own arrays, int offsets
  auto A = wrap_crs(arrays.num_rows, arrays.num_cols, arrays.row_map.data(), arrays.entries.data(),
                    arrays.values.data());
  poison_then_zero(A);

  parallel_assemble("test::laplace1d", A, n + 1, Laplace1dElements<decltype(A)>{n, scale});

  const auto got = test::to_host_crs(A);
  const auto want = test::to_host_crs(expected);
  ASSERT_EQ(got.values.size(), want.values.size());
  for (std::size_t k = 0; k < want.values.size(); ++k) {
    EXPECT_EQ(got.values[k], scale * want.values[k]) << k;
  }
  EXPECT_EQ(A.values().data(), arrays.values.data());  // assembled in the host code's array
}

TYPED_TEST(CrsAssemblerTyped, FiniteElementLaplacian2dMatchesTheGeneratorWithSharedEntries) {
  using Scalar = TypeParam;
  using Matrix = CrsMatrix<Scalar>;
  const int nx = 13, ny = 9;  // odd sizes; each entry gets 2 (off-diagonal) to 6 (diagonal) adds
  const Scalar scale = test_scale<Scalar>();
  const auto expected = generators::laplace2d<Scalar>(nx, ny);
  const Matrix A(expected.num_rows(), expected.num_cols(), expected.row_map(), expected.entries(),
                 typename Matrix::values_type("values", expected.nnz()));
  poison_then_zero(A);
  const long long num_triangles = 2LL * (nx + 1) * (ny + 1);

  parallel_assemble("test::laplace2d", A, num_triangles,
                    Laplace2dTriangles<Matrix>{nx, ny, scale, true});

  const auto got = test::to_host_crs(A);
  const auto want = test::to_host_crs(expected);
  for (std::size_t k = 0; k < want.values.size(); ++k) {
    EXPECT_EQ(got.values[k], scale * want.values[k]) << k;
  }
  EXPECT_TRUE(CrsAssembler<Matrix>(A).sorted());  // the generator's rows are sorted: binary search
}

TYPED_TEST(CrsAssemblerTyped, UnsortedRowsTakeTheLinearSearch) {
  using Scalar = TypeParam;
  using Matrix = CrsMatrix<Scalar>;
  const int nx = 6, ny = 5;
  const Scalar scale = test_scale<Scalar>();
  const auto expected = generators::laplace2d<Scalar>(nx, ny);
  // Same pattern with each row's columns reversed.
  auto h = test::to_host_crs(expected);
  std::vector<Ordinal> rows, cols;
  for (int i = 0; i < h.num_rows; ++i)
    for (long long k = h.row_map[i + 1] - 1; k >= h.row_map[i]; --k) {
      rows.push_back(i);
      cols.push_back(h.entries[k]);
    }
  typename Matrix::entries_type entries("entries", cols.size());
  auto entries_h = Kokkos::create_mirror_view(entries);
  for (std::size_t k = 0; k < cols.size(); ++k) entries_h(k) = cols[k];
  Kokkos::deep_copy(entries, entries_h);
  const Matrix A(expected.num_rows(), expected.num_cols(), expected.row_map(), entries,
                 typename Matrix::values_type("values", expected.nnz()));
  poison_then_zero(A);

  parallel_assemble("test::laplace2d(unsorted)", A, 2LL * (nx + 1) * (ny + 1),
                    Laplace2dTriangles<Matrix>{nx, ny, scale, true});

  EXPECT_FALSE(CrsAssembler<Matrix>(A).sorted());
  const auto got = test::to_dense(A);
  const auto want = test::to_dense(expected);
  for (int i = 0; i < h.num_rows; ++i)
    for (int j = 0; j < h.num_cols; ++j) EXPECT_EQ(got[i][j], scale * want[i][j]) << i << ", " << j;
}

TEST(CrsAssembler, EntriesOutsideThePatternAreCountedAndReported) {
  using Matrix = CrsMatrix<double>;
  const int nx = 5, ny = 4;
  const auto expected = generators::laplace2d<double>(nx, ny);
  const Matrix A(expected.num_rows(), expected.num_cols(), expected.row_map(), expected.entries(),
                 Matrix::values_type("values", expected.nnz()));
  // The b-d couplings (zero, but stored by a naive code) of each cell with both corners inside:
  // (nx - 1)(ny - 1) cells, 2 triangles, entries (b, d) and (d, b).
  const int expected_misses = 4 * (nx - 1) * (ny - 1);

  test::expect_throw_containing<InvalidArgument>(
      [&] {
        parallel_assemble("test::naive_assembly", A, 2LL * (nx + 1) * (ny + 1),
                          Laplace2dTriangles<Matrix>{nx, ny, 1.0, false});
      },
      "kelp::parallel_assemble(test::naive_assembly): " + std::to_string(expected_misses) +
          " entries fall outside the fixed pattern of the 20 x 20 matrix");

  // The entries inside the pattern were still assembled.
  EXPECT_EQ(test::to_host_crs(A).values, test::to_host_crs(expected).values);
}

TEST(CrsAssembler, MissesAreCaughtEvenWhenTheFunctorDoesNotReturnThem) {
  using Matrix = CrsMatrix<double>;
  const auto expected = generators::laplace2d<double>(4, 3);
  const Matrix A(expected.num_rows(), expected.num_cols(), expected.row_map(), expected.entries(),
                 Matrix::values_type("values", expected.nnz()));
  const Laplace2dTriangles<Matrix> naive{4, 3, 1.0, false};

  test::expect_throw_containing<InvalidArgument>(
      [&] { parallel_assemble("test::forgetful", A, 2LL * 5 * 4, Forgetful<Matrix>{naive}); },
      "kelp::parallel_assemble(test::forgetful): 24 entries fall outside");  // 4 (nx-1)(ny-1)
}

TEST(CrsAssembler, MissMessageNamesOneMissingPosition) {
  using Matrix = CrsMatrix<double>;
  const auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}});
  std::string message;

  try {
    // Element 1 joins nodes 0 and 1: (0, 1) and (1, 0) are not in the diagonal pattern.
    parallel_assemble("test::two_misses", A, 2, Laplace1dElements<Matrix>{2, 1.0});
  } catch (const InvalidArgument& e) {
    message = e.what();
  }

  EXPECT_NE(message.find("2 entries fall outside the fixed pattern of the 2 x 2 matrix (nnz 2)"),
            std::string::npos) << message;
  EXPECT_TRUE(message.find("e.g. row 0, column 1;") != std::string::npos ||
              message.find("e.g. row 1, column 0;") != std::string::npos) << message;
}

TEST(CrsAssembler, HostCallsReturnHowManyColumnsWereFound) {
  // [[1, 2, 0], [0, 0, 0], [3, 0, 4]] with row 2 stored unsorted.
  std::vector<int> row_map = {0, 2, 2, 4};
  std::vector<int> entries = {0, 1, 2, 0};
  std::vector<double> values = {1, 2, 4, 3};
  auto A = wrap_crs<double, int, int, HostDevice>(3, 3, row_map.data(), entries.data(),
                                                  values.data());
  const CrsAssembler<decltype(A)> assembler(A);
  const int cols[3] = {2, 0, 1};
  const double add[3] = {10, 20, 30};
  const double set[3] = {-1, -2, -3};
  long long row = -1, col = -1;

  const int found_0 = assembler.sum_into_values(0, cols, add, 3);     // (0, 2) is not stored
  const int found_1 = assembler.sum_into_values(1, cols, add, 3);     // empty row
  const int found_2 = assembler.replace_values(2, cols, set, 2);      // (2, 2) and (2, 0)
  const int found_bad = assembler.sum_into_values(7, cols, add, 1);   // row out of range
  const int found_none = assembler.sum_into_values(0, cols, add, 0);  // n = 0

  EXPECT_EQ(found_0, 2);
  EXPECT_EQ(found_1, 0);
  EXPECT_EQ(found_2, 2);
  EXPECT_EQ(found_bad, 0);
  EXPECT_EQ(found_none, 0);
  EXPECT_FALSE(assembler.sorted());
  EXPECT_EQ(values, (std::vector<double>{21, 32, -1, -2}));
  EXPECT_EQ(assembler.misses(row, col), 5);  // (0, 2), all three in row 1, and row 7
  EXPECT_EQ(row, 0);
  EXPECT_EQ(col, 2);
  assembler.clear_misses();
  EXPECT_EQ(assembler.misses(row, col), 0);
  EXPECT_EQ(row, -1);
}

TEST(CrsAssembler, BinarySearchFindsEveryColumnOfALongSortedRow) {
  // One dense row of 100 columns and a row holding every third column.
  std::vector<int> row_map = {0, 100, 134};
  std::vector<int> entries;
  for (int j = 0; j < 100; ++j) entries.push_back(j);
  for (int j = 0; j < 100; j += 3) entries.push_back(j);
  std::vector<double> values(entries.size(), 0.0);
  auto A = wrap_crs<double, int, int, HostDevice>(2, 100, row_map.data(), entries.data(),
                                                  values.data(), WrapCheck::sorted_unique);
  const CrsAssembler<decltype(A)> assembler(A, ColumnOrder::sorted);
  int found[2] = {0, 0};

  for (int row = 0; row < 2; ++row)
    for (int j = 0; j < 100; ++j) {
      const double v = j + 1;
      found[row] += assembler.sum_into_values(row, &j, &v, 1);
    }

  EXPECT_EQ(found[0], 100);
  EXPECT_EQ(found[1], 34);
  for (std::size_t k = 0; k < entries.size(); ++k) EXPECT_EQ(values[k], entries[k] + 1.0) << k;
}

}  // namespace
}  // namespace kelp::sum_into_values_test
