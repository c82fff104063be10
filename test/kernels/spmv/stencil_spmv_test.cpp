// Structured-stencil SpMV (SpmvAlgorithm::stencil) against the sequential reference under the
// rigorous error bound: every stencil generator (3, 5, 7, 9, 27 points) on odd grids, 1x1x1 and
// grids with a dimension of 1, float/double/complex, values changed after generation (so
// constant coefficients would be wrong), NaN-poisoned y with beta = 0, beta != 0, vectors and
// multi-vectors; the automatic choice; which operations keep the description; and the checks
// of CrsMatrix::attach_stencil.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/reference.hpp"
#include "test/support/scalar_values.hpp"
#include "test/support/spmv_bound.hpp"
#include "test/support/spmv_inputs.hpp"

namespace kelp::stencil_spmv_test {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;
using test::scalar_of;

/// Replaces A's values with distinct row-dependent ones (in place, as a user's shift would).
template <class Scalar>
void scramble_values(const CrsMatrix<Scalar>& A, unsigned seed) {
  std::mt19937 rng(seed);
  auto values = Kokkos::create_mirror_view(A.values());
  for (std::size_t k = 0; k < values.extent(0); ++k) values(k) = test::random_scalar<Scalar>(rng);
  Kokkos::deep_copy(A.values(), values);
}

/// One product with k columns (k = 0: the rank-1 API) checked against the reference.
template <class Scalar, class Layout = Kokkos::LayoutLeft>
void check_product(const CrsMatrix<Scalar>& A, kernels::SpmvHandle<CrsMatrix<Scalar>>& handle,
                   SpmvMode mode, int k, Scalar alpha, Scalar beta, const std::string& what) {
  const auto ref = test::to_host_coo(test::to_host_crs(A));
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const int n_in = transposed ? A.num_rows() : A.num_cols();
  const int n_out = transposed ? A.num_cols() : A.num_rows();
  const int columns = k == 0 ? 1 : k;
  const auto in = test::random_spmv_inputs<Scalar, Layout>(n_in, n_out, columns, 11 + k,
                                                           beta == Scalar(0));
  const auto &x = in.x, &y = in.y;
  if (k == 0) {
    kernels::spmv(handle, mode, alpha, A, Kokkos::subview(x, Kokkos::ALL, 0), beta,
                  Kokkos::subview(y, Kokkos::ALL, 0));
  } else {
    kernels::spmv(handle, mode, alpha, A, x, beta, y);
  }
  auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int j = 0; j < columns; ++j) {
    const auto xj = test::column(in.x_host, j), yj = test::column(in.y_host, j);
    const auto computed = test::column(result, j);
    ASSERT_TRUE(test::within_spmv_bound(computed, test::reference_product(mode, alpha, ref, xj, beta, yj)))
        << what << ", mode " << kernels::to_string(mode) << ", handle algorithm "
        << kernels::to_string(handle.requested_algorithm()) << ", k " << k << ", column " << j
        << ", beta " << test::to_complex_double(beta);
  }
}

