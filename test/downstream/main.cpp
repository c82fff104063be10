// Downstream use of an installed Kelp: assemble a matrix from triplets, precondition with
// Jacobi, solve with CG, and check the true residual. Exit code 0 only when it converged.
#include <cstdio>
#include <memory>
#include <vector>

#include <kelp/kelp.hpp>

int main(int argc, char** argv) {
  kelp::ScopeGuard kokkos(argc, argv);  // Kokkos is not running yet: Kelp starts and stops it
  using Matrix = kelp::CrsMatrix<double>;

  // 1D Poisson -u'' = 1 on 200 points, assembled as a PDE code would: one triplet at a time.
  const int n = 200;
  std::vector<kelp::Ordinal> rows, cols;
  std::vector<double> values;
  for (int i = 0; i < n; ++i) {
    for (int j : {i - 1, i, i + 1}) {
      if (j < 0 || j >= n) continue;
      rows.push_back(i);
      cols.push_back(j);
      values.push_back(i == j ? 2.0 : -1.0);
    }
  }
  const Matrix A = kelp::crs_from_coo<double>(n, n, rows, cols, values);

  auto jacobi = std::make_shared<kelp::precond::Jacobi<Matrix>>();
  jacobi->setup(A);
  kelp::solvers::Cg<double> cg(std::make_shared<kelp::MatrixOperator<Matrix>>(A), jacobi, {});
  kelp::VectorView<double> b("b", n), x("x", n), r("r", n);
  Kokkos::deep_copy(b, 1.0);
  const auto result = cg.solve(b, x);

  Kokkos::deep_copy(r, b);
  kelp::kernels::spmv(-1.0, A, x, 1.0, r);  // r = b - A x, checked here, not by the solver
  const double relative = kelp::kernels::nrm2(r) / kelp::kernels::nrm2(b);
  std::printf("downstream: %s after %d iterations, true relative residual %.3e\n",
              kelp::solvers::to_string(result.reason).c_str(), result.iterations, relative);
  return result.converged() && relative <= 1e-8 ? 0 : 1;
}
