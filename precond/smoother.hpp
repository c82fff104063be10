#pragma once
/// The smoother concept: x <- x + M^{-1} (b - A x), a number of sweeps, for multigrid cycles
/// and for use as a preconditioner.
///
/// A Smoother is a Preconditioner (setup_symbolic / setup_numeric on the matrix, then apply),
/// with one more public call, smooth(b, x, sweeps, guess), that improves a given x in place. Its
/// apply(x, y) is `sweeps()` sweeps on A y = x from a zero initial guess: a fixed linear operator,
/// so a smoother preconditions CG (symmetric smoothers only) or sits in an AMG cycle.
/// Subclasses implement smooth_impl (Gauss-Seidel sweeps in place, or the generic residual
/// correction of RelaxationSmoother) and the setup hooks; the checks live here, once.
///
///   precond::RelaxationSmoother<Matrix> smoother(
///       std::make_shared<precond::Jacobi<Matrix>>(precond::JacobiParams{2.0 / 3.0}), 2);
///   smoother.setup(A);
///   smoother.smooth(b, x, 3);                      // three damped-Jacobi sweeps on x
///   smoother.smooth(b, x, 1, InitialGuess::zero);  // x = M^{-1} b, x not read

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::precond {

template <class Matrix>
class Smoother : public Preconditioner<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Preconditioner<Matrix>;
  using vector_type = typename Base::vector_type;
  using const_vector_type = typename Base::const_vector_type;

  /// x <- x + M^{-1} (b - A x), `sweeps` times (0: x unchanged, or 0 for a zero guess).
  /// @param[in] guess  provided: x is the initial guess; zero: x is not read
  /// @throws InvalidState before setup_numeric, InvalidArgument for sweeps < 0 or x aliasing b,
  ///         DimensionMismatch for lengths other than the matrix's
  void smooth(const_vector_type b, vector_type x, int sweeps,
              InitialGuess guess = InitialGuess::provided) const {
    this->check_ready();
    KELP_REQUIRE(sweeps >= 0, InvalidArgument,
                 this->name() << "::smooth: sweeps = " << sweeps << " < 0");
    KELP_REQUIRE(static_cast<Ordinal>(b.extent(0)) == this->num_rows() &&
                     static_cast<Ordinal>(x.extent(0)) == this->num_rows(),
                 DimensionMismatch,
                 this->name() << "::smooth: dimension mismatch: matrix is " << this->num_rows()
                              << " x " << this->num_rows() << ", b has " << b.extent(0)
                              << " rows, x has " << x.extent(0));
    KELP_REQUIRE(x.extent(0) == 0 || static_cast<const void*>(x.data()) != b.data(),
                 InvalidArgument, this->name() << "::smooth: x and b are the same array");
    if (sweeps == 0) {
      if (guess == InitialGuess::zero) kernels::fill(x, Scalar(0));
      return;
    }
    smooth_impl(b, x, sweeps, guess);
  }

  /// Sweeps per application as an operator (apply).
  int sweeps() const { return sweeps_; }

 protected:
  /// @param[in] sweeps  sweeps per apply (>= 1)
  explicit Smoother(int sweeps) : sweeps_(sweeps) {
    KELP_REQUIRE(sweeps >= 1, InvalidArgument,
                 "kelp::precond::Smoother: sweeps = " << sweeps << ", expected >= 1");
  }

  /// The sweeps; arguments checked, sweeps >= 1.
  virtual void smooth_impl(const_vector_type b, vector_type x, int sweeps,
                           InitialGuess guess) const = 0;

  /// y = alpha * S(x) + beta * y, S(x) = sweeps() sweeps on A s = x from s = 0.
  void apply_impl(const_vector_type x, vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode) const final {
    if (alpha == Scalar(1) && beta == Scalar(0)) {  // the common case: smooth into y directly
      smooth_impl(x, y, sweeps_, InitialGuess::zero);
      return;
    }
    if (result_.extent(0) != x.extent(0)) {
      result_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                               "kelp::precond::Smoother::result"),
                            x.extent(0));
    }
    smooth_impl(x, result_, sweeps_, InitialGuess::zero);
    kernels::axpby(alpha, result_, beta, y);
  }

 private:
  int sweeps_;
  mutable vector_type result_;  // kept between applies; not for concurrent use
};

}  // namespace kelp::precond
