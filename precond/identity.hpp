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

  void setup_symbolic(const Matrix& A) override {
    KELP_REQUIRE(A.num_rows() == A.num_cols(), DimensionMismatch,
                 "kelp::precond::Identity::setup_symbolic: matrix is " << A.num_rows() << " x "
                     << A.num_cols() << ", expected square");
    state_.record_symbolic(A);
  }
  void setup_numeric(const Matrix& A) override {
    state_.check_numeric("kelp::precond::Identity::setup_numeric", A);
    state_.record_numeric();
  }
  Ordinal num_rows() const override { return static_cast<Ordinal>(state_.num_rows()); }
  Ordinal num_cols() const override { return num_rows(); }
  std::string summary() const override { return "identity"; }

 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta) const override {
    state_.check_apply("kelp::precond::Identity::apply");
    kernels::axpby(alpha, x, beta, y);  // y = alpha x + beta y
  }

 private:
  SetupState state_;
};

}  // namespace kelp::precond
