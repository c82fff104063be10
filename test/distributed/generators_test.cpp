// Distributed generators (issue 14): each rank's rows of every stencil Laplacian and of the KPM
// Hamiltonians equal bitwise the same rows of the serial generator, under balanced and uneven
// partitions (empty ranks, a TI site split between ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "kelp/distributed/generators.hpp"
#include "test/distributed/local_rows_check.hpp"

namespace kelp::generators_test {
namespace {

using C = Kokkos::complex<double>;
using test::mpi_rank;
using test::mpi_size;

/// Balanced, and uneven: rank 0 gets rows [0, 5) (splits a TI site), rank 1 nothing, the rest
/// share the remainder.
std::vector<dist::RowPartition> partitions(dist::GlobalOrdinal n) {
  std::vector<dist::RowPartition> result{dist::RowPartition::balanced(n, mpi_size())};
  dist::RowPartition uneven;
  const int p = mpi_size();
  uneven.offsets.assign(static_cast<std::size_t>(p) + 1, n);
  uneven.offsets[0] = 0;
  if (p >= 2) uneven.offsets[1] = std::min<dist::GlobalOrdinal>(5, n);
  if (p >= 3) uneven.offsets[2] = uneven.offsets[1];
  for (int r = 3; r < p; ++r) uneven.offsets[static_cast<std::size_t>(r)] = uneven.offsets[2] + (n - uneven.offsets[2]) * (r - 2) / (p - 2);
  result.push_back(uneven);
  return result;
}

template <class Scalar, class Serial, class Distributed>
void expect_generator_rows(const std::string& what, const Serial& serial, const Distributed& distributed) {
  const auto H = serial();
  for (const auto& rows : partitions(H.num_rows())) {
    const auto local = distributed(rows, mpi_rank());
    test::expect_rows_equal(H, local, rows.begin(mpi_rank()), what);
  }
}

TEST(DistGenerators, StencilLaplaciansEqualTheSerialRows) {
  using generators::laplace1d;
  expect_generator_rows<double>("laplace1d", [] { return generators::laplace1d<double, HostDevice>(17); },
                                [](const auto& rows, int rank) { return dist::laplace1d<double>(17, rows, rank); });
  expect_generator_rows<double>("laplace2d", [] { return generators::laplace2d<double, HostDevice>(9, 7); },
                                [](const auto& rows, int rank) { return dist::laplace2d<double>(9, 7, rows, rank); });
  expect_generator_rows<float>("laplace2d_9pt", [] { return generators::laplace2d_9pt<float, HostDevice>(6, 5); },
                               [](const auto& rows, int rank) { return dist::laplace2d_9pt<float>(6, 5, rows, rank); });
  expect_generator_rows<double>("laplace3d", [] { return generators::laplace3d<double, HostDevice>(5, 4, 3); },
                                [](const auto& rows, int rank) { return dist::laplace3d<double>(5, 4, 3, rows, rank); });
  expect_generator_rows<C>("laplace3d_27pt", [] { return generators::laplace3d_27pt<C, HostDevice>(4, 3, 3); },
                           [](const auto& rows, int rank) { return dist::laplace3d_27pt<C>(4, 3, 3, rows, rank); });
  expect_generator_rows<double>(
      "anisotropic2d", [] { return generators::anisotropic2d<double, HostDevice>(8, 6, 0.01, 0.5); },
      [](const auto& rows, int rank) { return dist::anisotropic2d<double>(8, 6, 0.01, 0.5, rows, rank); });
  expect_generator_rows<double>(
      "convection_diffusion 3d", [] { return generators::convection_diffusion<double, HostDevice>(6, 5, 4, 1, -2, 3); },
      [](const auto& rows, int rank) { return dist::convection_diffusion<double>(6, 5, 4, 1, -2, 3, rows, rank); });
  expect_generator_rows<double>(
      "convection_diffusion 2d", [] { return generators::convection_diffusion<double, HostDevice>(7, 5, 1, 30, 0, 0); },
      [](const auto& rows, int rank) { return dist::convection_diffusion<double>(7, 5, 1, 30, 0, 0, rows, rank); });
}

TEST(DistGenerators, BalancedOverTheCommunicator) {
  const auto H = generators::laplace3d<double, HostDevice>(6, 5, 4);

  const auto local = dist::laplace3d<double>(6, 5, 4, MPI_COMM_WORLD);

  test::expect_partition_consistent(local, "laplace3d");
  test::expect_rows_equal(H, local, local.rows.begin(mpi_rank()), "laplace3d");
}

TEST(DistGenerators, TightBindingEqualsTheSerialRows) {
  for (bool periodic : {true, false}) {
    expect_generator_rows<double>(
        "tight_binding 5x4x3", [&] { return generators::tight_binding<double, HostDevice>(5, 4, 3, 1.25, periodic); },
        [&](const auto& rows, int rank) { return dist::tight_binding<double>(5, 4, 3, 1.25, periodic, rows, rank); });
  }
  expect_generator_rows<double>("tight_binding chain", [] { return generators::tight_binding<double, HostDevice>(7, 1, 1, 1.0, false); },
                                [](const auto& rows, int rank) { return dist::tight_binding<double>(7, 1, 1, 1.0, false, rows, rank); });
  expect_generator_rows<double>("tight_binding 1 site", [] { return generators::tight_binding<double, HostDevice>(1, 1, 1, 1.0, true); },
                                [](const auto& rows, int rank) { return dist::tight_binding<double>(1, 1, 1, 1.0, true, rows, rank); });
}

TEST(DistGenerators, TopologicalInsulatorEqualsTheSerialRows) {
  generators::TopologicalInsulatorParams disordered;
  disordered.nx = 4;
  disordered.ny = 3;
  disordered.nz = 3;
  disordered.disorder = 1.3;
  disordered.seed = 7;
  generators::TopologicalInsulatorParams open;
  open.nx = 3;
  open.ny = 2;
  open.nz = 2;
  open.periodic_xy = false;
  open.hopping = 0.75;

  for (const auto& params : {disordered, open}) {
    expect_generator_rows<C>("topological_insulator", [&] { return generators::topological_insulator<C, HostDevice>(params); },
                             [&](const auto& rows, int rank) { return dist::topological_insulator<C>(params, rows, rank); });
  }
}

TEST(DistGenerators, RejectsAPartitionOfTheWrongSize) {
  const auto rows = dist::RowPartition::balanced(10, mpi_size());

  EXPECT_THROW(dist::laplace2d<double>(4, 4, rows, mpi_rank()), InvalidArgument);
  EXPECT_THROW(dist::laplace2d<double>(0, 4, dist::RowPartition::balanced(0, mpi_size()), mpi_rank()), InvalidArgument);
  // Row counts that wrap a 64-bit product are refused before the partition is compared.
  const long long big = 1LL << 32;
  EXPECT_THROW(dist::laplace3d<double>(big, big, big, rows, mpi_rank()), InvalidArgument);
  EXPECT_THROW(dist::tight_binding<double>(big, big, big, 1.0, false, rows, mpi_rank()), InvalidArgument);
}

}  // namespace
}  // namespace kelp::generators_test
