#pragma once
/// The Kernel Polynomial Method (KPM) for densities of states of Hermitian sparse matrices.
///
/// Chebyshev moments mu_m = <r|T_m(H~)|r> of the scaled Hamiltonian H~ = (H - center)/half_width
/// by the recurrence v_0 = r, v_1 = H~ v_0, v_{m+1} = 2 H~ v_m - v_{m-1}, two moments per product:
///   mu_{2m} = 2 <v_m|v_m> - mu_0,   mu_{2m+1} = 2 Re <v_{m+1}|v_m> - mu_1.
/// Three implementations give the same moments (KpmImplementation): naive (SpMV + BLAS-1),
/// augmented (one fused kernel per vector), blocked (the fused kernel on row-major blocks of R
/// vectors: the matrix is read once per block and the 2R dots are reduced on the fly).
/// Memory traffic per product and vector (S_d scalar, S_i index bytes, N_nzr nonzeros per row):
///   naive ~ N_nzr (S_d + S_i) + 13 S_d,  augmented ~ N_nzr (S_d + S_i) + 3 S_d,
///   blocked ~ N_nzr (S_d + S_i) / R + 3 S_d   (per row; Kreutzer et al., Eq. 4).
/// Compiled for CrsMatrix<double> and CrsMatrix<Kokkos::complex<double>> (solvers/eti/kpm_*.cpp).
///
/// Example:
///   solvers::KpmParams params;            // 256 moments, 8 Rademacher vectors, Jackson
///   const auto result = solvers::kpm_dos(H, params, energies);   // result.density[k] = rho(E_k)

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/solvers/kpm/kpm_dos.hpp"
#include "kelp/solvers/kpm/kpm_params.hpp"

