#pragma once
/// Eigen's dense decompositions as test oracles, compiled once in dense_oracles.cpp.
///
/// Why not call Eigen inline: a decomposition instantiated in a typed test costs every test
/// program that includes it, once per scalar type, in every build. Under nvcc it costs three
/// front ends (cudafe++, cicc and the host compiler); HouseholderQR alone was 25 of batched_lu_test's
/// 44 s (docs/conventions.md §13). dense_oracles.cpp is plain host code: CUDA builds compile it
/// with the host compiler only (test/CMakeLists.txt). This header needs only Eigen/Core.
#include <Eigen/Core>
#include <complex>

namespace kelp::test {

template <class T>
using DenseMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using DenseVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// T is float, double or std::complex<double> (explicitly instantiated in dense_oracles.cpp).

/// The packed L\U factors of A's partial-pivoting LU (Eigen's PartialPivLU::matrixLU()).
template <class T>
DenseMatrix<T> partial_piv_lu_factors(const DenseMatrix<T>& A);

/// A^{-1} b by partial-pivoting LU (A square and invertible).
template <class T>
DenseVector<T> partial_piv_lu_solve(const DenseMatrix<T>& A, const DenseVector<T>& b);

/// A^{-1} b by full-pivoting LU, the most robust of Eigen's LU solves.
template <class T>
DenseVector<T> full_piv_lu_solve(const DenseMatrix<T>& A, const DenseVector<T>& b);

/// The unitary factor Q of A = Q R (Householder QR of a square A).
template <class T>
DenseMatrix<T> householder_q(const DenseMatrix<T>& A);

/// Eigenvalues of a symmetric (Hermitian) matrix, ascending; only A's lower triangle is read.
Eigen::VectorXd self_adjoint_eigenvalues(const Eigen::MatrixXd& A);
Eigen::VectorXd self_adjoint_eigenvalues(const Eigen::MatrixXcd& A);

/// Eigenvalues of A x = lambda B x (A symmetric, B symmetric positive definite), ascending.
Eigen::VectorXd generalized_self_adjoint_eigenvalues(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

}  // namespace kelp::test
