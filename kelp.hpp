#pragma once
/// Umbrella header: everything a downstream code needs to assemble a matrix, precondition and
/// solve.  #include <kelp.hpp>  and link Kelp::kelp.
#include "kernels/blas1.hpp"
#include "kernels/core/crs_from_coo.hpp"
#include "kernels/core/crs_matrix.hpp"
#include "kernels/core/crs_validate.hpp"
#include "kernels/core/diagonal.hpp"
#include "kernels/core/error.hpp"
#include "kernels/core/operator.hpp"
#include "kernels/generators/generators.hpp"
#include "kernels/io/matrix_market.hpp"
#include "kernels/spmv/matrix_operator.hpp"
#include "kernels/spmv/spmv.hpp"
#include "precond/identity.hpp"
#include "precond/jacobi/jacobi.hpp"
#include "solvers/cg/cg.hpp"