namespace kelp::solvers {

/// Per-vector raw moments: values[r * num_moments + m] = <r|T_m(H~)|r> (unnormalised).
struct KpmMoments {
  int num_moments = 0;
  int num_vectors = 0;
  std::vector<double> values;
  double at(int vector, int moment) const {
    return values[static_cast<std::size_t>(vector) * num_moments + moment];
  }
  /// Trace estimate normalised to mu_0 = 1: sum_r mu_m(r) / sum_r mu_0(r).
  std::vector<double> normalised() const;
};

/// Gershgorin bounds: [min_i (Re a_ii - R_i), max_i (Re a_ii + R_i)], R_i = sum_{j != i} |a_ij|.
/// A 0 x 0 matrix gives [0, 0].
template <class Scalar>
SpectralBounds gershgorin_bounds(const CrsMatrix<Scalar>& H);

/// Bounds from min(steps, n) Lanczos steps from a random start vector (seed), reorthogonalized
/// and restarted after a breakdown (kpm_lanczos_bounds, kpm_lanczos.hpp): [theta_min - |beta|,
/// theta_max + |beta|] with the extreme Ritz values theta and the last off-diagonal beta,
/// intersected with the Gershgorin bounds (never looser than those); the extreme eigenvalues
/// when steps >= n. Cost: `steps` SpMVs and O(steps^2 n) reorthogonalization; `steps` vectors.
/// @throws InvalidArgument for steps < 1
template <class Scalar>
SpectralBounds lanczos_bounds(const CrsMatrix<Scalar>& H, int steps, std::uint64_t seed);

/// Throws InvalidArgument when H is not square or not Hermitian: names the first offending entry
/// (i, j) with a_ij and conj(a_ji) (a missing entry counts as 0); a diagonal entry with an
/// imaginary part is offending too. Tolerance relative to the largest |a_ij|. Host check: O(nnz
/// * row length).
template <class Scalar>
void check_hermitian(const CrsMatrix<Scalar>& H, double relative_tolerance);

/// Fills the n x k block V (row-major) with start vectors k = first_vector .. first_vector+k-1:
/// random (Rademacher or random phase, a hash of (seed, row, vector), independent of threads and
/// blocks) for the stochastic trace, or the basis vectors e_{first_vector + c} for the exact trace.
/// @throws InvalidArgument for random_phase with a real Scalar
/// row_of (optional, one entry per row of V): row i of V gets the entries of row row_of(i), so
/// that the start vectors of a permuted H (kpm_locality_ordered) are those of H, permuted alike.
template <class Scalar>
void kpm_start_vectors(const MultiVectorView<Scalar, Kokkos::LayoutRight>& V, KpmTrace trace,
                       KpmRandomVector kind, std::uint64_t seed, long long first_vector,
                       const Kokkos::View<const long long*, typename CrsMatrix<Scalar>::memory_space>& row_of = {});

/// H renumbered into the locality order (KpmRowOrder::locality) and that order.
template <class Scalar>
struct KpmOrderedHamiltonian {
  CrsMatrix<Scalar> H;  ///< P H P^T
  /// old_of_new(i): the row of the given H that is row i here (kpm_start_vectors' row_of).
  Kokkos::View<long long*, typename CrsMatrix<Scalar>::memory_space> old_of_new;
};

/// P H P^T for the order kernels::locality_order(H, part_rows) (part_rows 0: automatic), with
/// that order. The moments of H with start vectors V equal those of P H P^T with P V (made by
/// kpm_start_vectors with row_of = old_of_new) up to rounding. Host work, O(nnz log row length).
/// @throws DimensionMismatch when H is not square, InvalidArgument for part_rows < 0
template <class Scalar>
KpmOrderedHamiltonian<Scalar> kpm_locality_ordered(const CrsMatrix<Scalar>& H, int block_width,
                                                   long long part_rows = 0);

/// Rows per part of the automatic locality order for blocks of block_width vectors: parts
/// whose block rows of V take about 16 MiB on GPUs (an H100's L2 holds 50 MB, shared with the
/// streams of H and W), 1 MiB on host spaces (about a core's L2); at least 64 rows.
template <class Scalar>
long long kpm_locality_part_rows(int block_width);

/// Raw moments of the start vectors (columns of the n x R row-major block `start`), with the
/// chosen implementation (block_size vectors per block for `blocked`, run by `blocked_kernel`:
/// by default the team kernel on GPUs and the row kernel on host spaces).
/// @throws DimensionMismatch when start does not have H's rows; InvalidArgument for num_moments
///         < 2 or block_size < 1; NumericalError when a moment grows past |mu_0|(1 + tolerance)
///         (the scaling does not enclose the spectrum) or is not finite.
template <class Scalar>
KpmMoments kpm_moments(const CrsMatrix<Scalar>& H, const KpmScaling& scaling,
                       const ConstMultiVectorView<typename CrsMatrix<Scalar>::scalar_type,
                                                  Kokkos::LayoutRight>& start,
                       int num_moments, KpmImplementation implementation, int block_size,
                       double growth_tolerance,
                       KpmBlockedKernel blocked_kernel = KpmBlockedKernel::automatic);

/// Density of states and what produced it.
struct KpmDosResult {
  std::vector<double> energies;
  std::vector<double> density;        ///< rho(E_k), integral 1 over the spectrum
  std::vector<double> density_error;  ///< stochastic standard error (0 for the exact trace)
  std::vector<double> moments;        ///< normalised, undamped mu_m
  SpectralBounds bounds;              ///< before the safety margin
  KpmScaling scaling;
  int num_vectors = 0;                ///< vectors used (N for the exact trace)
  long long num_products = 0;         ///< matrix-vector products (per vector: M/2 rounded up)
  double moments_seconds = 0;         ///< wall time of the moment computation
};

/// The KPM density of states of the Hermitian matrix H on the given energies (original units).
/// Checks H (check_hermitian), finds the bounds (params.bounds), scales with params.safety_margin,
/// computes the moments (stochastic or exact trace) and the damped density.
/// @throws InvalidArgument for bad params, a non-Hermitian H, an empty matrix or an empty energy
///         grid; NumericalError when the bounds do not enclose the spectrum.
/// @param[in] bounds  the spectral bounds when the caller has found them already the way
///                    params.bounds says (the dos task needs them for its default grid): Lanczos
///                    with reorthogonalization costs O(steps^2 n), so it runs once, not twice
template <class Scalar>
KpmDosResult kpm_dos(const CrsMatrix<Scalar>& H, const KpmParams& params,
                     const std::vector<double>& energies,
                     const std::optional<SpectralBounds>& bounds = std::nullopt);

/// The density part of kpm_dos from the raw moments of all vectors: result.moments (normalised),
/// result.density and result.density_error on result.energies with result.scaling (both set by
/// the caller). Shared by kpm_dos and the distributed dos task (whose moments are reduced over
/// the ranks first). Host code.
/// @throws InvalidArgument when sum_r mu_0(r) <= 0
void kpm_density_of_moments(const KpmMoments& all, const KpmParams& params, KpmDosResult& result);

/// Flops of one scaled product with its recurrence update and two dots, per vector (the
/// paper's count: N_nz (F_a + F_m) + N (ceil(7 F_a / 2) + ceil(9 F_m / 2)); F_a = 1 or 2, F_m = 1 or 6).
double kpm_flops_per_product(long long num_rows, long long nnz, bool is_complex);

namespace impl {
/// One step of the blocked implementation, as kpm_moments takes it: W <- alpha H V + beta V -
/// gamma W on the row-major blocks V, W (n x R), and sums[2c] = <V_c|V_c>, sums[2c + 1] =
/// Re <W_c|V_c>, by the team kernel (`team`) or the row kernel. gamma = 0 does not read W (the
/// first step: kpm_moments does not initialise W). For tests; kpm_moments calls the kernels
/// directly.
template <class Scalar>
void kpm_blocked_step(const CrsMatrix<Scalar>& H, const MultiVectorView<Scalar, Kokkos::LayoutRight>& V,
                      const MultiVectorView<Scalar, Kokkos::LayoutRight>& W, double alpha, double beta,
                      double gamma, bool team, double* sums);
}  // namespace impl

#define KELP_KPM_ETI(PREFIX, SCALAR)                                                              \
  PREFIX template SpectralBounds gershgorin_bounds(const CrsMatrix<SCALAR>&);                     \
  PREFIX template SpectralBounds lanczos_bounds(const CrsMatrix<SCALAR>&, int, std::uint64_t);   \
  PREFIX template void check_hermitian(const CrsMatrix<SCALAR>&, double);                        \
  PREFIX template void kpm_start_vectors(                                                         \
      const MultiVectorView<SCALAR, Kokkos::LayoutRight>&, KpmTrace, KpmRandomVector, std::uint64_t, \
      long long, const Kokkos::View<const long long*, typename CrsMatrix<SCALAR>::memory_space>&); \
  PREFIX template KpmOrderedHamiltonian<SCALAR> kpm_locality_ordered(const CrsMatrix<SCALAR>&, int,  \
                                                                     long long);                   \
  PREFIX template long long kpm_locality_part_rows<SCALAR>(int);                                     \
  PREFIX template KpmMoments kpm_moments(const CrsMatrix<SCALAR>&, const KpmScaling&,             \
                                         const ConstMultiVectorView<SCALAR, Kokkos::LayoutRight>&, \
                                         int, KpmImplementation, int, double, KpmBlockedKernel);  \
  PREFIX template KpmDosResult kpm_dos(const CrsMatrix<SCALAR>&, const KpmParams&,               \
                                       const std::vector<double>&,                                \
                                       const std::optional<SpectralBounds>&);                     \
  PREFIX template void impl::kpm_blocked_step(                                                     \
      const CrsMatrix<SCALAR>&, const MultiVectorView<SCALAR, Kokkos::LayoutRight>&,               \
      const MultiVectorView<SCALAR, Kokkos::LayoutRight>&, double, double, double, bool, double*);
KELP_KPM_ETI(extern, double)
KELP_KPM_ETI(extern, Kokkos::complex<double>)

}  // namespace kelp::solvers
