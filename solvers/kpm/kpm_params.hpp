#pragma once
/// Parameters of the Kernel Polynomial Method (KPM) for densities of states, and the scaling of
/// the Hamiltonian into [-1, 1].
///
/// Reference: A. Weisse, G. Wellein, A. Alvermann, H. Fehske, "The kernel polynomial method",
/// Rev. Mod. Phys. 78, 275 (2006); M. Kreutzer et al., "Performance engineering of the kernel
/// polynomial method on large-scale CPU-GPU systems", IPDPS 2015 (the naive / augmented / blocked
/// augmented kernels).

#include <cstdint>
#include <string>

namespace kelp::solvers {

/// How the Chebyshev recurrence is executed (all give the same moments up to rounding).
enum class KpmImplementation {
  naive,      ///< SpMV, then axpby/scal and two dots as separate kernels (paper Fig. 3)
  augmented,  ///< one fused kernel per vector: product, recurrence update and both dots (Fig. 4)
  blocked     ///< the fused kernel on row-major blocks of block_size vectors (Fig. 5)
};

/// Start vectors of the stochastic trace.
enum class KpmRandomVector {
  rademacher,   ///< entries +1 or -1
  random_phase  ///< entries exp(i phi), phi uniform in [0, 2 pi) (complex Hamiltonians only)
};

/// Trace estimator: random vectors, or every basis vector (exact, cost N products per moment pair).
enum class KpmTrace { stochastic, exact };

/// Damping kernel g_m applied to the moments (suppresses Gibbs oscillations).
enum class KpmDampingKernel {
  jackson,  ///< positive, resolution ~ pi/M; the default for densities of states
  lorentz   ///< g_m = sinh(lambda (1 - m/M)) / sinh(lambda); Green-function-like broadening
};

/// How the spectral bounds are found.
enum class KpmBoundsMethod {
  gershgorin,  ///< row sums of moduli: always safe, often loose
  lanczos      ///< a few Lanczos steps (extreme Ritz values +- the last beta), within Gershgorin
};

/// Which kernel runs the blocked implementation's SpMMV (all give the same moments up to rounding).
enum class KpmBlockedKernel {
  automatic,  ///< team on GPUs (CUDA), row on host spaces
  row,        ///< one thread per row, the R vectors in a loop (SIMD over R on CPUs)
  team        ///< the R vectors across the vector lanes of a team, several rows per team (GPUs)
};

/// Order in which kpm_dos visits the rows of H (the moments do not depend on it: H is permuted
/// symmetrically and the start vectors with it).
enum class KpmRowOrder {
  natural,  ///< H as given
  locality  ///< parts of compact graph neighbourhoods, one after another
            ///< (kernels::locality_order): the block rows of V a part gathers stay in cache
};

const char* to_string(KpmImplementation value);
const char* to_string(KpmRowOrder value);
const char* to_string(KpmBlockedKernel value);
const char* to_string(KpmRandomVector value);
const char* to_string(KpmTrace value);
const char* to_string(KpmDampingKernel value);
const char* to_string(KpmBoundsMethod value);

/// Settings of kpm_dos. Each field's default is what a first DOS of a new Hamiltonian needs.
struct KpmParams {
  /// Number of Chebyshev moments M (>= 2). Energy resolution ~ pi * half_width / M.
  int num_moments = 256;
  /// Random vectors R of the stochastic trace (>= 1); the relative error falls as 1/sqrt(R N).
  int num_vectors = 8;
  /// Seed of the random vectors; the vectors depend only on (seed, row, vector index), not on
  /// the implementation, the block size or the number of threads.
  std::uint64_t seed = 42;
  KpmRandomVector random_vector = KpmRandomVector::rademacher;
  KpmTrace trace = KpmTrace::stochastic;
  KpmImplementation implementation = KpmImplementation::blocked;
  /// Vectors per block in the blocked implementation (>= 1); 32 is the paper's choice.
  int block_size = 32;
  /// Kernel of the blocked implementation; automatic: team on GPUs, row on CPUs.
  KpmBlockedKernel blocked_kernel = KpmBlockedKernel::automatic;
  /// Row order of the moment products; locality pays off when a row's neighbours lie far
  /// apart in the given numbering (badly ordered files; lattices wider than the cache holds).
  KpmRowOrder row_order = KpmRowOrder::natural;
  /// Rows per part of the locality order (>= 0); 0 picks kpm_locality_part_rows(block width).
  long long locality_part_rows = 0;
  KpmDampingKernel kernel = KpmDampingKernel::jackson;
  /// lambda of the Lorentz kernel (> 0); 4 is the usual choice (Weisse et al.).
  double lorentz_lambda = 4.0;
  KpmBoundsMethod bounds = KpmBoundsMethod::lanczos;
  /// Lanczos steps for the bounds (>= 1 when bounds = lanczos).
  int lanczos_steps = 30;
  /// Relative safety margin epsilon: the bounds are widened so that the spectrum maps into
  /// [-(1 - epsilon), 1 - epsilon] (in [0, 1)); 0.01 as in Weisse et al.
  double safety_margin = 0.01;
  /// A moment with |mu_m| > |mu_0| (1 + growth_tolerance) means the bounds do not enclose the
  /// spectrum: NumericalError instead of a wrong DOS.
  double growth_tolerance = 1e-6;
  /// Tolerance of the Hermitian check, relative to the largest entry modulus.
  double hermitian_tolerance = 1e-12;
};

/// Throws InvalidArgument, naming the field and value, when a field is out of range.
void validate(const KpmParams& params);

/// The vectors of a run on `num_rows` rows: all n basis vectors for the exact trace, else
/// num_vectors.
inline long long kpm_trace_vectors(const KpmParams& params, long long num_rows) {
  return params.trace == KpmTrace::exact ? num_rows : params.num_vectors;
}

/// Vectors per block as a run takes them: block_size, capped at the run's vectors (at least 1).
inline long long kpm_block_width(const KpmParams& params, long long num_rows) {
  const long long vectors = kpm_trace_vectors(params, num_rows);
  return vectors < params.block_size ? (vectors > 1 ? vectors : 1) : params.block_size;
}

/// Interval containing the spectrum of a Hermitian matrix.
struct SpectralBounds {
  double lower = 0;
  double upper = 0;
};

/// The interval that KpmScaling::from_bounds maps onto [-(1 - margin), 1 - margin] and the
/// default energy grid spans: the bounds, or for a single-point spectrum c (zero width to
/// rounding: a 1 x 1 matrix, c I, a zero matrix) [c - max(1, |c|), c + max(1, |c|)], so that H~
/// is finite and the density is the kernel's peak at c (width ~ pi max(1, |c|) / M) on a grid
/// of nonzero width, not N copies of one point.
SpectralBounds kpm_scaled_bounds(SpectralBounds bounds);

/// The affine map H~ = (H - center) / half_width that takes the spectrum into [-1, 1].
struct KpmScaling {
  double center = 0;
  double half_width = 1;
  /// The scaling that maps kpm_scaled_bounds(bounds) onto [-(1 - margin), 1 - margin].
  static KpmScaling from_bounds(SpectralBounds bounds, double margin);
  double to_scaled(double energy) const { return (energy - center) / half_width; }
  double to_energy(double x) const { return center + half_width * x; }
};

}  // namespace kelp::solvers
