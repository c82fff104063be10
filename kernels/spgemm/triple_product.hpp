#pragma once
/// Galerkin triple product C = Pᵀ·A·P (the AMG coarse operator) through two SpGEMMs:
/// AP = A·P, then C = Pᵀ·AP, with Pᵀ from kernels::transpose. Both products keep their
/// symbolic handles, so triple_product_numeric after a change of A's (or P's) values redoes only
/// the transposition's values and the two numeric phases.

#include "kelp/kernels/sparse/transpose.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"

namespace kelp::kernels {

/// Symbolic state of Pᵀ·A·P: the two SpGEMM handles and the intermediate AP and Pᵀ.
/// Contract as SpgemmHandle: the numeric phase takes A and P with the patterns the symbolic
/// phase saw (checked, errors name both). Movable, not copyable.
template <class Matrix>
class TripleProductHandle {
 public:
  explicit TripleProductHandle(SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic)
      : ap_(algorithm), rap_(algorithm) {}
  TripleProductHandle(const TripleProductHandle&) = delete;
  TripleProductHandle& operator=(const TripleProductHandle&) = delete;
  TripleProductHandle(TripleProductHandle&&) = default;
  TripleProductHandle& operator=(TripleProductHandle&&) = default;

  bool has_symbolic() const { return ap_.has_symbolic() && rap_.has_symbolic(); }
  SpgemmHandle<Matrix>& ap_handle() { return ap_; }
  SpgemmHandle<Matrix>& rap_handle() { return rap_; }
  Matrix& ap() { return ap_matrix_; }
  Matrix& restriction() { return restriction_; }

 private:
  SpgemmHandle<Matrix> ap_;
  SpgemmHandle<Matrix> rap_;
  Matrix ap_matrix_;
  Matrix restriction_;
};

/// Symbolic phase of C = Pᵀ·A·P; allocates C (m x m for an n x m P).
/// @throws DimensionMismatch when A is not square or P has other than n rows
/// (exec: the instance all the work runs on; the overload without it uses a default instance)
template <class Matrix>
void triple_product_symbolic(const typename Matrix::execution_space& exec,
                             TripleProductHandle<Matrix>& handle, const Matrix& A,
                             const Matrix& P, Matrix& C) {
  KELP_REQUIRE(A.num_rows() == A.num_cols() && A.num_cols() == P.num_rows(), DimensionMismatch,
               "kelp::kernels::triple_product_symbolic: dimension mismatch: A is "
                   << impl::shape_string(A.num_rows(), A.num_cols()) << ", P is "
                   << impl::shape_string(P.num_rows(), P.num_cols())
                   << "; A must be square with as many rows as P");
  handle.restriction() = transpose(exec, P);
  spgemm_symbolic(exec, handle.ap_handle(), A, P, handle.ap());
  spgemm_symbolic(exec, handle.rap_handle(), handle.restriction(), handle.ap(), C);
}

template <class Matrix>
void triple_product_symbolic(TripleProductHandle<Matrix>& handle, const Matrix& A,
                             const Matrix& P, Matrix& C) {
  triple_product_symbolic(typename Matrix::execution_space(), handle, A, P, C);
}

/// Numeric phase of C = Pᵀ·A·P (values only; the patterns of the symbolic phase).
/// @throws InvalidState before the symbolic phase or for changed patterns (as spgemm_numeric)
template <class Matrix>
void triple_product_numeric(const typename Matrix::execution_space& exec,
                            TripleProductHandle<Matrix>& handle, const Matrix& A,
                            const Matrix& P, Matrix& C) {
  KELP_REQUIRE(handle.has_symbolic(), InvalidState,
               "kelp::kernels::triple_product_numeric: called before triple_product_symbolic");
  spgemm_numeric(exec, handle.ap_handle(), A, P, handle.ap());
  // Pᵀ's values follow P's; its pattern (sorted rows) is the one the second handle saw.
  handle.restriction() = transpose(exec, P);
  spgemm_numeric(exec, handle.rap_handle(), handle.restriction(), handle.ap(), C);
}

template <class Matrix>
void triple_product_numeric(TripleProductHandle<Matrix>& handle, const Matrix& A,
                            const Matrix& P, Matrix& C) {
  triple_product_numeric(typename Matrix::execution_space(), handle, A, P, C);
}

#define KELP_TRIPLE_PRODUCT_ETI(PREFIX, S)                                                  \
  PREFIX template void triple_product_symbolic<CrsMatrix<S>>(                               \
      const CrsMatrix<S>::execution_space&,                                                 \
      TripleProductHandle<CrsMatrix<S>>&, const CrsMatrix<S>&, const CrsMatrix<S>&,         \
      CrsMatrix<S>&);                                                                       \
  PREFIX template void triple_product_numeric<CrsMatrix<S>>(                                \
      const CrsMatrix<S>::execution_space&,                                                 \
      TripleProductHandle<CrsMatrix<S>>&, const CrsMatrix<S>&, const CrsMatrix<S>&,         \
      CrsMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_TRIPLE_PRODUCT_ETI, extern)

}  // namespace kelp::kernels
