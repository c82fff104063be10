#pragma once
/// Device functors of the KPM: start vectors and the augmented SpMV / blocked SpMMV.
/// Included only by solvers/kpm/impl/kpm_impl.hpp (compiled in solvers/eti/kpm_*.cpp).

#include <cstdint>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

/// splitmix64 finaliser: a counter-based hash, so that a start vector entry depends only on
/// (seed, row, vector) and never on threads, blocks or the backend.
KOKKOS_INLINE_FUNCTION std::uint64_t kpm_mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

KOKKOS_INLINE_FUNCTION std::uint64_t kpm_hash(std::uint64_t seed, std::uint64_t row,
                                              std::uint64_t vector) {
  return kpm_mix(kpm_mix(kpm_mix(seed) ^ row) ^ (vector * 0xD6E8FEB86659FD93ULL));
}

/// Sets the fields every KPM step functor has: the matrix H (row_map, entries, values) and the
/// recurrence coefficients alpha, beta, gamma of its step.
template <class Functor, class Matrix>
void set_step_fields(Functor& f, const Matrix& H, double alpha, double beta, double gamma) {
  f.row_map = H.row_map();
  f.entries = H.entries();
  f.values = H.values();
  f.alpha = alpha;
  f.beta = beta;
  f.gamma = gamma;
}

/// V(i, c) = start vector first + c at row i: e_{first + c} (exact trace), +-1 (Rademacher) or
/// exp(i phi) (random phase). With global_row set (a distributed block: this rank's rows), row i
/// of V is row global_row(i) of the global vectors, so every rank count draws the same vectors.
template <class Scalar, class VView>
struct KpmStartVectors {
  VView V;
  std::uint64_t seed;
  long long first;
  int mode;  // 0 basis vectors, 1 Rademacher, 2 random phase
  Kokkos::View<const long long*, typename VView::memory_space> global_row = {};  // empty: row i is i
  KOKKOS_INLINE_FUNCTION void operator()(const long long local) const {
    const long long i = global_row.extent(0) > 0 ? global_row(local) : local;
    const long long k = static_cast<long long>(V.extent(1));
    for (long long c = 0; c < k; ++c) {
      const long long vector = first + c;
      if (mode == 0) {
        V(local, c) = Scalar(i == vector ? 1.0 : 0.0);
        continue;
      }
      const std::uint64_t h = kpm_hash(seed, static_cast<std::uint64_t>(i),
                                       static_cast<std::uint64_t>(vector));
      if constexpr (ScalarTraits<Scalar>::is_complex) {
        if (mode == 2) {
          const double phi = 6.283185307179586 * static_cast<double>(h >> 11) * 0x1.0p-53;
          V(local, c) = Scalar(Kokkos::Experimental::cos(phi), Kokkos::Experimental::sin(phi));
          continue;
        }
      }
      V(local, c) = Scalar((h >> 63) ? -1.0 : 1.0);
    }
  }
};

/// Re(conj(a) b) without forming the complex product.
template <class Scalar>
KOKKOS_INLINE_FUNCTION double kpm_real_dot(const Scalar& a, const Scalar& b) {
  return ScalarTraits<Scalar>::real(a) * ScalarTraits<Scalar>::real(b) +
         ScalarTraits<Scalar>::imag(a) * ScalarTraits<Scalar>::imag(b);
}

