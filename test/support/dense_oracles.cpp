// Eigen's dense decompositions behind test/support/dense_oracles.hpp: the only test source that
// includes Eigen's LU, QR and eigenvalue modules, compiled once per build.
#include "test/support/dense_oracles.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

namespace kelp::test {

template <class T>
DenseMatrix<T> partial_piv_lu_factors(const DenseMatrix<T>& A) {
  return A.partialPivLu().matrixLU();
}

template <class T>
DenseVector<T> partial_piv_lu_solve(const DenseMatrix<T>& A, const DenseVector<T>& b) {
  return A.partialPivLu().solve(b);
}

template <class T>
DenseVector<T> full_piv_lu_solve(const DenseMatrix<T>& A, const DenseVector<T>& b) {
  return A.fullPivLu().solve(b);
}

template <class T>
DenseMatrix<T> householder_q(const DenseMatrix<T>& A) {
  return A.householderQr().householderQ();
}

#define KELP_DENSE_ORACLES_INSTANTIATE(T)                                                         \
  template DenseMatrix<T> partial_piv_lu_factors<T>(const DenseMatrix<T>&);                      \
  template DenseVector<T> partial_piv_lu_solve<T>(const DenseMatrix<T>&, const DenseVector<T>&); \
  template DenseVector<T> full_piv_lu_solve<T>(const DenseMatrix<T>&, const DenseVector<T>&);    \
  template DenseMatrix<T> householder_q<T>(const DenseMatrix<T>&);
KELP_DENSE_ORACLES_INSTANTIATE(float)
KELP_DENSE_ORACLES_INSTANTIATE(double)
KELP_DENSE_ORACLES_INSTANTIATE(std::complex<double>)
#undef KELP_DENSE_ORACLES_INSTANTIATE

Eigen::VectorXd self_adjoint_eigenvalues(const Eigen::MatrixXd& A) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues();
}

Eigen::VectorXd self_adjoint_eigenvalues(const Eigen::MatrixXcd& A) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd>(A, Eigen::EigenvaluesOnly).eigenvalues();
}

Eigen::VectorXd generalized_self_adjoint_eigenvalues(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(A, B, Eigen::EigenvaluesOnly | Eigen::Ax_lBx)
      .eigenvalues();
}

}  // namespace kelp::test
