#pragma once
/// Distributed generators: each rank builds only its rows of the model matrices, identical
/// (bitwise, rows sorted by column) to the same rows of the serial generators in
/// kernels/generators/ (generators.hpp, hamiltonians.hpp). No communication: every function
/// takes the row partition and the rank, so it also runs on one process for tests; the
/// `MPI_Comm` overloads balance the rows over the communicator.
///
/// Global indices are 64-bit here, so a distributed matrix may exceed the serial generators'
/// 2^31 rows.
///
/// Example (7-point Laplacian, rows balanced over the ranks):
///   auto A = kelp::dist::laplace3d<double>(100, 100, 100, MPI_COMM_WORLD);

#include <mpi.h>

#include <algorithm>
#include <complex>
#include <random>
#include <tuple>
#include <vector>

#include "kelp/distributed/exchange.hpp"
#include "kelp/distributed/local_rows.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"

namespace kelp::dist {

namespace impl {

inline void require_partition(const RowPartition& rows, int rank, GlobalOrdinal n, const char* function) {
  KELP_REQUIRE(rows.global_size() == n && rank >= 0 && rank < rows.num_ranks(), InvalidArgument,
               function << ": the row partition covers " << rows.global_size() << " rows over "
                        << rows.num_ranks() << " ranks (rank " << rank << " asked); the matrix has " << n
                        << " rows");
}

inline RowPartition balanced_over(MPI_Comm comm, GlobalOrdinal n) {
  return RowPartition::balanced(n, comm_size(comm));
}

}  // namespace impl

/// Rows [rows.begin(rank), rows.end(rank)) of generators::stencil_matrix(nx, ny, nz, stencil):
/// the grid matrix of a constant stencil with Dirichlet boundaries, index x + nx (y + ny z).
/// Cost: O(local rows * stencil size), no communication.
/// @throws InvalidArgument for an empty grid or a partition that does not cover nx ny nz rows
template <class Scalar>
LocalRows<Scalar> stencil_rows(long long nx, long long ny, long long nz, std::vector<generators::StencilPoint> stencil,
                               const RowPartition& rows, int rank) {
  constexpr const char* function = "kelp::dist::stencil_rows";
  KELP_REQUIRE(nx >= 1 && ny >= 1 && nz >= 1, InvalidArgument,
               function << ": grid " << nx << " x " << ny << " x " << nz
                        << " must have at least one point per direction");
  const GlobalOrdinal n = generators::checked_grid_count(function, nx, ny, nz, 1, generators::max_distributed_rows);
  impl::require_partition(rows, rank, n, function);
  // Sorting by (dz, dy, dx) sorts each row by column index, as the serial generator does.
  std::sort(stencil.begin(), stencil.end(), [](const generators::StencilPoint& a, const generators::StencilPoint& b) {
    return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
  });
  LocalRows<Scalar> local;
  local.global_rows = local.global_cols = n;
  local.rows = local.cols = rows;
  const GlobalOrdinal first = rows.begin(rank), last = rows.end(rank);
  local.row_map.assign(static_cast<std::size_t>(last - first) + 1, 0);
  local.col_index.reserve(static_cast<std::size_t>(last - first) * stencil.size());
  local.values.reserve(static_cast<std::size_t>(last - first) * stencil.size());
  for (GlobalOrdinal row = first; row < last; ++row) {
    const long long x = row % nx, y = (row / nx) % ny, z = row / (static_cast<GlobalOrdinal>(nx) * ny);
    for (const auto& s : stencil) {
      const long long xx = x + s.dx, yy = y + s.dy, zz = z + s.dz;
      if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
      local.col_index.push_back(xx + static_cast<GlobalOrdinal>(nx) * (yy + static_cast<GlobalOrdinal>(ny) * zz));
      local.values.push_back(Scalar(s.value));
    }
    local.row_map[static_cast<std::size_t>(row - first) + 1] = static_cast<std::int64_t>(local.col_index.size());
  }
  return local;
}

/// This rank's rows of generators::laplace1d/2d/2d_9pt/3d/3d_27pt/anisotropic2d/
/// convection_diffusion under `rows`; see stencil_rows.
template <class Scalar>
LocalRows<Scalar> laplace1d(long long nx, const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, 1, 1, generators::stencils::laplace1d(), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> laplace2d(long long nx, long long ny, const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, ny, 1, generators::stencils::laplace2d(), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> laplace2d_9pt(long long nx, long long ny, const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, ny, 1, generators::stencils::laplace2d_9pt(), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> laplace3d(long long nx, long long ny, long long nz, const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, ny, nz, generators::stencils::laplace3d(), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> laplace3d_27pt(long long nx, long long ny, long long nz, const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, ny, nz, generators::stencils::laplace3d_27pt(), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> anisotropic2d(long long nx, long long ny, double epsilon, double theta, const RowPartition& rows,
                                int rank) {
  return stencil_rows<Scalar>(nx, ny, 1, generators::stencils::anisotropic2d(epsilon, theta), rows, rank);
}
template <class Scalar>
LocalRows<Scalar> convection_diffusion(long long nx, long long ny, long long nz, double wx, double wy, double wz,
                                       const RowPartition& rows, int rank) {
  return stencil_rows<Scalar>(nx, ny, nz, generators::stencils::convection_diffusion(nx, nz, wx, wy, wz), rows,
                              rank);
}

/// The 7-point Laplacian with rows balanced over `comm` (this process's rank's rows).
template <class Scalar>
LocalRows<Scalar> laplace3d(long long nx, long long ny, long long nz, MPI_Comm comm) {
  return laplace3d<Scalar>(nx, ny, nz, impl::balanced_over(comm, GlobalOrdinal(nx) * ny * nz), impl::comm_rank(comm));
}
/// The 5-point Laplacian with rows balanced over `comm`.
template <class Scalar>
LocalRows<Scalar> laplace2d(long long nx, long long ny, MPI_Comm comm) {
  return laplace2d<Scalar>(nx, ny, impl::balanced_over(comm, GlobalOrdinal(nx) * ny), impl::comm_rank(comm));
}

/// Rows [rows.begin(rank), rows.end(rank)) of generators::tight_binding(nx, ny, nz, hopping,
/// periodic): -t on the bonds of a chain, square or cubic lattice. Cost: O(local rows).
/// @throws InvalidArgument as the serial generator, or for a partition that does not match
template <class Scalar>
LocalRows<Scalar> tight_binding(long long nx, long long ny, long long nz, double hopping, bool periodic,
                                const RowPartition& rows, int rank) {
  constexpr const char* function = "kelp::dist::tight_binding";
  KELP_REQUIRE(nx >= 1 && ny >= 1 && nz >= 1, InvalidArgument,
               function << ": lattice " << nx << " x " << ny << " x " << nz << ", expected >= 1 each");
  KELP_REQUIRE(!periodic || (nx != 2 && ny != 2 && nz != 2), InvalidArgument,
               function << ": a periodic direction of length 2 doubles its bond; got " << nx << " x " << ny
                        << " x " << nz);
  const GlobalOrdinal sites =
      generators::checked_grid_count(function, nx, ny, nz, 1, generators::max_distributed_rows);
  impl::require_partition(rows, rank, sites, function);
  const long long n[3] = {nx, ny, nz};
  std::vector<impl::Triplet<Scalar>> triplets;
  for (GlobalOrdinal site = rows.begin(rank); site < rows.end(rank); ++site) {
    const long long c[3] = {site % nx, (site / nx) % ny, site / (static_cast<GlobalOrdinal>(nx) * ny)};
    for (int j = 0; j < 3; ++j) {
      if (n[j] == 1) continue;
      for (int dir : {+1, -1}) {
        long long d[3] = {c[0], c[1], c[2]};
        d[j] = c[j] + dir;
        if (d[j] < 0 || d[j] >= n[j]) {
          if (!periodic) continue;
          d[j] = (d[j] + n[j]) % n[j];
        }
        triplets.push_back({site, d[0] + static_cast<GlobalOrdinal>(nx) * (d[1] + static_cast<GlobalOrdinal>(ny) * d[2]),
                            Scalar(-hopping)});
      }
    }
  }
  if (sites == 1 && rows.size(rank) == 1) triplets.push_back({0, 0, Scalar(0)});  // as the serial one
  return impl::assemble_local_rows(rows, rows, rank, triplets);
}

/// Rows [rows.begin(rank), rows.end(rank)) of generators::topological_insulator(p) (4 rows per
/// site; a partition may split a site). The disorder potential V_n is drawn in site order from
/// the same std::mt19937_64 stream as the serial generator, so a rank draws (but does not
/// store) the values of all sites before its own: O(last site) time when disorder != 0.
/// @throws InvalidArgument as the serial generator, or for a partition that does not match
template <class Scalar>
LocalRows<Scalar> topological_insulator(const generators::TopologicalInsulatorParams& p, const RowPartition& rows,
                                        int rank) {
  static_assert(ScalarTraits<Scalar>::is_complex,
                "topological_insulator: the TI Hamiltonian is complex; use Kokkos::complex<double>");
  constexpr const char* function = "kelp::dist::topological_insulator";
  KELP_REQUIRE(p.nx >= 1 && p.ny >= 1 && p.nz >= 1, InvalidArgument,
               function << ": lattice " << p.nx << " x " << p.ny << " x " << p.nz << ", expected >= 1 each");
  KELP_REQUIRE(!p.periodic_xy || (p.nx >= 3 && p.ny >= 3), InvalidArgument,
               function << ": periodic_xy needs nx, ny >= 3, got " << p.nx << " x " << p.ny);
  const GlobalOrdinal sites =
      generators::checked_grid_count(function, p.nx, p.ny, p.nz, 4, generators::max_distributed_rows) / 4;
  impl::require_partition(rows, rank, 4 * sites, function);
  const auto gamma = generators::impl::dirac_gammas();
  const std::complex<double> I(0, 1);
  std::array<generators::impl::Block4, 3> hop{};
  for (int j = 0; j < 3; ++j)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) hop[j][a][b] = -p.hopping * (gamma[0][a][b] - I * gamma[j + 1][a][b]) / 2.0;

  const GlobalOrdinal first_row = rows.begin(rank), last_row = rows.end(rank);
  const GlobalOrdinal first_site = first_row / 4;
  const GlobalOrdinal end_site = (last_row + 3) / 4;
  // The serial generator draws one V per site, in site order, only when disorder != 0.
  std::vector<double> potential(static_cast<std::size_t>(std::max<GlobalOrdinal>(end_site - first_site, 0)), 0.0);
  if (p.disorder != 0.0 && end_site > first_site) {
    std::mt19937_64 rng(p.seed);
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    for (GlobalOrdinal site = 0; site < end_site; ++site) {
      const double V = p.disorder * uniform(rng);
      if (site >= first_site) potential[static_cast<std::size_t>(site - first_site)] = V;
    }
  }
  const long long n[3] = {p.nx, p.ny, p.nz};
  std::vector<impl::Triplet<Scalar>> triplets;
  triplets.reserve(static_cast<std::size_t>(13 * (last_row - first_row)));
  // Row 4 s + a of block row s: the value z of column 4 t + b, zeros left out as serially.
  const auto add = [&](GlobalOrdinal row, GlobalOrdinal col_site, int b, std::complex<double> z) {
    if (z == 0.0) return;
    triplets.push_back({row, 4 * col_site + b, generators::impl::to_scalar<Scalar>(z)});
  };
  for (GlobalOrdinal row = first_row; row < last_row; ++row) {
    const GlobalOrdinal site = row / 4;
    const int a = static_cast<int>(row % 4);
    const double V = potential[static_cast<std::size_t>(site - first_site)];
    for (int b = 0; b < 4; ++b) add(row, site, b, 2.0 * gamma[0][a][b] + (a == b ? V : 0.0));
    const long long c[3] = {site % p.nx, (site / p.nx) % p.ny, site / (static_cast<GlobalOrdinal>(p.nx) * p.ny)};
    for (int j = 0; j < 3; ++j) {
      const bool periodic = j < 2 && p.periodic_xy;
      // H_{n, n-e_j} = hop (the serial loop's forward bond from n - e_j) and
      // H_{n, n+e_j} = hop^H (its backward bond from n + e_j).
      for (int dir : {-1, +1}) {
        long long d[3] = {c[0], c[1], c[2]};
        d[j] = c[j] + dir;
        if (d[j] < 0 || d[j] >= n[j]) {
          if (!periodic) continue;
          d[j] = (d[j] + n[j]) % n[j];
        }
        const GlobalOrdinal other = d[0] + static_cast<GlobalOrdinal>(p.nx) * (d[1] + static_cast<GlobalOrdinal>(p.ny) * d[2]);
        for (int b = 0; b < 4; ++b) add(row, other, b, dir < 0 ? hop[j][a][b] : std::conj(hop[j][b][a]));
      }
    }
  }
  return impl::assemble_local_rows(rows, rows, rank, triplets);
}

}  // namespace kelp::dist
