#pragma once
/// Umbrella header: what a downstream code needs to assemble a matrix, precondition it with the
/// point preconditioners (Jacobi, Chebyshev, Gauss-Seidel through Eisenstat CG) and solve with the
/// Krylov solvers.  #include <kelp/kelp.hpp>  and link Kelp::kelp. The heavier components have
/// their own headers, so that a code compiles only what it uses: block Jacobi
/// (kelp/precond/block_jacobi/block_jacobi.hpp), Gauss-Seidel (kelp/precond/gauss_seidel/
/// gauss_seidel.hpp), stationary solves (kelp/solvers/stationary/stationary.hpp), LOBPCG
/// (kelp/solvers/lobpcg/lobpcg.hpp), KPM (kelp/solvers/kpm/kpm.hpp), the graph and sparse
/// kernels (kelp/kernels/graph.hpp, kelp/kernels/spgemm/spgemm.hpp).
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/crs_validate.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/function_operator.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/row_operator.hpp"
#include "kelp/kernels/core/scope_guard.hpp"
#include "kelp/kernels/core/sum_into_values.hpp"
#include "kelp/kernels/core/wrap_crs.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/precond/chebyshev/chebyshev.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/precond/relaxation_smoother.hpp"
#include "kelp/solvers/bicgstab/bicgstab.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/cg/eisenstat_cg.hpp"
#include "kelp/solvers/cg/cg_single_reduction.hpp"
#include "kelp/solvers/cg/flexible_cg.hpp"
#include "kelp/solvers/gmres/gmres.hpp"
#include "kelp/solvers/null_space.hpp"
#include "kelp/solvers/stopping.hpp"
