#pragma once
/// Hermitian model Hamiltonians for densities of states (KPM): the topological-insulator (TI)
/// lattice of Kreutzer et al. (IPDPS 2015, Eq. 1) and nearest-neighbour tight-binding lattices.
/// Assembled on the host (O(nnz)), then copied to Device. Site ordering x + nx (y + ny z).

#include <array>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/generators/grid_count.hpp"

namespace kelp::generators {

/// Parameters of the topological-insulator Hamiltonian
///   H = -t sum_{n, j=1,2,3} (Psi+_{n+e_j} (Gamma^1 - i Gamma^{j+1}) / 2 Psi_n + h.c.)
///       + sum_n Psi+_n (V_n Gamma^0 + 2 Gamma^1) Psi_n
/// on an nx x ny x nz lattice of 4-orbital sites (N = 4 nx ny nz rows, ~13 nonzeros per row).
/// Gamma^0 = 1; Gamma^1 = 1 (x) tau_z, Gamma^{2,3,4} = sigma_{x,y,z} (x) tau_x (a Dirac
/// representation: they anticommute and square to 1). V_n is uniform in [-disorder/2, disorder/2].
struct TopologicalInsulatorParams {
  long long nx = 4, ny = 4, nz = 4;
  double hopping = 1.0;         ///< t
  double disorder = 0.0;        ///< width W of the random on-site potential (0: clean)
  std::uint64_t seed = 1;       ///< seed of the disorder (std::mt19937_64)
  bool periodic_xy = true;      ///< periodic in x and y, open in z (the paper's slab geometry)
};

namespace impl {
using Block4 = std::array<std::array<std::complex<double>, 4>, 4>;

/// Kronecker product sigma (x) tau of two 2 x 2 matrices (orbital index 2 s + t).
inline Block4 kron(const std::array<std::array<std::complex<double>, 2>, 2>& sigma,
                   const std::array<std::array<std::complex<double>, 2>, 2>& tau) {
  Block4 r{};
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 2; ++c)
        for (int d = 0; d < 2; ++d) r[2 * a + c][2 * b + d] = sigma[a][b] * tau[c][d];
  return r;
}

/// Gamma^1 .. Gamma^4 of the TI Hamiltonian.
inline std::array<Block4, 4> dirac_gammas() {
  using C = std::complex<double>;
  const std::array<std::array<C, 2>, 2> s0{{{C(1), C(0)}, {C(0), C(1)}}};
  const std::array<std::array<C, 2>, 2> sx{{{C(0), C(1)}, {C(1), C(0)}}};
  const std::array<std::array<C, 2>, 2> sy{{{C(0), C(0, -1)}, {C(0, 1), C(0)}}};
  const std::array<std::array<C, 2>, 2> sz{{{C(1), C(0)}, {C(0), C(-1)}}};
  return {kron(s0, sz), kron(sx, sx), kron(sy, sx), kron(sz, sx)};
}

template <class Scalar>
Scalar to_scalar(std::complex<double> z) {
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    return Scalar(z.real(), z.imag());
  } else {
    return Scalar(z.real());
  }
}
}  // namespace impl

