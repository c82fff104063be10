#pragma once
/// The identity "preconditioner" M^{-1} = I: turns a preconditioned solver into the plain one.

#include <memory>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/core/function_operator.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::precond {

/// y = alpha * x + beta * y, for vectors and blocks (one kernel), in every mode.
/// Example:
///   auto M = std::make_shared<kelp::precond::Identity<kelp::CrsMatrix<double>>>();
///   M->setup(A);  // records the size; nothing else to set up
template <class Matrix>
class Identity : public Preconditioner<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Preconditioner<Matrix>;

  std::string summary() const override { return "identity"; }
  /// I = I^T = I^H.
  bool supports(OperatorMode) const override { return true; }

 protected:
  const char* name() const override { return "kelp::precond::Identity"; }
  void setup_symbolic_impl(const Matrix&) override {}
  void setup_numeric_impl(const Matrix&) override {}
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode) const override {
    kernels::axpby(alpha, x, beta, y);  // y = alpha x + beta y
  }
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y,
                        Scalar alpha, Scalar beta, OperatorMode) const override {
    kernels::axpby(alpha, X, beta, Y);  // one kernel over all k columns
  }
};

/// The identity as an Operator of size n x n: "no preconditioner" for a matrix-free solve, where
/// Identity (set up from a CrsMatrix) has nothing to be set up from. y = alpha x + beta y.
///   solvers::Cg<double> cg(A_free, precond::identity_operator<double>(n), {});
template <class Scalar, class Device = DefaultDevice>
std::shared_ptr<const Operator<Scalar, Device>> identity_operator(Ordinal n) {
  return make_function_operator<Scalar, Device>(
      n, n, [](ConstVectorView<Scalar, Device> x, VectorView<Scalar, Device> y) { Kokkos::deep_copy(y, x); },
      "identity");
}

}  // namespace kelp::precond
