#pragma once
/// Chebyshev polynomial preconditioner and smoother on the Jacobi-scaled operator D^{-1} A.

#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/precond/smoother.hpp"

namespace kelp::precond {

struct ChebyshevParams {
  /// Polynomial degree (operator applies per sweep), >= 1.
  int degree = 3;
  /// The interval is [lambda_max / eigenvalue_ratio, lambda_max] (30: MueLu's and Ifpack2's
  /// smoother default; small ratios smooth, large ones precondition). > 1.
  double eigenvalue_ratio = 30.0;
  /// Largest eigenvalue of D^{-1} A; 0 (default): estimated in setup_numeric.
  double lambda_max = 0.0;
  /// Smallest eigenvalue of the interval; 0 (default): lambda_max / eigenvalue_ratio.
  double lambda_min = 0.0;
  /// Power iterations of the estimate (when lambda_max = 0), >= 1.
  int power_iterations = 10;
  /// Safety factor on the estimate (power iteration approaches lambda_max from below), >= 1.
  double boost = 1.1;
  /// Polynomial sweeps per application as an operator, >= 1.
  int sweeps = 1;
};

namespace impl {
/// d = c_d * d + c_r * inv .* r;  x += d  (one pass). read_d = false: d = c_r inv .* r (d not
/// read); read_x = false: x = d (x not read), so garbage or NaN there does not propagate.
template <class Inv, class R, class D, class X, class Scalar>
void chebyshev_step(const Inv& inv, const R& r, const D& d, const X& x, Scalar c_d, Scalar c_r,
                    bool read_d, bool read_x) {
  Kokkos::parallel_for(
      "kelp::precond::Chebyshev::step", Kokkos::RangePolicy<typename X::execution_space>(0, x.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        const Scalar di = read_d ? c_d * d(i) + c_r * inv(i) * r(i) : c_r * inv(i) * r(i);
        d(i) = di;
        x(i) = read_x ? x(i) + di : di;
      });
}

/// v(i) in [0.5, 1.5): a fixed pseudo-random start vector (integer hash, the same on every
/// device), so the estimate is reproducible.
template <class V>
void fill_start_vector(const V& v) {
  using Scalar = typename V::non_const_value_type;
  Kokkos::parallel_for(
      "kelp::precond::Chebyshev::start_vector",
      Kokkos::RangePolicy<typename V::execution_space>(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        const unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 2654435761ull % 4294967296ull;
        v(i) = Scalar(0.5 + static_cast<double>(h) / 4294967296.0);
      });
}
}  // namespace impl

/// Chebyshev iteration (Saad, "Iterative Methods", Alg. 12.1; Adams et al. 2003 for the
/// smoother) on D^{-1} A over [lambda_min, lambda_max]. Each sweep is the degree-d polynomial
/// correction x <- x + p(D^{-1} A) D^{-1} (b - A x). Fixed and linear in b: it preconditions CG
/// when A is SPD (the residual polynomial stays in (-1, 1) on the interval, so p > 0 there) and
/// serves as a multigrid smoother (Smoother::smooth). lambda_max comes from the params or from
/// `power_iterations` power steps on D^{-1} A times `boost`. The estimate approaches lambda_max
/// from below: right for smoothing, but as a CG preconditioner an underestimate makes the
/// polynomial negative above the interval (CG then stops with indefinite_preconditioner), so give
/// an upper bound there (Gershgorin: max_i sum_j |a_ij| / |a_ii|, 2 for the Laplacians).
/// Requires a square A with a nonzero, finite diagonal. Per sweep: degree SpMVs (degree - 1 when
/// starting from zero), fused vector updates, no reductions (the estimate's are in setup only).
template <class Matrix>
class Chebyshev : public Smoother<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Smoother<Matrix>;
  using vector_type = typename Base::vector_type;
  using const_vector_type = typename Base::const_vector_type;

