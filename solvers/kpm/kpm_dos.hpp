#pragma once
/// Density of states from Chebyshev moments: damping kernels (Jackson, Lorentz) and the
/// reconstruction rho(E) on a user grid in the Hamiltonian's own energy units. Host code only.
///
///   rho~(x) = [g_0 mu_0 + 2 sum_{m>=1} g_m mu_m T_m(x)] / (pi sqrt(1 - x^2)),  x in (-1, 1)
///   rho(E)  = rho~((E - center) / half_width) / half_width   (zero outside the scaled interval)
///
/// With normalised moments (mu_0 = 1) the density integrates to 1.

#include <vector>

#include "kelp/solvers/kpm/kpm_params.hpp"

namespace kelp::solvers {

/// The damping factors g_0 .. g_{M-1} of a kernel for M moments.
/// Jackson: g_m = [(M - m + 1) cos(pi m / (M + 1)) + sin(pi m / (M + 1)) cot(pi / (M + 1))] / (M + 1).
/// Lorentz: g_m = sinh(lambda (1 - m / M)) / sinh(lambda).
/// @throws InvalidArgument for M < 1 or lambda <= 0 (Lorentz)
std::vector<double> kpm_damping(KpmDampingKernel kernel, int num_moments, double lorentz_lambda);

/// rho(E) at each energy from normalised moments mu (mu[0] = 1 for a density of unit integral).
/// @throws InvalidArgument for an empty moment list or an empty energy grid
std::vector<double> kpm_density(const std::vector<double>& moments, const KpmScaling& scaling,
                                KpmDampingKernel kernel, double lorentz_lambda,
                                const std::vector<double>& energies);

/// Exact moments mu_m = (1/N) sum_k T_m((E_k - center) / half_width) of a list of eigenvalues:
/// the KPM moments of the exact eigenvalue histogram (for tests and comparisons).
std::vector<double> kpm_moments_of_eigenvalues(const std::vector<double>& eigenvalues,
                                               const KpmScaling& scaling, int num_moments);

}  // namespace kelp::solvers
