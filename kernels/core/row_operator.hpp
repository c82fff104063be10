#pragma once
/// A matrix-free operator given row by row by a device functor: (A x)_i = f(i, x).

#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/matrix_free_operator.hpp"
#include "kelp/kernels/core/operator.hpp"

namespace kelp {

namespace impl {
/// y(i) = alpha * f(i, x) + beta * y(i) for every row i of y, one parallel_for. beta = 0 does not
/// read y; alpha = 0 does not call f (BLAS semantics: y = beta * y). f(i, x) may read any entry of
/// x, so y must not overlap x, except when f(i, x) reads x(i) only and y is x (in-place scaling).
/// Free function: CUDA extended lambdas cannot live in protected member functions.
/// A named functor rather than a lambda: apply_rows is instantiated with the same row functor in
/// several .cpp files, where nvcc's extended lambdas are unsafe (docs/conventions.md).
template <class RowF, class Scalar, class Device>
struct ApplyRows {
  RowF f;
  ConstVectorView<Scalar, Device> x;
  VectorView<Scalar, Device> y;
  Scalar alpha;
  Scalar beta;
  bool overwrite;
  bool skip_f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Scalar v = skip_f ? Scalar(0) : alpha * f(i, x);
    y(i) = overwrite ? v : v + beta * y(i);  // beta = 0 must not read y
  }
};

template <class RowF, class Scalar, class Device>
void apply_rows(const char* label, const RowF& f, const ConstVectorView<Scalar, Device>& x,
                const VectorView<Scalar, Device>& y, Scalar alpha, Scalar beta) {
  using Exec = typename Device::execution_space;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<Exec, Kokkos::IndexType<Ordinal>>(0, static_cast<Ordinal>(y.extent(0))),
      ApplyRows<RowF, Scalar, Device>{f, x, y, alpha, beta, beta == Scalar(0), alpha == Scalar(0)});
}

/// The row functor of a plain vector: f(i, v) = v(i).
template <class Scalar, class Device>
struct EntryOf {
  KOKKOS_INLINE_FUNCTION Scalar operator()(const Ordinal i,
                                           const ConstVectorView<Scalar, Device>& v) const {
    return v(i);
  }
};
}  // namespace impl

/// Matrix-free operator from a device row functor: y = alpha * A x + beta * y with
/// (A x)_i = f(i, x), computed in one parallel_for over the rows (each row independently).
///
/// RowF: a copyable functor usable in kernels, with
///   KOKKOS_INLINE_FUNCTION Scalar operator()(Ordinal i, const ConstVectorView<Scalar, Device>& x) const
/// returning row i of A x (it may read any entries of x; it must not write anything).
/// Modes: no_transpose only (a row functor says nothing about A^T). A block of k vectors is k
/// kernels, one per column. beta = 0 does not read y; alpha = 0 does not call f. Works wherever
/// an Operator does: as A or as a preconditioner M of any solver. Stateless, so safe to apply
/// from several threads. Not compiled in the library (its type depends on the user's functor).
///
/// Example (1D Laplacian, Dirichlet ends):
///   struct Laplace1d {
///     kelp::Ordinal n;
///     KOKKOS_INLINE_FUNCTION double operator()(kelp::Ordinal i,
///                                              const kelp::ConstVectorView<double>& x) const {
///       return 2 * x(i) - (i > 0 ? x(i - 1) : 0.0) - (i + 1 < n ? x(i + 1) : 0.0);
///     }
///   };
///   auto A = kelp::make_row_operator<double>(n, n, Laplace1d{n}, "laplace1d");
///   kelp::solvers::Cg<double> cg(A, M, {});
template <class Scalar, class Device, class RowF>
class RowOperator : public MatrixFreeOperator<Scalar, Device> {
 public:
  using Base = MatrixFreeOperator<Scalar, Device>;
  static_assert(std::is_copy_constructible<RowF>::value,
                "kelp::RowOperator: the row functor must be copyable (it is copied into kernels)");

  /// @param[in] num_rows, num_cols  shape of A (>= 0)
  /// @param[in] f                   the row functor, copied
  /// @param[in] name                names the operator in summary() and in error messages
  RowOperator(Ordinal num_rows, Ordinal num_cols, RowF f, std::string name)
      : Base("kelp::RowOperator", "row operator", num_rows, num_cols, std::move(name)),
        f_(std::move(f)) {}

  const RowF& functor() const { return f_; }

 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode) const override {
    impl::apply_rows("kelp::RowOperator::apply", f_, x, y, alpha, beta);
  }

 private:
  RowF f_;
};

/// A shared RowOperator (see there) for make_shared-style use with solvers.
/// Scalar and Device are given, RowF is deduced: make_row_operator<double>(n, n, f, "name").
template <class Scalar, class Device = DefaultDevice, class RowF>
std::shared_ptr<RowOperator<Scalar, Device, RowF>> make_row_operator(Ordinal num_rows,
                                                                     Ordinal num_cols, RowF f,
                                                                     std::string name) {
  return std::make_shared<RowOperator<Scalar, Device, RowF>>(num_rows, num_cols, std::move(f),
                                                             std::move(name));
}

}  // namespace kelp