  explicit Chebyshev(ChebyshevParams params = {}, std::string matrix_label = {})
      : Base(params.sweeps), params_(params), matrix_label_(std::move(matrix_label)) {
    constexpr const char* where = "kelp::precond::Chebyshev";
    KELP_REQUIRE(params.degree >= 1, InvalidArgument,
                 where << ": degree = " << params.degree << ", expected >= 1");
    KELP_REQUIRE(params.eigenvalue_ratio > 1, InvalidArgument,
                 where << ": eigenvalue_ratio = " << params.eigenvalue_ratio << ", expected > 1");
    KELP_REQUIRE(params.lambda_max >= 0 && params.lambda_min >= 0, InvalidArgument,
                 where << ": lambda_max = " << params.lambda_max << ", lambda_min = "
                       << params.lambda_min << "; expected >= 0 (0: estimate / derive)");
    KELP_REQUIRE(params.lambda_max == 0 || params.lambda_min < params.lambda_max, InvalidArgument,
                 where << ": lambda_min = " << params.lambda_min << " >= lambda_max = "
                       << params.lambda_max);
    KELP_REQUIRE(params.power_iterations >= 1, InvalidArgument,
                 where << ": power_iterations = " << params.power_iterations << ", expected >= 1");
    KELP_REQUIRE(params.boost >= 1, InvalidArgument,
                 where << ": boost = " << params.boost << ", expected >= 1");
  }

  std::string summary() const override {
    std::ostringstream out;
    out << "chebyshev (degree " << params_.degree << ", ";
    if (lambda_max_ > 0) {
      out << "interval [" << lambda_min_ << ", " << lambda_max_ << "] of D^{-1} A";
    } else {
      out << "interval of D^{-1} A set at setup";
    }
    out << ", sweeps " << params_.sweeps << ")";
    return out.str();
  }
  const ChebyshevParams& params() const { return params_; }
  /// The interval in use (after setup_numeric).
  double lambda_max() const { return lambda_max_; }
  double lambda_min() const { return lambda_min_; }
  /// The power-iteration estimate before boost (0 when lambda_max was given).
  double estimated_lambda_max() const { return estimate_; }

 protected:
  const char* name() const override { return "kelp::precond::Chebyshev"; }

