#pragma once
/// Umbrella header: everything a downstream code needs to assemble a matrix, precondition and
/// solve.  #include <kelp/kelp.hpp>  and link Kelp::kelp.
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/crs_validate.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/function_operator.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/row_operator.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
