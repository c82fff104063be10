#pragma once
/// All BLAS-1 and multi-vector kernels.
#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/blas1/norms.hpp"
