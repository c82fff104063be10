#pragma once
/// Point Jacobi preconditioner: M^{-1} = omega * D^{-1}, D = diag(A).

#include <algorithm>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::precond {

namespace impl {
/// The kernels of the helpers below are named functors, not lambdas: the helpers are instantiated
/// with the same types in several .cpp files (Jacobi, block Jacobi, Chebyshev, smoothers), where
/// nvcc's extended lambdas are unsafe (docs/conventions.md).
template <class Inv, class X, class Y, class Scalar>
struct ScaleRows {
  Inv inv;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  bool conjugate;
  bool overwrite;
  std::size_t num_cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const Scalar d = alpha * (conjugate ? ScalarTraits<Scalar>::conj(inv(i)) : inv(i));
    for (std::size_t j = 0; j < num_cols; ++j) {
      const Scalar v = d * x(i, j);
      y(i, j) = overwrite ? v : v + beta * y(i, j);  // beta = 0 must not read y
    }
  }
};

template <class Inv, class Scalar>
struct InvertDiagonal {
  Inv inv;
  Scalar omega;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i, long long& bad) const {
    const Scalar d = inv(i);
    if (d == Scalar(0) || !ScalarTraits<Scalar>::is_finite(d)) {
      if (i < bad) bad = i;
    } else {
      inv(i) = omega / d;
    }
  }
};

/// y(i, j) = alpha * d(i) * x(i, j) + beta * y(i, j) for every column j, in one kernel, where
/// d = conj(inv) when `conjugate` (A^H of a diagonal) and inv otherwise; beta = 0 does not read y.
/// x and y are both vectors or both LayoutLeft multi-vectors.
template <class Inv, class X, class Y, class Scalar>
void scale_by_inverse_diagonal(const Inv& inv, const X& x_in, const Y& y_in, Scalar alpha,
                               Scalar beta, bool conjugate) {
  const auto x = kelp::impl::as_columns(x_in);
  const auto y = kelp::impl::as_columns(y_in);
  Kokkos::parallel_for(
      "kelp::precond::Jacobi::apply",
      Kokkos::RangePolicy<typename Y::execution_space>(0, x_in.extent(0)),
      ScaleRows<Inv, std::decay_t<decltype(x)>, std::decay_t<decltype(y)>, Scalar>{
          inv, x, y, alpha, beta, conjugate, beta == Scalar(0), y.extent(1)});
}

/// inv(i) = omega / inv(i) where inv(i) is a nonzero finite diagonal entry; returns the first row
/// whose entry is zero or not finite (left as it was), or inv.extent(0) when there is none.
template <class Inv, class Scalar>
long long invert_diagonal(const Inv& inv, Scalar omega) {
  using Ordinal = long long;
  Ordinal first_bad = 0;  // Min starts from its identity (the largest value): none found
  Kokkos::parallel_reduce("kelp::precond::Jacobi::setup_numeric",
                          Kokkos::RangePolicy<typename Inv::execution_space>(0, inv.extent(0)),
                          InvertDiagonal<Inv, Scalar>{inv, omega}, Kokkos::Min<Ordinal>(first_bad));
  return std::min(first_bad, static_cast<Ordinal>(inv.extent(0)));
}
}  // namespace impl

struct JacobiParams {
  /// Damping omega in (0, 2]; 1 (the default) is plain Jacobi, the right choice inside CG where
  /// any scaling of M^{-1} is absorbed by the step lengths.
  double damping = 1.0;
};

