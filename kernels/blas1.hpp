#pragma once
/// All BLAS-1 and multi-vector kernels.
#include "kernels/blas1/axpby.hpp"
#include "kernels/blas1/dot.hpp"
#include "kernels/blas1/norms.hpp"
