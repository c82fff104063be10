#pragma once
/// The generic smoother: residual correction with any preconditioner M,
/// x <- x + M^{-1} (b - A x). With Jacobi (damping 2/3 on Laplacians) it is damped Jacobi.

#include <memory>
#include <sstream>

#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/smoother.hpp"

namespace kelp::precond {

/// Per sweep: one SpMV, one apply of M, one vector update (the first sweep from a zero guess
/// skips the SpMV: x = M^{-1} b). Symmetric (usable in CG) when M is.
/// Memory: one residual vector. setup_symbolic / setup_numeric set up M as well, so a
/// values-only change of A needs only setup_numeric.
template <class Matrix>
class RelaxationSmoother : public Smoother<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Smoother<Matrix>;
  using vector_type = typename Base::vector_type;
  using const_vector_type = typename Base::const_vector_type;

  /// @param[in] M       the preconditioner of the correction (not yet set up; set up here)
  /// @param[in] sweeps  sweeps per apply when used as an operator (>= 1)
  RelaxationSmoother(std::shared_ptr<Preconditioner<Matrix>> M, int sweeps = 1)
      : Base(sweeps), M_(std::move(M)) {
    KELP_REQUIRE(M_ != nullptr, InvalidArgument,
                 "kelp::precond::RelaxationSmoother: the preconditioner must not be null");
  }

  std::string summary() const override {
    std::ostringstream out;
    out << "relaxation smoother (" << this->sweeps() << (this->sweeps() == 1 ? " sweep" : " sweeps") << ") with " << M_->summary();
    return out.str();
  }

 protected:
  const char* name() const override { return "kelp::precond::RelaxationSmoother"; }
  void setup_symbolic_impl(const Matrix& A) override {
    M_->setup_symbolic(A);
    A_ = std::make_unique<MatrixOperator<Matrix>>(A);
    residual_ = vector_type(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::RelaxationSmoother::r"),
        A.num_rows());
  }
  void setup_numeric_impl(const Matrix& A) override {
    M_->setup_numeric(A);
    // Same values array (updated in place): keep the operator and its SpMV analysis.
    if (A.values().data() != A_->matrix().values().data()) A_ = std::make_unique<MatrixOperator<Matrix>>(A);
  }

  void smooth_impl(const_vector_type b, vector_type x, int sweeps, InitialGuess guess) const override {
    int sweep = 0;
    if (guess == InitialGuess::zero) {
      M_->apply(b, x);  // x = M^{-1} (b - A 0)
      sweep = 1;
    }
    for (; sweep < sweeps; ++sweep) {
      A_->apply(x, residual_, Scalar(-1), Scalar(0));  // r = b - A x
      kernels::axpby(Scalar(1), b, Scalar(1), residual_);
      M_->apply(residual_, x, Scalar(1), Scalar(1));   // x += M^{-1} r
    }
  }

 private:
  std::shared_ptr<Preconditioner<Matrix>> M_;
  std::unique_ptr<MatrixOperator<Matrix>> A_;
  vector_type residual_;
};

}  // namespace kelp::precond
