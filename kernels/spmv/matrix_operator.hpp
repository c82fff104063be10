#pragma once
/// A CrsMatrix seen as an Operator (y = alpha*A*x + beta*y), with its SpMV analysis kept.

#include <memory>
#include <sstream>

#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"

namespace kelp {

/// Operator view of a CRS matrix. Holds the matrix (shallow) and one SpmvHandle, so the pattern
/// analysis happens once. Not safe to apply concurrently from several threads (shared handle).
/// Vectors go to SpMV, blocks (n x k, LayoutLeft) to one SpMMV; all three modes are supported.
///
/// Example:
///   auto A_op = std::make_shared<kelp::MatrixOperator<kelp::CrsMatrix<double>>>(A);
///   A_op->apply(X, Y, 1.0, 0.0, kelp::OperatorMode::conjugate_transpose);  // Y = A^H X
template <class Matrix>
class MatrixOperator : public Operator<typename Matrix::scalar_type, typename Matrix::device_type> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Base = Operator<Scalar, typename Matrix::device_type>;

  explicit MatrixOperator(Matrix A, kernels::SpmvAlgorithm algorithm = kernels::SpmvAlgorithm::automatic)
      : A_(A), handle_(std::make_unique<kernels::SpmvHandle<Matrix>>(algorithm)) {
    handle_->analyze(A_);
  }

  Ordinal num_rows() const override { return A_.num_rows(); }
  Ordinal num_cols() const override { return A_.num_cols(); }
  std::string summary() const override {
    std::ostringstream out;
    out << "CrsMatrix " << A_.num_rows() << " x " << A_.num_cols() << ", nnz " << A_.nnz()
        << ", spmv " << kernels::to_string(handle_->algorithm());
    return out.str();
  }
  const Matrix& matrix() const { return A_; }
  /// A, A^T and A^H (the transposed modes scatter with atomics: see kernels/spmv/spmv.hpp).
  bool supports(OperatorMode) const override { return true; }
  /// The SpMV mode that computes op(A) for an operator mode.
  static kernels::SpmvMode spmv_mode(OperatorMode mode) {
    switch (mode) {
      case OperatorMode::transpose:
        return kernels::SpmvMode::transpose;
      case OperatorMode::conjugate_transpose:
        return kernels::SpmvMode::conjugate_transpose;
      case OperatorMode::no_transpose:
        break;
    }
    return kernels::SpmvMode::no_transpose;
  }

 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode mode) const override {
    kernels::spmv(*handle_, spmv_mode(mode), alpha, A_, x, beta, y);
  }
  /// One SpMMV: A is read once for all k columns.
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y,
                        Scalar alpha, Scalar beta, OperatorMode mode) const override {
    kernels::spmv(*handle_, spmv_mode(mode), alpha, A_, X, beta, Y);
  }
  bool apply_and_dot_impl(typename Base::const_vector_type x, typename Base::vector_type y,
                          Scalar& local_dot) const override {
    return kernels::spmv_dot(*handle_, A_, x, y, local_dot);
  }

 private:
  Matrix A_;
  std::unique_ptr<kernels::SpmvHandle<Matrix>> handle_;  // mutable analysis cache behind const apply
};

// Compiled once for the standard scalars, in kernels/spmv/eti/ (see kernels/core/eti.hpp).
#define KELP_MATRIX_OPERATOR_ETI(PREFIX, S) PREFIX template class MatrixOperator<CrsMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_MATRIX_OPERATOR_ETI, extern)

}  // namespace kelp