/// Point Jacobi: y = alpha * omega * D^{-1} x + beta * y.
/// Requires: square A with a nonzero, finite diagonal (checked in setup_numeric; the error names
/// the first bad row, 1-based as in a Matrix Market file, and the matrix label if one was given).
/// Memory: one vector. Apply traffic: 3 words per row (4 with beta != 0); a block of k vectors
/// is one kernel, (2k + 1) words per row. Supports every OperatorMode.
///
/// Example:
///   auto M = std::make_shared<kelp::precond::Jacobi<kelp::CrsMatrix<double>>>();
///   M->setup(A);
///   M->apply(R, Z);  // Z = D^{-1} R for a block R (n x k)
template <class Matrix>
class Jacobi : public Preconditioner<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Base = Preconditioner<Matrix>;

  /// @param[in] params        damping
  /// @param[in] matrix_label  names the matrix in error messages ("data/A.mtx", "laplace2d
  ///                          {nx: 4, ny: 4}"); empty (default): unnamed
  explicit Jacobi(JacobiParams params = {}, std::string matrix_label = {})
      : params_(params), matrix_label_(std::move(matrix_label)) {
    KELP_REQUIRE(params.damping > 0 && params.damping <= 2, InvalidArgument,
                 "kelp::precond::Jacobi: damping = " << params.damping << ", expected 0 < damping <= 2");
  }

  /// The label given at construction (empty: none).
  const std::string& matrix_label() const { return matrix_label_; }

  std::string summary() const override {
    std::ostringstream out;
    out << "jacobi (damping " << params_.damping << ")";
    return out.str();
  }
  const JacobiParams& params() const { return params_; }
  /// D^{-1} is diagonal: transpose is the same operator, conjugate_transpose conjugates it.
  bool supports(OperatorMode) const override { return true; }
  /// D^{-1} (damping included): Jacobi is the diagonal operator diag(damping / a_ii).
  typename Base::const_vector_type pointwise_diagonal() const override { return inverse_diagonal_; }

 protected:
  const char* name() const override { return "kelp::precond::Jacobi"; }

  void setup_symbolic_impl(const Matrix& A) override {
    inverse_diagonal_ = VectorView<Scalar, typename Matrix::device_type>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::Jacobi::inverse_diagonal"),
        A.num_rows());
  }

  void setup_numeric_impl(const Matrix& A) override {
    kernels::extract_diagonal(A, inverse_diagonal_);
    auto inv = inverse_diagonal_;
    const long long first_bad = impl::invert_diagonal(inv, Scalar(params_.damping));
    if (first_bad < A.num_rows()) {
      Scalar bad_value{};  // left unscaled in the vector by the loop above
      Kokkos::deep_copy(bad_value, Kokkos::subview(inv, first_bad));
      const bool zero = bad_value == Scalar(0);
      KELP_THROW(NumericalError,
                 "kelp::precond::Jacobi::setup_numeric: "
                     << (zero ? "zero" : "non-finite") << " diagonal entry "
                     << (zero ? std::string() : "(" + to_text(bad_value) + ") ") << "at row "
                     << static_cast<long long>(first_bad) + 1 << " (1-based)"
                     << (matrix_label_.empty() ? "" : " of matrix '" + matrix_label_ + "'")
                     << (zero ? " (absent or stored as 0)" : "")
                     << "; Jacobi needs a nonzero, finite diagonal");
    }
  }

  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode mode) const override {
    impl::scale_by_inverse_diagonal(inverse_diagonal_, x, y, alpha, beta,
                                    mode == OperatorMode::conjugate_transpose);
  }
  /// One kernel over all k columns: the diagonal is read once per row.
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y,
                        Scalar alpha, Scalar beta, OperatorMode mode) const override {
    impl::scale_by_inverse_diagonal(inverse_diagonal_, X, Y, alpha, beta,
                                    mode == OperatorMode::conjugate_transpose);
  }

 private:
  static std::string to_text(const Scalar& value) {
    std::ostringstream out;
    out << value;
    return out.str();
  }

  JacobiParams params_;
  std::string matrix_label_;
  VectorView<Scalar, typename Matrix::device_type> inverse_diagonal_;
};

// Compiled once for the standard scalars, in precond/eti/ (see kernels/core/eti.hpp).
#define KELP_JACOBI_ETI(PREFIX, S) PREFIX template class Jacobi<CrsMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_JACOBI_ETI, extern)

}  // namespace kelp::precond
