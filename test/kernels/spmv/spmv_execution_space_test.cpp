// SpMV/SpMMV with an explicit execution-space instance gives exactly the default path's result,
// in every mode, algorithm and layout (same instance type, same compiled body, same schedule;
// to rounding where atomics make the order of additions vary).
#include <gtest/gtest.h>

#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::spmv_execution_space_test {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;
using S = Kokkos::complex<double>;

template <class Layout>
void check_instance_equals_default(const CrsMatrix<S>& A, SpmvMode mode, SpmvAlgorithm algorithm, int k) {
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const int n_in = transposed ? A.num_rows() : A.num_cols();
  const int n_out = transposed ? A.num_cols() : A.num_rows();
  const auto xv = test::random_vector<S>(static_cast<std::size_t>(n_in) * k, 5);
  Kokkos::View<S**, Layout> x("x", n_in, k), y_default("y_default", n_out, k), y_exec("y_exec", n_out, k);
  auto xh = Kokkos::create_mirror_view(x);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < n_in; ++i) xh(i, j) = xv[i + static_cast<std::size_t>(j) * n_in];
  Kokkos::deep_copy(x, xh);
  test::poison(y_default);
  test::poison(y_exec);
  kernels::SpmvHandle<CrsMatrix<S>> handle_default(algorithm), handle_exec(algorithm);
  const DefaultExecutionSpace exec;
  const S alpha(1.5, -0.5);

  kernels::spmv(handle_default, mode, alpha, A, x, S(0), y_default);
  kernels::spmv(exec, handle_exec, mode, alpha, A, x, S(0), y_exec);
  exec.fence();  // the instance overload does not fence
  kernels::spmv(exec, handle_exec, mode, alpha, A, x, S(0.5), y_exec);  // y = a op(A) x + y/2
  kernels::spmv(handle_default, mode, alpha, A, x, S(0.5), y_default);

  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_default);
  auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_exec);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < n_out; ++i) {
      if (transposed || algorithm == SpmvAlgorithm::merge_path) {
        // Atomic scatter and merge-path carries: the order of the adds varies between runs.
        ASSERT_LE(Kokkos::abs(he(i, j) - hd(i, j)), 1e-12 * (1 + Kokkos::abs(hd(i, j))))
            << kernels::to_string(mode) << " " << i << ", " << j;
      } else {
        ASSERT_EQ(he(i, j), hd(i, j)) << kernels::to_string(mode) << " "
                                      << kernels::to_string(algorithm) << " " << i << ", " << j;
      }
    }
  }
}

TEST(SpmvExecutionSpace, InstanceOverloadsGiveTheDefaultPathsResult) {
  const auto A = test::random_crs<S>(301, 257, 6, 5, 2);  // empty and long rows
  for (SpmvMode mode : {SpmvMode::no_transpose, SpmvMode::transpose, SpmvMode::conjugate,
                        SpmvMode::conjugate_transpose}) {
    for (SpmvAlgorithm algorithm : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path}) {
      for (int k : {1, 9}) {
        check_instance_equals_default<Kokkos::LayoutLeft>(A, mode, algorithm, k);
        check_instance_equals_default<Kokkos::LayoutRight>(A, mode, algorithm, k);
      }
    }
  }
}

TEST(SpmvExecutionSpace, VectorAndHandleFreeOverloadsTakeAnInstance) {
  const auto A = test::random_crs<double>(97, 97, 4, 3, 1);
  const auto xv = test::random_vector<double>(97, 8);
  VectorView<double> x("x", 97), y1("y1", 97), y2("y2", 97), y3("y3", 97);
  auto xh = Kokkos::create_mirror_view(x);
  for (int i = 0; i < 97; ++i) xh(i) = xv[i];
  Kokkos::deep_copy(x, xh);
  const DefaultExecutionSpace exec;

  kernels::spmv(2.0, A, x, 0.0, y1);
  kernels::spmv(exec, 2.0, A, x, 0.0, y2);
  kernels::spmv(exec, SpmvMode::no_transpose, 2.0, A, x, 0.0, y3);
  exec.fence();

  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
  auto h3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y3);
  for (int i = 0; i < 97; ++i) {
    EXPECT_EQ(h2(i), h1(i)) << i;
    EXPECT_EQ(h3(i), h1(i)) << i;
  }
}

}  // namespace
}  // namespace kelp::spmv_execution_space_test
