#pragma once
/// The test of one entry of the Hermitian check and its messages, shared by check_hermitian (a
/// CrsMatrix, kpm.hpp) and dist::check_hermitian (each rank's rows against the conjugate
/// transposed entries it receives, distributed/check_hermitian.hpp): both name the same first
/// offending entry in the same words. Host code.

#include <cmath>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

/// Throws InvalidArgument, "where: ...", when a_ij (0-based i, j) is not finite or too large for
/// double arithmetic (tolerance not finite), or when |a_ij - conj(a_ji)| > tolerance
/// (aji_conj = conj(a_ji), 0 for a missing entry). largest: the largest entry modulus of H.
template <class Scalar>
void require_hermitian_entry(const char* where, long long i, long long j, const Scalar& aij,
                             const Scalar& aji_conj, double largest, double tolerance) {
  using T = ScalarTraits<Scalar>;
  // An entry too large for double arithmetic (hopping or disorder near 1e308) is named as such:
  // the symmetry test below would call it "not Hermitian" with an infinite tolerance.
  KELP_REQUIRE(std::isfinite(T::abs(aij)) && std::isfinite(tolerance), InvalidArgument,
               where << ": a(" << i << ", " << j << ") = (" << T::real(aij) << ", " << T::imag(aij)
                     << ") (0-based; largest entry modulus " << largest
                     << ") is not finite or too large for double arithmetic");
  KELP_REQUIRE(T::abs(aij - aji_conj) <= tolerance, InvalidArgument,
               where << ": H is not Hermitian: a(" << i << ", " << j << ") = (" << T::real(aij) << ", "
                     << T::imag(aij) << ") but conj(a(" << j << ", " << i << ")) = (" << T::real(aji_conj)
                     << ", " << T::imag(aji_conj) << ") (0-based indices; a missing entry is 0; tolerance "
                     << tolerance << ")");
}

}  // namespace kelp::solvers::impl
