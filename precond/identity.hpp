#pragma once
/// The identity "preconditioner" M^{-1} = I: turns a preconditioned solver into the plain one.

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::precond {

template <class Matrix>
class Identity : public Preconditioner<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Preconditioner<Matrix>;

  std::string summary() const override { return "identity"; }

 protected:
  const char* name() const override { return "kelp::precond::Identity"; }
  void setup_symbolic_impl(const Matrix&) override {}
  void setup_numeric_impl(const Matrix&) override {}
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta) const override {
    kernels::axpby(alpha, x, beta, y);  // y = alpha x + beta y
  }
};

}  // namespace kelp::precond