/// The TI Hamiltonian (complex Hermitian). Scalar must be complex.
/// @throws InvalidArgument for a non-positive lattice size, a periodic direction shorter than 3
///         sites (the two neighbours would coincide) or more rows than the Ordinal holds
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> topological_insulator(const TopologicalInsulatorParams& p) {
  static_assert(ScalarTraits<Scalar>::is_complex,
                "topological_insulator: the TI Hamiltonian is complex; use Kokkos::complex<double>");
  KELP_REQUIRE(p.nx >= 1 && p.ny >= 1 && p.nz >= 1, InvalidArgument,
               "kelp::generators::topological_insulator: lattice " << p.nx << " x " << p.ny << " x "
                                                                     << p.nz << ", expected >= 1 each");
  KELP_REQUIRE(!p.periodic_xy || (p.nx >= 3 && p.ny >= 3), InvalidArgument,
               "kelp::generators::topological_insulator: periodic_xy needs nx, ny >= 3, got "
                   << p.nx << " x " << p.ny);
  const long long sites =
      checked_grid_count("kelp::generators::topological_insulator (32-bit Ordinal)", p.nx, p.ny, p.nz, 4,
                         max_serial_rows) / 4;
  const auto gamma = impl::dirac_gammas();
  const std::complex<double> I(0, 1);
  // Hopping block from site n to n + e_j: H_{n+e_j, n} = -t (Gamma^1 - i Gamma^{j+1}) / 2.
  std::array<impl::Block4, 3> hop{};
  for (int j = 0; j < 3; ++j)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) hop[j][a][b] = -p.hopping * (gamma[0][a][b] - I * gamma[j + 1][a][b]) / 2.0;
  std::mt19937_64 rng(p.seed);
  std::uniform_real_distribution<double> uniform(-0.5, 0.5);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> vals;
  rows.reserve(13 * 4 * sites);
  cols.reserve(13 * 4 * sites);
  vals.reserve(13 * 4 * sites);
  auto add_block = [&](long long to, long long from, const impl::Block4& B, bool adjoint) {
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const std::complex<double> z = adjoint ? std::conj(B[b][a]) : B[a][b];
        if (z == 0.0) continue;
        rows.push_back(static_cast<Ordinal>(4 * to + a));
        cols.push_back(static_cast<Ordinal>(4 * from + b));
        vals.push_back(impl::to_scalar<Scalar>(z));
      }
  };
  const long long n[3] = {p.nx, p.ny, p.nz};
  for (long long z = 0; z < p.nz; ++z)
    for (long long y = 0; y < p.ny; ++y)
      for (long long x = 0; x < p.nx; ++x) {
        const long long site = x + p.nx * (y + p.ny * z);
        const double V = p.disorder == 0.0 ? 0.0 : p.disorder * uniform(rng);
        impl::Block4 onsite{};
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b) onsite[a][b] = 2.0 * gamma[0][a][b] + (a == b ? V : 0.0);
        add_block(site, site, onsite, false);
        const long long c[3] = {x, y, z};
        for (int j = 0; j < 3; ++j) {
          long long d[3] = {c[0], c[1], c[2]};
          const bool periodic = j < 2 && p.periodic_xy;
          // Forward neighbour n + e_j (block hop) and backward neighbour n - e_j (its adjoint).
          for (int dir : {+1, -1}) {
            d[j] = c[j] + dir;
            if (d[j] < 0 || d[j] >= n[j]) {
              if (!periodic) continue;
              d[j] = (d[j] + n[j]) % n[j];
            }
            const long long other = d[0] + p.nx * (d[1] + p.ny * d[2]);
            // Row block `other` (= n + e_j) couples to `site`: H_{n+e_j, n} = hop; for the
            // backward neighbour, row `site` sees H_{n, n-e_j} = hop, i.e. H_{n-e_j, n} = hop^H.
            if (dir > 0) {
              add_block(other, site, hop[j], false);
            } else {
              add_block(other, site, hop[j], true);
            }
          }
        }
      }
  return crs_from_coo<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(4 * sites),
                                                       static_cast<Ordinal>(4 * sites), rows, cols,
                                                       vals);
}

/// Nearest-neighbour tight-binding lattice H = -t sum_<ij> (c+_i c_j + h.c.) on a chain
/// (ny = nz = 1), square (nz = 1) or cubic lattice; real symmetric. With periodic boundaries the
/// eigenvalues are -2t sum_d cos(2 pi k_d / n_d), and the cubic DOS is the known van Hove form.
/// @throws InvalidArgument for sizes < 1, or a periodic direction of length 2 (doubled bonds)
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> tight_binding(long long nx, long long ny, long long nz,
                                                         double hopping, bool periodic) {
  KELP_REQUIRE(nx >= 1 && ny >= 1 && nz >= 1, InvalidArgument,
               "kelp::generators::tight_binding: lattice " << nx << " x " << ny << " x " << nz
                                                           << ", expected >= 1 each");
  KELP_REQUIRE(!periodic || (nx != 2 && ny != 2 && nz != 2), InvalidArgument,
               "kelp::generators::tight_binding: a periodic direction of length 2 doubles its "
               "bond; got " << nx << " x " << ny << " x " << nz);
  const long long sites =
      checked_grid_count("kelp::generators::tight_binding (32-bit Ordinal)", nx, ny, nz, 1, max_serial_rows);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> vals;
  const long long n[3] = {nx, ny, nz};
  for (long long z = 0; z < nz; ++z)
    for (long long y = 0; y < ny; ++y)
      for (long long x = 0; x < nx; ++x) {
        const long long c[3] = {x, y, z};
        const long long site = x + nx * (y + ny * z);
        for (int j = 0; j < 3; ++j) {
          if (n[j] == 1) continue;
          for (int dir : {+1, -1}) {
            long long d[3] = {c[0], c[1], c[2]};
            d[j] = c[j] + dir;
            if (d[j] < 0 || d[j] >= n[j]) {
              if (!periodic) continue;
              d[j] = (d[j] + n[j]) % n[j];
            }
            rows.push_back(static_cast<Ordinal>(site));
            cols.push_back(static_cast<Ordinal>(d[0] + nx * (d[1] + ny * d[2])));
            vals.push_back(Scalar(-hopping));
          }
        }
      }
  if (sites == 1) {  // no bonds: a 1 x 1 zero matrix with its (explicit) diagonal
    rows.push_back(0);
    cols.push_back(0);
    vals.push_back(Scalar(0));
  }
  return crs_from_coo<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(sites),
                                                       static_cast<Ordinal>(sites), rows, cols, vals);
}

}  // namespace kelp::generators