/// Every mode, explicit stencil and automatic (stencil on GPUs, a CRS kernel on CPUs), vectors and
/// multi-vectors of both layouts, beta zero and not.
template <class Scalar>
void check_all(const CrsMatrix<Scalar>& A, const std::string& what) {
  ASSERT_TRUE(A.has_stencil()) << what;
  const Scalar alpha = scalar_of<Scalar>(1.25, -0.75), beta = scalar_of<Scalar>(-0.5, 0.25);
  for (SpmvAlgorithm algorithm : {SpmvAlgorithm::stencil, SpmvAlgorithm::automatic}) {
    kernels::SpmvHandle<CrsMatrix<Scalar>> handle(algorithm);
    for (SpmvMode mode : {SpmvMode::no_transpose, SpmvMode::conjugate, SpmvMode::transpose,
                          SpmvMode::conjugate_transpose}) {
      for (Scalar b : {Scalar(0), beta}) {
        check_product<Scalar>(A, handle, mode, 0, alpha, b, what);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
    // automatic takes the stencil kernel on GPUs only (slower than row_parallel on CPUs).
    constexpr bool host =
        Kokkos::SpaceAccessibility<DefaultDevice::execution_space, Kokkos::HostSpace>::accessible;
    EXPECT_EQ(handle.algorithm() == SpmvAlgorithm::stencil,
              algorithm == SpmvAlgorithm::stencil || !host)
        << what;
    check_product<Scalar, Kokkos::LayoutLeft>(A, handle, SpmvMode::no_transpose, 3, alpha, Scalar(0), what);
    check_product<Scalar, Kokkos::LayoutRight>(A, handle, SpmvMode::no_transpose, 2, alpha, beta, what);
    check_product<Scalar, Kokkos::LayoutRight>(A, handle, SpmvMode::conjugate, 9, alpha, Scalar(0), what);
    check_product<Scalar>(A, handle, SpmvMode::no_transpose, 0, Scalar(0), beta, what);  // alpha = 0
  }
}

struct Grid {
  const char* generator;
  long long nx, ny, nz;
};

// Odd sizes, 1x1x1, and grids with one (or two) dimensions of 1, for each generator.
const Grid kGrids[] = {
    {"laplace1d", 1, 1, 1},      {"laplace1d", 2, 1, 1},       {"laplace1d", 9, 1, 1},
    {"laplace2d", 1, 1, 1},      {"laplace2d", 5, 3, 1},       {"laplace2d", 1, 6, 1},
    {"laplace2d", 7, 1, 1},      {"laplace2d_9pt", 1, 1, 1},   {"laplace2d_9pt", 5, 4, 1},
    {"laplace2d_9pt", 3, 1, 1},  {"laplace2d_9pt", 1, 5, 1},   {"laplace3d", 1, 1, 1},
    {"laplace3d", 5, 4, 3},      {"laplace3d", 1, 5, 3},       {"laplace3d", 6, 1, 1},
    {"laplace3d", 3, 3, 1},      {"laplace3d", 4, 1, 5},       {"laplace3d_27pt", 1, 1, 1},
    {"laplace3d_27pt", 5, 4, 3}, {"laplace3d_27pt", 4, 1, 3},  {"laplace3d_27pt", 2, 2, 2},
    {"laplace3d_27pt", 3, 3, 3}, {"laplace3d_27pt", 1, 7, 1},
};

template <class Scalar>
CrsMatrix<Scalar> generate(const Grid& g) {
  const std::string name = g.generator;
  if (name == "laplace1d") return generators::laplace1d<Scalar>(g.nx);
  if (name == "laplace2d") return generators::laplace2d<Scalar>(g.nx, g.ny);
  if (name == "laplace2d_9pt") return generators::laplace2d_9pt<Scalar>(g.nx, g.ny);
  if (name == "laplace3d") return generators::laplace3d<Scalar>(g.nx, g.ny, g.nz);
  return generators::laplace3d_27pt<Scalar>(g.nx, g.ny, g.nz);
}

std::string describe(const Grid& g) {
  return std::string(g.generator) + " " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" +
         std::to_string(g.nz);
}

template <class Scalar>
void check_generators() {
  unsigned seed = 1;
  for (const Grid& g : kGrids) {
    const CrsMatrix<Scalar> A = generate<Scalar>(g);
    scramble_values(A, seed++);
    check_all(A, describe(g));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(StencilSpmv, GeneratorsDouble) { check_generators<double>(); }
TEST(StencilSpmv, GeneratorsFloat) { check_generators<float>(); }
TEST(StencilSpmv, GeneratorsComplex) { check_generators<Kokkos::complex<double>>(); }

TEST(StencilSpmv, GeneratorValuesUnchanged) {
  // The generator's own (constant) coefficients, and a larger grid.
  check_all(generators::laplace3d<double>(9, 8, 7), "laplace3d 9x8x7 unchanged");
  check_all(generators::laplace3d_27pt<double>(6, 5, 7), "laplace3d_27pt 6x5x7 unchanged");
}

TEST(StencilSpmv, LongGridLinesSplitIntoHostChunks) {
  // Lines longer than kStencilHostChunk are split into several work items on hosts.
  const long long long_line = 2 * kernels::impl::kStencilHostChunk + 37;
  auto A = generators::laplace1d<double>(long_line);
  scramble_values(A, 99);
  check_all(A, "laplace1d long line");
  auto B = generators::laplace2d<Kokkos::complex<double>>(kernels::impl::kStencilHostChunk + 5, 3);
  scramble_values(B, 98);
  check_all(B, "laplace2d long lines");
}

TEST(StencilSpmv, OtherStencilGeneratorsCarryTheirStencil) {
  auto A = generators::anisotropic2d<double>(7, 5, 0.01, 0.3);
  check_all(A, "anisotropic2d");
  auto B = generators::convection_diffusion<double>(5, 4, 3, 1.0, 0.5, 0.25);
  check_all(B, "convection_diffusion");
}

TEST(StencilSpmv, StencilWithoutInteriorRowsUsesCrsRows) {
  // A point beyond the grid width: no row is interior, every row takes the CRS path.
  auto A = generators::stencil_matrix<double>(2, 3, 1, {{0, 0, 0, 2.0}, {3, 0, 0, -1.0}, {0, 1, 0, -1.0}});
  ASSERT_TRUE(A.has_stencil());
  scramble_values(A, 5);
  check_all(A, "stencil without interior");
}

TEST(StencilSpmv, OnlyPatternKeepingOperationsKeepTheDescription) {
  auto A = generators::laplace3d<double>(4, 3, 2);
  ASSERT_TRUE(A.has_stencil());
  EXPECT_EQ(A.stencil().num_points, 7);
  EXPECT_EQ(A.stencil().nx, 4);
  EXPECT_EQ(A.stencil().ny, 3);
  EXPECT_EQ(A.stencil().nz, 2);
  const CrsMatrix<double> shallow = A;
  EXPECT_TRUE(shallow.has_stencil());
  EXPECT_TRUE(to_host(A).has_stencil());
  EXPECT_TRUE(to_host(A).stencil() == A.stencil());
  EXPECT_TRUE(copy_to<DefaultDevice>(to_host(A)).has_stencil());
  // A matrix made by the constructors carries none, even over the same pattern.
  const CrsMatrix<double> rebuilt(A.graph(), A.values());
  EXPECT_FALSE(rebuilt.has_stencil());
  // More than 27 points or a repeated point: no description, the matrix is still built.
  std::vector<generators::StencilPoint> wide;
  for (int d = -14; d <= 14; ++d) wide.push_back({d, 0, 0, 1.0});
  EXPECT_FALSE(generators::stencil_matrix<double>(40, 1, 1, wide).has_stencil());
  EXPECT_FALSE(generators::stencil_matrix<double>(4, 1, 1, {{0, 0, 0, 1.0}, {0, 0, 0, 1.0}}).has_stencil());
  A.detach_stencil();
  EXPECT_FALSE(A.has_stencil());
  EXPECT_TRUE(shallow.has_stencil());  // the copy keeps its own
}

TEST(StencilSpmv, AttachValidatesThePattern) {
  const auto A = generators::laplace2d<double>(5, 4);
  CrsMatrix<double> B(A.graph(), A.values());  // same pattern, no description
  ASSERT_FALSE(B.has_stencil());
  B.attach_stencil(A.stencil());
  EXPECT_TRUE(B.has_stencil());
  check_all(B, "attached");

  const auto five_point = [] {
    return StencilDescription::grid(5, 4, 1).add_point(0, -1, 0).add_point(-1, 0, 0).add_point(0, 0, 0)
        .add_point(1, 0, 0).add_point(0, 1, 0);
  };
  CrsMatrix<double> C(A.graph(), A.values());
  C.attach_stencil(five_point());  // written by hand: the same description
  EXPECT_TRUE(C.stencil() == A.stencil());

  CrsMatrix<double> D(A.graph(), A.values());
  test::expect_throw_containing<InvalidArgument>(
      [&] { D.attach_stencil(StencilDescription::grid(4, 5, 1).add_point(0, 0, 0)); },
      "row 0 (grid point 0, 0, 0) has 3 entries, the stencil gives 1 (first extra column: 1)");
  test::expect_throw_containing<InvalidArgument>(
      [&] { D.attach_stencil(StencilDescription::grid(5, 4, 1).add_point(-1, 0, 0).add_point(0, -1, 0)
                .add_point(0, 0, 0).add_point(1, 0, 0).add_point(0, 1, 0)); },
      "row 6 (grid point 1, 1, 0) entry 0 has column 1, the stencil's point 0 (-1, 0, 0) gives column 5");
  test::expect_throw_containing<DimensionMismatch>([&] { D.attach_stencil(StencilDescription::grid(5, 5, 1).add_point(0, 0, 0)); },
                                "the matrix is 20 x 20, the stencil's grid 5 x 5 x 1 has 25 points");
  test::expect_throw_containing<InvalidArgument>(
      [&] { D.attach_stencil(StencilDescription::grid(5, 4, 1).add_point(0, 0, 0).add_point(0, 0, 0)); },
      "points 0 and 1 are both (0, 0, 0)");
  test::expect_throw_containing<InvalidArgument>([&] { D.attach_stencil(StencilDescription::grid(5, 4, 1)); },
                                "0 points, expected 1 to 27");
  EXPECT_FALSE(D.has_stencil());  // a failed attach leaves none
}

TEST(StencilSpmv, AttachNamesTheFirstDifferentRow) {
  // The 5-point pattern with one column changed in row 7: the error names that row.
  const auto A = generators::laplace2d<double>(5, 4);
  auto host = to_host(A);
  Kokkos::View<Ordinal*, HostDevice> entries("entries", host.entries().extent(0));
  Kokkos::deep_copy(entries, host.entries());
  const Offset k = host.row_map()(7) + 1;
  entries(k) = entries(k) - 1;  // row 7 = grid point (2, 1): its x-1 neighbour becomes x-2
  CrsMatrix<double, Ordinal, Offset, HostDevice> B(host.num_rows(), host.num_cols(), host.row_map(), entries,
                                                   host.values());
  test::expect_throw_containing<InvalidArgument>([&] { B.attach_stencil(A.stencil()); },
                                "row 7 (grid point 2, 1, 0) entry 1 has column 5, the stencil's point 1 "
                                "(-1, 0, 0) gives column 6");
  // A row with an entry too many (the 9-point pattern against the 5-point stencil).
  const auto nine = to_host(generators::laplace2d_9pt<double>(5, 4));
  CrsMatrix<double, Ordinal, Offset, HostDevice> E(nine.graph(), nine.values());
  test::expect_throw_containing<InvalidArgument>([&] { E.attach_stencil(A.stencil()); },
                                "row 0 (grid point 0, 0, 0) has 4 entries, the stencil gives 3");
}

TEST(StencilSpmv, ExplicitStencilNeedsADescription) {
  auto A = generators::laplace2d<double>(4, 3);
  const CrsMatrix<double> plain(A.graph(), A.values());
  kernels::SpmvHandle<CrsMatrix<double>> handle(SpmvAlgorithm::stencil);
  Kokkos::View<double*> x("x", plain.num_cols()), y("y", plain.num_rows());
  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::spmv(handle, SpmvMode::no_transpose, 1.0, plain, x, 0.0, y); },
      "algorithm stencil requested for a 12 x 12 matrix that carries no stencil description");
  // The same handle works once the matrix has one.
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);
  EXPECT_EQ(handle.algorithm(), SpmvAlgorithm::stencil);
}

TEST(StencilSpmv, AutomaticFollowsTheDescriptionOnGpusOnly) {
  // Automatic takes the stencil kernel on GPUs; on CPUs it keeps the CRS choice (the stencil
  // kernel measured slower there). Big enough for the timed choice (kTimingMinNnz).
  constexpr bool host =
      Kokkos::SpaceAccessibility<DefaultDevice::execution_space, Kokkos::HostSpace>::accessible;
  auto A = generators::laplace3d<double>(20, 20, 20);
  const CrsMatrix<double> plain(A.graph(), A.values());
  Kokkos::View<double*> x("x", A.num_cols()), y("y", A.num_rows());
  kernels::SpmvHandle<CrsMatrix<double>> handle;
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);
  if (host) {
    EXPECT_NE(handle.algorithm(), SpmvAlgorithm::stencil);
  } else {
    EXPECT_EQ(handle.algorithm(), SpmvAlgorithm::stencil);
    EXPECT_FALSE(handle.choice_was_timed());
  }
  // Same row_map, no description: the handle re-analyses and picks a CRS algorithm.
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, plain, x, 0.0, y);
  EXPECT_NE(handle.algorithm(), SpmvAlgorithm::stencil);
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);
  EXPECT_EQ(handle.algorithm() == SpmvAlgorithm::stencil, !host);
  // The one-off-handle overloads take it too, and the product is right either way.
  scramble_values(A, 3);
  kernels::SpmvHandle<CrsMatrix<double>> once;
  check_product<double>(A, once, SpmvMode::no_transpose, 0, 2.0, 0.0, "automatic 20^3");
  EXPECT_EQ(once.algorithm() == SpmvAlgorithm::stencil, !host);
  EXPECT_EQ(kernels::to_string(SpmvAlgorithm::stencil), "stencil");
}

}  // namespace
}  // namespace kelp::stencil_spmv_test
