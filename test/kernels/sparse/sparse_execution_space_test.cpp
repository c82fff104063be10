// The execution-space instance overloads of the sparse kernels (sort_rows, transpose, SpAdd,
// SpGEMM, Jacobi-fused SpGEMM, triple product): each is called with an explicit instance and
// compared with the overload that uses a default instance.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kelp/kernels/spadd/spadd.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/sparse/transpose.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"
#include "kelp/kernels/spgemm/triple_product.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::sparse_execution_space_test {
namespace {

using Complex = Kokkos::complex<double>;
using Exec = Kokkos::DefaultExecutionSpace;

template <class Scalar>
void expect_same(const CrsMatrix<Scalar>& actual, const CrsMatrix<Scalar>& expected, const std::string& what) {
  test::expect_crs_near(actual, test::to_host_crs(expected), 1e-13, what);
}

/// n x n identity times `d` (the diagonal that the Jacobi-fused product needs).
template <class Scalar>
CrsMatrix<Scalar> scaled_identity(int n, Scalar d) {
  std::vector<long long> row_map(static_cast<std::size_t>(n) + 1);
  std::vector<int> entries(static_cast<std::size_t>(n));
  for (int i = 0; i <= n; ++i) row_map[i] = i;
  for (int i = 0; i < n; ++i) entries[i] = i;
  return test::crs_from_arrays<Scalar>(n, n, row_map, entries, std::vector<Scalar>(n, d));
}

template <class Scalar>
void check_overloads() {
  const Exec exec;
  // Unsorted rows with long (dense) rows: transpose and sort_rows see every path.
  const auto R = test::random_crs<Scalar>(300, 1400, 6, 7, 2, 5);
  const auto S = test::random_crs<Scalar>(300, 300, 5, 9, 1, 6);
  // A square with a nonzero diagonal (Jacobi) and a tall P.
  const auto A = kernels::spadd(Scalar(1), S, Scalar(10), scaled_identity<Scalar>(300, Scalar(1)));
  const auto P = test::random_crs<Scalar>(300, 40, 2, 0, 0, 7);

  // sort_rows: shuffled copies through both overloads.
  {
    auto X = kernels::transpose(exec, kernels::transpose(R));
    auto Y = kernels::transpose(kernels::transpose(R));
    kernels::sort_rows(exec, X);
    kernels::sort_rows(Y);
    expect_same(X, Y, "sort_rows");
  }
  // transpose and conjugate transpose.
  expect_same(kernels::transpose(exec, R), kernels::transpose(R), "transpose");
  expect_same(kernels::transpose(exec, R, true), kernels::transpose(R, true), "conjugate transpose");

  // SpAdd: one-call and the two phases.
  const Scalar alpha(2);
  const Scalar beta(-0.5);
  expect_same(kernels::spadd(exec, alpha, S, beta, A), kernels::spadd(alpha, S, beta, A), "spadd");
  {
    kernels::SpaddHandle<CrsMatrix<Scalar>> h1, h2;
    CrsMatrix<Scalar> C1, C2;
    kernels::spadd_symbolic(exec, h1, S, A, C1);
    kernels::spadd_numeric(exec, h1, alpha, S, beta, A, C1);
    kernels::spadd_symbolic(h2, S, A, C2);
    kernels::spadd_numeric(h2, alpha, S, beta, A, C2);
    expect_same(C1, C2, "spadd phases");
  }

  // SpGEMM, both accumulators.
  for (auto algorithm : {kernels::SpgemmAlgorithm::dense, kernels::SpgemmAlgorithm::hash}) {
    const std::string name = algorithm == kernels::SpgemmAlgorithm::dense ? "dense" : "hash";
    expect_same(kernels::spgemm(exec, A, P, algorithm), kernels::spgemm(A, P, algorithm), "spgemm " + name);
    kernels::SpgemmHandle<CrsMatrix<Scalar>> h1(algorithm), h2(algorithm);
    CrsMatrix<Scalar> C1, C2;
    kernels::spgemm_symbolic(exec, h1, A, P, C1);
    kernels::spgemm_numeric(exec, h1, A, P, C1);
    kernels::spgemm_symbolic(h2, A, P, C2);
    kernels::spgemm_numeric(h2, A, P, C2);
    expect_same(C1, C2, "spgemm phases " + name);

    kernels::SpgemmHandle<CrsMatrix<Scalar>> j1(algorithm), j2(algorithm);
    CrsMatrix<Scalar> J1, J2;
    const Scalar omega(0.6);
    kernels::jacobi_spgemm_symbolic(exec, j1, A, P, J1);
    kernels::jacobi_spgemm_numeric(exec, j1, omega, A, P, J1);
    kernels::jacobi_spgemm_symbolic(j2, A, P, J2);
    kernels::jacobi_spgemm_numeric(j2, omega, A, P, J2);
    expect_same(J1, J2, "jacobi spgemm " + name);
  }

  // Triple product Pᵀ·A·P.
  {
    kernels::TripleProductHandle<CrsMatrix<Scalar>> h1, h2;
    CrsMatrix<Scalar> C1, C2;
    kernels::triple_product_symbolic(exec, h1, A, P, C1);
    kernels::triple_product_numeric(exec, h1, A, P, C1);
    kernels::triple_product_symbolic(h2, A, P, C2);
    kernels::triple_product_numeric(h2, A, P, C2);
    expect_same(C1, C2, "triple product");
  }

  // Misuse is still caught through the instance overloads.
  kernels::SpgemmHandle<CrsMatrix<Scalar>> fresh;
  CrsMatrix<Scalar> C;
  EXPECT_THROW(kernels::spgemm_numeric(exec, fresh, A, P, C), InvalidState);
  EXPECT_THROW(kernels::spadd(exec, alpha, A, beta, P), DimensionMismatch);
}

TEST(SparseExecutionSpace, InstanceOverloadsMatchDefaultDouble) { check_overloads<double>(); }
TEST(SparseExecutionSpace, InstanceOverloadsMatchDefaultComplex) { check_overloads<Complex>(); }

TEST(SparseExecutionSpace, EmptyAndOneByOne) {
  const Exec exec;
  const CrsMatrix<double> empty;
  EXPECT_EQ(kernels::transpose(exec, empty).nnz(), 0);
  kernels::sort_rows(exec, empty);
  const auto one = scaled_identity<double>(1, 3.0);
  expect_same(kernels::spgemm(exec, one, one), kernels::spgemm(one, one), "1x1 spgemm");
  expect_same(kernels::spadd(exec, 1.0, one, 1.0, one), kernels::spadd(1.0, one, 1.0, one), "1x1 spadd");
}

}  // namespace
}  // namespace kelp::sparse_execution_space_test
