#pragma once
/// Uniform arithmetic on real and complex scalars, usable in device code.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <limits>
#include <type_traits>

namespace kelp {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<Kokkos::complex<T>> : std::true_type {};

/// ScalarTraits<S>: magnitude type, conjugate, modulus and finiteness for S in
/// {float, double, Kokkos::complex<float>, Kokkos::complex<double>}.
template <class Scalar>
struct ScalarTraits {
  static_assert(std::is_floating_point<Scalar>::value,
                "ScalarTraits: Scalar must be float, double or Kokkos::complex");
  using magnitude_type = Scalar;
  static constexpr bool is_complex = false;
  KOKKOS_INLINE_FUNCTION static Scalar conj(Scalar x) { return x; }
  KOKKOS_INLINE_FUNCTION static Scalar real(Scalar x) { return x; }
  KOKKOS_INLINE_FUNCTION static Scalar imag(Scalar) { return Scalar(0); }
  KOKKOS_INLINE_FUNCTION static magnitude_type abs(Scalar x) { return x < 0 ? -x : x; }
  KOKKOS_INLINE_FUNCTION static magnitude_type abs2(Scalar x) { return x * x; }
  KOKKOS_INLINE_FUNCTION static bool is_finite(Scalar x) {
    return x - x == Scalar(0);  // false for inf and NaN; fast-math safe enough and device-safe
  }
  static const char* name() { return std::is_same<Scalar, float>::value ? "float" : "double"; }
};

template <class Real>
struct ScalarTraits<Kokkos::complex<Real>> {
  using Scalar = Kokkos::complex<Real>;
  using magnitude_type = Real;
  static constexpr bool is_complex = true;
  KOKKOS_INLINE_FUNCTION static Scalar conj(Scalar x) { return Scalar(x.real(), -x.imag()); }
  KOKKOS_INLINE_FUNCTION static Real real(Scalar x) { return x.real(); }
  KOKKOS_INLINE_FUNCTION static Real imag(Scalar x) { return x.imag(); }
  /// |x| scaled by the larger part, as hypot: re^2 + im^2 itself underflows to 0 below about
  /// 1e-154 and overflows above 1e154 (in double), which made a batched LU call a complex
  /// matrix scaled by 1e-170 singular. inf and NaN parts give inf or NaN.
  KOKKOS_INLINE_FUNCTION static Real abs(Scalar x) {
    const Real a = x.real() < 0 ? -x.real() : x.real();
    const Real b = x.imag() < 0 ? -x.imag() : x.imag();
    const Real big = a > b ? a : b, small = a > b ? b : a;
    if (!(big > 0) || big - big != Real(0)) return a + b;  // zero, inf or NaN
    const Real ratio = small / big;
    return big * Kokkos::Experimental::sqrt(Real(1) + ratio * ratio);
  }
  KOKKOS_INLINE_FUNCTION static Real abs2(Scalar x) {
    return x.real() * x.real() + x.imag() * x.imag();
  }
  KOKKOS_INLINE_FUNCTION static bool is_finite(Scalar x) {
    return ScalarTraits<Real>::is_finite(x.real()) && ScalarTraits<Real>::is_finite(x.imag());
  }
  static const char* name() {
    return std::is_same<Real, float>::value ? "complex<float>" : "complex<double>";
  }
};

}  // namespace kelp
