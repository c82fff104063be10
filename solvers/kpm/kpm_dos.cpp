// KPM damping kernels, density reconstruction and the non-template parts of the KPM parameters.
#include "kelp/solvers/kpm/kpm_dos.hpp"

#include <algorithm>
#include <cmath>

#include "kelp/kernels/core/error.hpp"
#include "kelp/solvers/kpm/kpm.hpp"

namespace kelp::solvers {

namespace {
constexpr double pi = 3.14159265358979323846;
}

const char* to_string(KpmImplementation value) {
  switch (value) {
    case KpmImplementation::naive: return "naive";
    case KpmImplementation::augmented: return "augmented";
    case KpmImplementation::blocked: return "blocked";
  }
  return "?";
}
const char* to_string(KpmRowOrder value) {
  return value == KpmRowOrder::locality ? "locality" : "natural";
}
const char* to_string(KpmBlockedKernel value) {
  switch (value) {
    case KpmBlockedKernel::automatic: return "automatic";
    case KpmBlockedKernel::row: return "row";
    case KpmBlockedKernel::team: return "team";
  }
  return "?";
}
const char* to_string(KpmRandomVector value) {
  return value == KpmRandomVector::rademacher ? "rademacher" : "random_phase";
}
const char* to_string(KpmTrace value) { return value == KpmTrace::exact ? "exact" : "stochastic"; }
const char* to_string(KpmDampingKernel value) {
  return value == KpmDampingKernel::jackson ? "jackson" : "lorentz";
}
const char* to_string(KpmBoundsMethod value) {
  return value == KpmBoundsMethod::gershgorin ? "gershgorin" : "lanczos";
}

void validate(const KpmParams& p) {
  KELP_REQUIRE(p.num_moments >= 2, InvalidArgument,
               "kelp::solvers::KpmParams: num_moments = " << p.num_moments << ", expected >= 2");
  KELP_REQUIRE(p.trace == KpmTrace::exact || p.num_vectors >= 1, InvalidArgument,
               "kelp::solvers::KpmParams: num_vectors = " << p.num_vectors << ", expected >= 1");
  KELP_REQUIRE(p.block_size >= 1, InvalidArgument,
               "kelp::solvers::KpmParams: block_size = " << p.block_size << ", expected >= 1");
  KELP_REQUIRE(p.locality_part_rows >= 0, InvalidArgument,
               "kelp::solvers::KpmParams: locality_part_rows = " << p.locality_part_rows
                                                                 << ", expected >= 0 (0: automatic)");
  KELP_REQUIRE(p.lorentz_lambda > 0, InvalidArgument,
               "kelp::solvers::KpmParams: lorentz_lambda = " << p.lorentz_lambda
                                                             << ", expected > 0");
  KELP_REQUIRE(p.bounds == KpmBoundsMethod::gershgorin || p.lanczos_steps >= 1, InvalidArgument,
               "kelp::solvers::KpmParams: lanczos_steps = " << p.lanczos_steps
                                                            << ", expected >= 1");
  KELP_REQUIRE(p.safety_margin >= 0 && p.safety_margin < 1, InvalidArgument,
               "kelp::solvers::KpmParams: safety_margin = " << p.safety_margin
                                                            << ", expected in [0, 1)");
  KELP_REQUIRE(p.growth_tolerance >= 0, InvalidArgument,
               "kelp::solvers::KpmParams: growth_tolerance = " << p.growth_tolerance
                                                               << ", expected >= 0");
  KELP_REQUIRE(p.hermitian_tolerance >= 0, InvalidArgument,
               "kelp::solvers::KpmParams: hermitian_tolerance = " << p.hermitian_tolerance
                                                                  << ", expected >= 0");
}

KpmScaling KpmScaling::from_bounds(SpectralBounds bounds, double margin) {
  KELP_REQUIRE(bounds.lower <= bounds.upper && std::isfinite(bounds.lower) &&
                   std::isfinite(bounds.upper),
               InvalidArgument,
               "kelp::solvers::KpmScaling::from_bounds: bounds [" << bounds.lower << ", "
                   << bounds.upper << "] are not a finite interval");
  const SpectralBounds interval = kpm_scaled_bounds(bounds);
  KpmScaling s;
  s.center = 0.5 * (interval.lower + interval.upper);
  s.half_width = 0.5 * (interval.upper - interval.lower) / (1.0 - margin);
  return s;
}

SpectralBounds kpm_scaled_bounds(SpectralBounds bounds) {
  const double center = 0.5 * (bounds.lower + bounds.upper);
  const double half = 0.5 * (bounds.upper - bounds.lower);
  if (half > 1e-14 * std::max(1.0, std::abs(center))) return bounds;
  const double wide = std::max(1.0, std::abs(center));
  return {center - wide, center + wide};
}

std::vector<double> KpmMoments::normalised() const {
  std::vector<double> mu(static_cast<std::size_t>(num_moments), 0.0);
  for (int r = 0; r < num_vectors; ++r) {
    for (int m = 0; m < num_moments; ++m) mu[m] += at(r, m);
  }
  const double mu0 = mu.empty() ? 0.0 : mu[0];
  KELP_REQUIRE(mu0 > 0, InvalidArgument,
               "kelp::solvers::KpmMoments::normalised: mu_0 = " << mu0
                                                               << "; expected > 0 (zero vectors?)");
  for (double& x : mu) x /= mu0;
  return mu;
}

void kpm_density_of_moments(const KpmMoments& all, const KpmParams& params, KpmDosResult& result) {
  const std::vector<double>& energies = result.energies;
  result.moments = all.normalised();
  result.density = kpm_density(result.moments, result.scaling, params.kernel,
                               params.lorentz_lambda, energies);
  result.density_error.assign(energies.size(), 0.0);
  if (params.trace == KpmTrace::stochastic && all.num_vectors > 1) {
    // Standard error of the mean over the vectors' own densities.
    std::vector<double> sum(energies.size(), 0.0), sum2(energies.size(), 0.0);
    for (int r = 0; r < all.num_vectors; ++r) {
      std::vector<double> mu(all.values.begin() + static_cast<std::size_t>(r) * all.num_moments,
                             all.values.begin() + static_cast<std::size_t>(r + 1) * all.num_moments);
      const double mu0 = mu[0];
      for (double& x : mu) x /= mu0;
      const auto rho = kpm_density(mu, result.scaling, params.kernel, params.lorentz_lambda, energies);
      for (std::size_t e = 0; e < rho.size(); ++e) {
        sum[e] += rho[e];
        sum2[e] += rho[e] * rho[e];
      }
    }
    const double R = static_cast<double>(all.num_vectors);
    for (std::size_t e = 0; e < energies.size(); ++e) {
      const double mean = sum[e] / R;
      const double variance = std::max(0.0, (sum2[e] - R * mean * mean) / (R - 1));
      result.density_error[e] = std::sqrt(variance / R);
    }
  }
}

double kpm_flops_per_product(long long num_rows, long long nnz, bool is_complex) {
  const double fa = is_complex ? 2 : 1, fm = is_complex ? 6 : 1;
  return static_cast<double>(nnz) * (fa + fm) +
         static_cast<double>(num_rows) * (std::ceil(7 * fa / 2) + std::ceil(9 * fm / 2));
}

std::vector<double> kpm_damping(KpmDampingKernel kernel, int num_moments, double lorentz_lambda) {
  KELP_REQUIRE(num_moments >= 1, InvalidArgument,
               "kelp::solvers::kpm_damping: num_moments = " << num_moments << ", expected >= 1");
  std::vector<double> g(static_cast<std::size_t>(num_moments));
  const double M = num_moments;
  if (kernel == KpmDampingKernel::jackson) {
    const double q = pi / (M + 1);
    for (int m = 0; m < num_moments; ++m) {
      g[m] = ((M - m + 1) * std::cos(q * m) + std::sin(q * m) / std::tan(q)) / (M + 1);
    }
  } else {
    KELP_REQUIRE(lorentz_lambda > 0, InvalidArgument,
                 "kelp::solvers::kpm_damping: lorentz_lambda = " << lorentz_lambda
                                                                 << ", expected > 0");
    // sinh(lambda (1 - x)) / sinh(lambda), x = m / M, written as
    // e^{-lambda x} (1 - e^{-2 lambda (1 - x)}) / (1 - e^{-2 lambda}): sinh overflows from
    // lambda ~ 710 on (inf / inf = NaN, every rho NaN), this form stays in [0, 1] for any lambda > 0,
    // and expm1 keeps it accurate for small lambda.
    const double denominator = std::expm1(-2.0 * lorentz_lambda);
    for (int m = 0; m < num_moments; ++m) {
      const double x = m / M;
      g[m] = std::exp(-lorentz_lambda * x) * (std::expm1(-2.0 * lorentz_lambda * (1.0 - x)) / denominator);
    }
  }
  return g;
}

std::vector<double> kpm_density(const std::vector<double>& moments, const KpmScaling& scaling,
                                KpmDampingKernel kernel, double lorentz_lambda,
                                const std::vector<double>& energies) {
  KELP_REQUIRE(!moments.empty(), InvalidArgument,
               "kelp::solvers::kpm_density: no moments; expected at least one");
  KELP_REQUIRE(!energies.empty(), InvalidArgument,
               "kelp::solvers::kpm_density: the energy grid is empty; expected at least one energy");
  for (std::size_t e = 0; e < energies.size(); ++e) {  // a NaN energy gave rho = 0, silently
    KELP_REQUIRE(std::isfinite(energies[e]), InvalidArgument,
                 "kelp::solvers::kpm_density: energy " << e << " is " << energies[e] << "; expected finite energies");
  }
  const int M = static_cast<int>(moments.size());
  const auto g = kpm_damping(kernel, M, lorentz_lambda);
  std::vector<double> rho(energies.size(), 0.0);
  for (std::size_t e = 0; e < energies.size(); ++e) {
    const double x = scaling.to_scaled(energies[e]);
    if (!(x > -1.0 && x < 1.0)) continue;  // outside the scaled interval the density is 0
    // T_m(x) by the recurrence (stable on (-1, 1)).
    double t_prev = 1.0, t = x;
    double sum = g[0] * moments[0];
    for (int m = 1; m < M; ++m) {
      sum += 2.0 * g[m] * moments[m] * t;
      const double t_next = 2.0 * x * t - t_prev;
      t_prev = t;
      t = t_next;
    }
    rho[e] = sum / (pi * std::sqrt(1.0 - x * x)) / scaling.half_width;
  }
  return rho;
}

std::vector<double> kpm_moments_of_eigenvalues(const std::vector<double>& eigenvalues,
                                               const KpmScaling& scaling, int num_moments) {
  KELP_REQUIRE(!eigenvalues.empty() && num_moments >= 1, InvalidArgument,
               "kelp::solvers::kpm_moments_of_eigenvalues: " << eigenvalues.size()
                   << " eigenvalues and " << num_moments << " moments; expected at least one each");
  std::vector<double> mu(static_cast<std::size_t>(num_moments), 0.0);
  for (double E : eigenvalues) {
    const double x = scaling.to_scaled(E);
    double t_prev = 1.0, t = x;
    mu[0] += 1.0;
    for (int m = 1; m < num_moments; ++m) {
      mu[m] += t;
      const double t_next = 2.0 * x * t - t_prev;
      t_prev = t;
      t = t_next;
    }
  }
  for (double& x : mu) x /= static_cast<double>(eigenvalues.size());
  return mu;
}

}  // namespace kelp::solvers
