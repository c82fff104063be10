#pragma once
/// All BLAS-1 and multi-vector kernels, each also with an execution-space instance first
/// (kernels/core/execution_space.hpp).
#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/blas1/axpby_columns.hpp"
#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/blas1/gram.hpp"
#include "kelp/kernels/blas1/norms.hpp"
