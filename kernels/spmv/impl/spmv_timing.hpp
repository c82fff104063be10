#pragma once
/// Timed automatic choice between row-parallel and merge-path SpMV on host spaces.
///
/// Which algorithm wins on a CPU depends on the CPU as much as on the matrix: on one Intel model
/// row-parallel wins on almost every matrix with one thread, on an AMD EPYC merge-path wins on
/// the median. Rather than a rule tuned on one machine, SpmvHandle times both once on the
/// matrix itself (scratch vectors, x = ones) and keeps the faster one. Cost: a few SpMVs per
/// algorithm, once per pattern: about 2 * kTimedRuns products plus two vector allocations.

#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <limits>

#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/spmv/impl/spmv_merge_path.hpp"
#include "kelp/kernels/spmv/impl/spmv_row_parallel.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::kernels::impl {

/// Faster of row_parallel and merge_path for y = A x on A (min over repeated timed runs, the
/// two algorithms interleaved so that a passing disturbance hits both alike).
template <class Matrix>
SpmvAlgorithm time_algorithms(const typename Matrix::execution_space& exec,
                              SpmvHandle<Matrix>& handle, const Matrix& A) {
  using Scalar = typename Matrix::scalar_type;
  using Device = typename Matrix::device_type;
  constexpr int kTimedRuns = 5;
  VectorView<Scalar, Device> x(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                                  "kelp::kernels::spmv::timing::x"),
                               A.num_cols());
  VectorView<Scalar, Device> y(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                                  "kelp::kernels::spmv::timing::y"),
                               A.num_rows());
  Kokkos::deep_copy(exec, x, Scalar(1));
  const auto X = kelp::impl::as_columns(ConstVectorView<Scalar, Device>(x));
  const auto Y = kelp::impl::as_columns(y);
  using XC = decltype(X);
  using YC = decltype(Y);
  const auto run = [&](SpmvAlgorithm algorithm) {
    Kokkos::Timer timer;
    if (algorithm == SpmvAlgorithm::merge_path) {
      spmv_merge_path<false, Matrix, XC, YC>(exec, handle, Scalar(1), A, X, Scalar(0), Y);
    } else {
      spmv_row_parallel<false, Matrix, XC, YC>(exec, handle.statistics(), Scalar(1), A, X, Scalar(0), Y);
    }
    exec.fence();  // time the instance's work, not other streams'
    return timer.seconds();
  };
  run(SpmvAlgorithm::row_parallel);  // warm-up: first touch, caches, thread wake-up
  run(SpmvAlgorithm::merge_path);
  double best_rows = std::numeric_limits<double>::infinity();
  double best_merge = best_rows;
  for (int i = 0; i < kTimedRuns; ++i) {
    best_rows = std::min(best_rows, run(SpmvAlgorithm::row_parallel));
    best_merge = std::min(best_merge, run(SpmvAlgorithm::merge_path));
  }
  return best_merge < best_rows ? SpmvAlgorithm::merge_path : SpmvAlgorithm::row_parallel;
}

}  // namespace kelp::kernels::impl
