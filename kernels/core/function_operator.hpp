#pragma once
/// A matrix-free operator from a host callable that computes y = A x (it may launch kernels).

#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/matrix_free_operator.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/row_operator.hpp"

namespace kelp {

/// Matrix-free operator from a host callable: y = alpha * A x + beta * y, where
///   f(ConstVectorView<Scalar, Device> x, VectorView<Scalar, Device> y)
/// writes every entry of y = A x (it is called on the host and may launch its own kernels, call
/// a PDE code's residual routine, or apply another Operator; it must not read y).
///
/// The wrapper adds alpha and beta: beta = 0 lets f write y directly (y is never read), then
/// scales it if alpha != 1; beta != 0 has f write a work vector the operator keeps between calls
/// (allocated on first need: no allocation per apply) and combines it into y in one kernel;
/// alpha = 0 does not call f. Modes: no_transpose only. Blocks: one f call per column.
/// Works wherever an Operator does: as A or as a preconditioner M of any solver. Not safe to
/// apply from several threads at once (shared work vector). Not compiled in the library (its type
/// depends on the user's callable).
///
/// Example (a scaled identity, with a kernel of its own; any host code goes):
///   auto A = kelp::make_function_operator<double>(n, n,
///       [](kelp::ConstVectorView<double> x, kelp::VectorView<double> y) {
///         kelp::kernels::axpby(4.0, x, 0.0, y);          // y = 4 x
///       }, "4 I");
///   A->apply(x, y, 1.0, 2.0);                            // y = 4 x + 2 y
template <class Scalar, class Device, class F>
class FunctionOperator : public MatrixFreeOperator<Scalar, Device> {
 public:
  using Base = MatrixFreeOperator<Scalar, Device>;
  static_assert(std::is_invocable<const F&, ConstVectorView<Scalar, Device>,
                                  VectorView<Scalar, Device>>::value,
                "kelp::FunctionOperator: f must be callable (as const) with "
                "(ConstVectorView<Scalar, Device> x, VectorView<Scalar, Device> y)");

  /// @param[in] num_rows, num_cols  shape of A (>= 0)
  /// @param[in] f                   computes y = A x, see the class comment; copied
  /// @param[in] name                names the operator in summary() and in error messages
  FunctionOperator(Ordinal num_rows, Ordinal num_cols, F f, std::string name)
      : Base("kelp::FunctionOperator", "function operator", num_rows, num_cols, std::move(name)),
        f_(std::move(f)) {}


 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode) const override {
    using Entry = impl::EntryOf<Scalar, Device>;
    const char* label = "kelp::FunctionOperator::apply";
    if (alpha == Scalar(0)) {  // y = beta y; A is not applied
      impl::apply_rows(label, Entry{}, typename Base::const_vector_type(y), y, alpha, beta);
    } else if (beta == Scalar(0)) {  // f overwrites y: no work vector, y never read
      f_(x, y);
      if (alpha != Scalar(1)) {
        impl::apply_rows(label, Entry{}, typename Base::const_vector_type(y), y, alpha, beta);
      }
    } else {  // y = alpha (A x) + beta y: A x must not overwrite y before it is combined
      if (static_cast<Ordinal>(work_.extent(0)) != this->num_rows()) {
        work_ = typename Base::vector_type(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::FunctionOperator::work"),
            this->num_rows());
      }
      f_(x, work_);
      impl::apply_rows(label, Entry{}, typename Base::const_vector_type(work_), y, alpha, beta);
    }
  }

 private:
  F f_;
  mutable typename Base::vector_type work_;  // A x when y must be kept (beta != 0)
};

/// A shared FunctionOperator (see there). Scalar and Device are given, F is deduced:
///   make_function_operator<double>(n, n, [](auto x, auto y) { ... }, "name").
template <class Scalar, class Device = DefaultDevice, class F>
std::shared_ptr<FunctionOperator<Scalar, Device, F>> make_function_operator(Ordinal num_rows,
                                                                           Ordinal num_cols, F f,
                                                                           std::string name) {
  return std::make_shared<FunctionOperator<Scalar, Device, F>>(num_rows, num_cols, std::move(f),
                                                               std::move(name));
}

}  // namespace kelp
