#pragma once
/// A SELL-C-sigma matrix seen as an Operator (y = alpha*A*x + beta*y), so solvers can use it.

#include <sstream>
#include <string>

#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/sell/sell_spmv.hpp"
#include "kelp/kernels/sell/to_sell.hpp"

namespace kelp {

/// Operator view of a SELL matrix (kernels/sell/sell_matrix.hpp). Holds the matrix (shallow)
/// and the kernel to use; vectors go to SELL SpMV, blocks (n x k, LayoutLeft) to one SpMMV.
/// Supports no_transpose only (SELL's transposed product would scatter; use MatrixOperator).
/// Stateless between applies, so it may be applied concurrently.
///
/// Example:
///   auto A_op = std::make_shared<kelp::SellOperator<kelp::kernels::SellMatrix<double>>>(
///       kelp::kernels::to_sell(A, {32, 256}));
///   kelp::solvers::Cg<double> cg(A_op, jacobi, params);
template <class Sell>
class SellOperator : public Operator<typename Sell::scalar_type, typename Sell::device_type> {
 public:
  using Scalar = typename Sell::scalar_type;
  using Base = Operator<Scalar, typename Sell::device_type>;

  explicit SellOperator(Sell A, kernels::SellAlgorithm algorithm = kernels::SellAlgorithm::automatic)
      : A_(A), algorithm_(algorithm) {}

  Ordinal num_rows() const override { return A_.num_rows(); }
  Ordinal num_cols() const override { return A_.num_cols(); }
  std::string summary() const override {
    std::ostringstream out;
    out << kernels::to_string(A_.shape()) << " matrix " << A_.num_rows() << " x " << A_.num_cols() << ", nnz "
        << A_.nnz() << ", chunk occupancy " << A_.chunk_occupancy() << ", kernel "
        << kernels::to_string(algorithm_);
    return out.str();
  }
  const Sell& matrix() const { return A_; }

 protected:
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode) const override {
    kernels::sell_spmv(alpha, A_, x, beta, y, algorithm_);
  }
  /// One SpMMV: A is read once per block of vectors.
  void apply_block_impl(typename Base::const_multivector_type X, typename Base::multivector_type Y, Scalar alpha,
                        Scalar beta, OperatorMode) const override {
    kernels::sell_spmv(alpha, A_, X, beta, Y, algorithm_);
  }

 private:
  Sell A_;
  kernels::SellAlgorithm algorithm_;
};

// Compiled once for the standard scalars, in kernels/sell/eti/.
#define KELP_SELL_OPERATOR_ETI(PREFIX, S) PREFIX template class SellOperator<kernels::SellMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_SELL_OPERATOR_ETI, extern)

}  // namespace kelp