/// The augmented SpMV of one vector (paper Fig. 4), in one pass over H, v and w:
///   w <- alpha H v + beta v - gamma w,   sums = (<v|v>, Re <w|v>)
/// with alpha = 2/half_width, beta = -2 center/half_width, gamma = 1 for the recurrence (alpha and
/// beta halved and gamma = 0 for v_1 = H~ v_0, which does not read w).
/// Traffic per row: N_nzr (S_d + S_i) + 3 S_d (v(i) and w(i) read, w(i) written; x gathers cached).
template <class Matrix, class VView, class WView>
struct KpmAugmentedSpmv {
  using Scalar = typename Matrix::scalar_type;
  using value_type = double[];
  using size_type = std::size_t;
  size_type value_count = 2;
  typename Matrix::row_map_type::const_type row_map;
  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  VView v;
  WView w;
  double alpha, beta, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sums) const {
    Scalar hv(0);
    for (auto k = row_map(i); k < row_map(i + 1); ++k) hv += values(k) * v(entries(k));
    const Scalar vi = v(i);
    Scalar wi = alpha * hv + beta * vi;
    if (gamma != 0.0) wi -= gamma * w(i);  // gamma = 0: w may hold garbage (first step)
    w(i) = wi;
    sums[0] += kpm_real_dot(vi, vi);
    sums[1] += kpm_real_dot(wi, vi);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sums) const {
    for (size_type j = 0; j < value_count; ++j) sums[j] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};

/// The blocked augmented SpMMV (paper Fig. 5) on R vectors stored row-major (n x R, LayoutRight):
///   W <- alpha H V + beta V - gamma W,   sums[2c] = <V_c|V_c>, sums[2c+1] = Re <W_c|V_c>
/// H is read once for all R vectors; each row's R outputs accumulate in W(i, :) (contiguous, in
/// L1), and the inner loop over the R columns runs over contiguous memory (SIMD on CPUs).
/// Traffic per row: N_nzr (S_d + S_i) + 3 R S_d; the 2R dots are reduced on the fly.
template <class Matrix, class VView, class WView>
struct KpmBlockedAugmentedSpmmv {
  using Scalar = typename Matrix::scalar_type;
  using value_type = double[];
  using size_type = std::size_t;
  size_type value_count;  // 2R
  typename Matrix::row_map_type::const_type row_map;
  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  VView V;
  WView W;
  double alpha, beta, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sums) const {
    const size_type num_vectors = V.extent(1);
    if (gamma != 0.0) {
      for (size_type c = 0; c < num_vectors; ++c) W(i, c) = beta * V(i, c) - gamma * W(i, c);
    } else {
      for (size_type c = 0; c < num_vectors; ++c) W(i, c) = beta * V(i, c);
    }
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const Scalar a = alpha * values(k);
      const auto j = entries(k);
      for (size_type c = 0; c < num_vectors; ++c) W(i, c) += a * V(j, c);
    }
    for (size_type c = 0; c < num_vectors; ++c) {
      const Scalar vi = V(i, c);
      sums[2 * c] += kpm_real_dot(vi, vi);
      sums[2 * c + 1] += kpm_real_dot(W(i, c), vi);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sums) const {
    for (size_type j = 0; j < value_count; ++j) sums[j] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};


/// The update half of the blocked KPM step when the product Y = H V comes from elsewhere (a
/// distributed SpMMV: one halo exchange for all R vectors):
///   W <- alpha Y + beta V - gamma W,   sums[2c] = <V_c|V_c>, sums[2c+1] = Re <W_c|V_c>
/// in one pass over the rows; the 2R dots are this caller's rows only (reduced by the caller).
template <class YView, class VView, class WView>
struct KpmBlockedUpdate {
  using Scalar = typename VView::non_const_value_type;
  using value_type = double[];
  using size_type = std::size_t;
  size_type value_count;  // 2R
  YView Y;
  VView V;
  WView W;
  double alpha, beta, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sums) const {
    const size_type num_vectors = V.extent(1);
    for (size_type c = 0; c < num_vectors; ++c) {
      const Scalar vi = V(i, c);
      const Scalar wi = gamma != 0.0 ? Scalar(alpha * Y(i, c) + beta * vi - gamma * W(i, c))
                                     : Scalar(alpha * Y(i, c) + beta * vi);
      W(i, c) = wi;
      sums[2 * c] += kpm_real_dot(vi, vi);
      sums[2 * c + 1] += kpm_real_dot(wi, vi);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sums) const {
    for (size_type j = 0; j < value_count; ++j) sums[j] = 0.0;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};

}  // namespace kelp::solvers::impl
