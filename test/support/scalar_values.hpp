#pragma once
// Test values of any Scalar from a real and an imaginary part.

#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::test {

/// Real Scalar: re; complex Scalar: re + i im (so that a conjugated alpha or beta shows).
template <class Scalar>
Scalar scalar_of(double re, double im) {
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    return Scalar(re, im);
  } else {
    return static_cast<Scalar>(re);
  }
}

}  // namespace kelp::test
