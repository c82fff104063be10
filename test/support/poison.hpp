#pragma once
// Fills outputs with NaN before a kernel writes them, so kernels that read uninitialised
// memory or assume zeros are caught.
#include <limits>

#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::test {

template <class Scalar>
Scalar nan_scalar() {
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  const Mag nan = std::numeric_limits<Mag>::quiet_NaN();
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    return Scalar(nan, nan);
  } else {
    return nan;
  }
}

template <class View>
void poison(const View& v) {
  Kokkos::deep_copy(v, nan_scalar<typename View::non_const_value_type>());
}

}  // namespace kelp::test
