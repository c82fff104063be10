#pragma once
/// readonly_load(p): *p through the GPU's read-only data path (ld.global.nc) in CUDA device
/// code, a plain load elsewhere. For data that no thread writes while the kernel runs (a
/// matrix, the input block of a product): the compiler cannot prove that for views that might
/// alias an output, so it would otherwise keep these loads in program order with the kernel's
/// stores and on the coherent path.

#include <Kokkos_Core.hpp>
#include <type_traits>

namespace kelp::impl {

template <class T>
KOKKOS_FORCEINLINE_FUNCTION T readonly_load(const T* p) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<T, double>::value || std::is_same<T, float>::value ||
                std::is_same<T, int>::value || std::is_same<T, long long>::value) {
    return __ldg(p);
  } else if constexpr (std::is_same<T, Kokkos::complex<double>>::value) {
    const double2 d = __ldg(reinterpret_cast<const double2*>(p));  // complex<double> is 16-aligned
    return T(d.x, d.y);
  } else if constexpr (std::is_same<T, Kokkos::complex<float>>::value) {
    const float2 f = __ldg(reinterpret_cast<const float2*>(p));
    return T(f.x, f.y);
  } else if constexpr (std::is_integral<T>::value && sizeof(T) == 8) {
    return static_cast<T>(__ldg(reinterpret_cast<const long long*>(p)));
  } else if constexpr (std::is_integral<T>::value && sizeof(T) == 4) {
    return static_cast<T>(__ldg(reinterpret_cast<const int*>(p)));
  } else {
    return *p;
  }
#else
  return *p;
#endif
}

}  // namespace kelp::impl