  void setup_symbolic_impl(const Matrix& A) override {
    const std::size_t n = static_cast<std::size_t>(A.num_rows());
    const auto make = [n](const char* label) {
      return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    inverse_diagonal_ = make("kelp::precond::Chebyshev::inverse_diagonal");
    r_ = make("kelp::precond::Chebyshev::r");
    d_ = make("kelp::precond::Chebyshev::d");
  }

  void setup_numeric_impl(const Matrix& A) override {
    A_ = std::make_shared<MatrixOperator<Matrix>>(A);
    kernels::extract_diagonal(A, inverse_diagonal_);
    const long long first_bad = impl::invert_diagonal(inverse_diagonal_, Scalar(1));
    KELP_REQUIRE(first_bad >= A.num_rows(), NumericalError,
                 "kelp::precond::Chebyshev::setup_numeric: zero or non-finite diagonal entry at row "
                     << first_bad + 1 << " (1-based)"
                     << (matrix_label_.empty() ? "" : " of matrix '" + matrix_label_ + "'")
                     << "; Chebyshev scales by D^{-1}");
    estimate_ = 0;
    lambda_max_ = params_.lambda_max;
    if (lambda_max_ == 0 && A.num_rows() == 0) lambda_max_ = 1;  // nothing to estimate
    if (lambda_max_ == 0) {
      estimate_ = estimate_lambda_max();
      KELP_REQUIRE(std::isfinite(estimate_) && estimate_ > 0, NumericalError,
                   "kelp::precond::Chebyshev::setup_numeric: the power-iteration estimate of "
                   "lambda_max(D^{-1} A) is "
                       << estimate_ << "; give lambda_max explicitly");
      lambda_max_ = params_.boost * estimate_;
    }
    // The smoother scales by 1 / theta ~ 1 / lambda_max: with lambda_max = inf (a huge boost) or
    // near the largest double that is 0 or subnormal, the preconditioner returns ~0 and CG stops
    // blaming the matrix (indefinite_matrix), not the parameter.
    if (!std::isfinite(lambda_max_) || !std::isnormal(1.0 / lambda_max_)) {
      std::ostringstream source;
      if (params_.lambda_max == 0) {
        source << "boost = " << params_.boost << " times the estimate " << estimate_;
      } else {
        source << "given";
      }
      KELP_THROW(InvalidArgument, "kelp::precond::Chebyshev::setup_numeric: lambda_max = "
                                      << lambda_max_ << " of D^{-1} A (" << source.str()
                                      << ") is too large for the smoother's double arithmetic; expected a boost "
                                         "near 1 (1.1 is usual) or lambda_max near the spectrum");
    }
    lambda_min_ = params_.lambda_min > 0 ? params_.lambda_min : lambda_max_ / params_.eigenvalue_ratio;
    KELP_REQUIRE(lambda_min_ < lambda_max_, InvalidArgument,
                 "kelp::precond::Chebyshev::setup_numeric: lambda_min = "
                     << lambda_min_ << " >= lambda_max = " << lambda_max_);
  }

  void smooth_impl(const_vector_type b, vector_type x, int sweeps, InitialGuess guess) const override {
    const double theta = (lambda_max_ + lambda_min_) / 2, delta = (lambda_max_ - lambda_min_) / 2;
    const double sigma = theta / delta;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
      const bool zero = sweep == 0 && guess == InitialGuess::zero;
      // First term: d = D^{-1} r / theta, x += d (x = d from a zero guess, r = b).
      if (zero) {
        impl::chebyshev_step(inverse_diagonal_, b, d_, x, Scalar(0), Scalar(1.0 / theta), false,
                             false);
      } else {
        residual(b, x);
        impl::chebyshev_step(inverse_diagonal_, const_vector_type(r_), d_, x, Scalar(0),
                             Scalar(1.0 / theta), false, true);
      }
      double rho = 1 / sigma;
      for (int k = 1; k < params_.degree; ++k) {
        residual(b, x);
        const double rho_new = 1 / (2 * sigma - rho);
        impl::chebyshev_step(inverse_diagonal_, const_vector_type(r_), d_, x,
                             Scalar(rho_new * rho), Scalar(2 * rho_new / delta), true, true);
        rho = rho_new;
      }
    }
  }

 private:
  /// r_ = b - A x.
  void residual(const_vector_type b, const_vector_type x) const {
    A_->apply(x, r_, Scalar(-1), Scalar(0));
    kernels::axpby(Scalar(1), b, Scalar(1), r_);
  }

  /// ||D^{-1} A v|| / ||v|| after power_iterations steps from a fixed start vector.
  double estimate_lambda_max() const {
    const vector_type v = d_, w = r_;
    impl::fill_start_vector(v);
    double norm = static_cast<double>(kernels::nrm2(v));
    double lambda = 0;
    for (int k = 0; k < params_.power_iterations && norm > 0; ++k) {
      kernels::scal(Scalar(1.0 / norm), v);
      A_->apply(v, w);
      impl::chebyshev_step(inverse_diagonal_, const_vector_type(w), vector_type(w), v, Scalar(0),
                           Scalar(1), false, false);  // v = w = D^{-1} A v
      norm = static_cast<double>(kernels::nrm2(v));
      lambda = norm;
    }
    return lambda;
  }

  ChebyshevParams params_;
  std::string matrix_label_;
  std::shared_ptr<MatrixOperator<Matrix>> A_;
  vector_type inverse_diagonal_;
  mutable vector_type r_, d_;  // work vectors: apply is const; not for concurrent use
  double lambda_max_ = 0, lambda_min_ = 0, estimate_ = 0;
};

#define KELP_CHEBYSHEV_ETI(PREFIX, S) PREFIX template class Chebyshev<CrsMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_CHEBYSHEV_ETI, extern)

}  // namespace kelp::precond
