#pragma once
/// The one interface shared by matrices, preconditioners and solvers.

#include <string>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp {

/// A linear operator:  y = alpha * op(x) + beta * y.
///
/// Matrices (MatrixOperator), preconditioners (approximations of A^{-1}) and Krylov solvers all
/// implement it, so any of them can be composed with any other. The public apply() checks the
/// shapes once and then calls apply_impl(), which may assume them. beta = 0 must overwrite y
/// without reading it.
template <class Scalar, class Device = DefaultDevice>
class Operator {
 public:
  using scalar_type = Scalar;
  using device_type = Device;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;

  virtual ~Operator() = default;
  virtual Ordinal num_rows() const = 0;
  virtual Ordinal num_cols() const = 0;
  /// One line for logs and hierarchy printouts.
  virtual std::string summary() const = 0;
  /// True when applying the operator twice to the same x can give different results, or when
  /// it is not linear in x: an inner Krylov solver run to a tolerance. Methods that need a fixed
  /// linear preconditioner (plain CG) refuse such operators; flexible ones accept them.
  virtual bool is_variable() const { return false; }

  /// y = alpha * op(x) + beta * y.
  /// @throws DimensionMismatch when x or y has the wrong length, InvalidArgument when they alias
  void apply(const_vector_type x, vector_type y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0)) const {
    check_ready();
    KELP_REQUIRE(static_cast<long long>(x.extent(0)) == num_cols(), DimensionMismatch,
                 "kelp::Operator::apply: dimension mismatch: " << summary() << " is " << num_rows()
                     << " x " << num_cols() << ", x has " << x.extent(0) << " rows, expected "
                     << num_cols());
    KELP_REQUIRE(static_cast<long long>(y.extent(0)) == num_rows(), DimensionMismatch,
                 "kelp::Operator::apply: dimension mismatch: " << summary() << " is " << num_rows()
                     << " x " << num_cols() << ", y has " << y.extent(0) << " rows, expected "
                     << num_rows());
    KELP_REQUIRE(x.extent(0) == 0 || x.data() != y.data(), InvalidArgument,
                 "kelp::Operator::apply: x and y are the same array; y must not alias x");
    apply_impl(x, y, alpha, beta);
  }

 protected:
  /// Throws InvalidState when the operator cannot be applied yet (a preconditioner before its
  /// setup): checked before the shapes, so the message says what is missing.
  virtual void check_ready() const {}
  virtual void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta) const = 0;
};

}  // namespace kelp
