// kernels/core/team_occupancy.hpp: the carveout arithmetic (host), and that nothing is queried
// or set off CUDA. The CUDA query itself runs in the KPM team kernel's GPU tests.
#include <gtest/gtest.h>

#include "kelp/kernels/core/team_occupancy.hpp"

namespace kelp::team_occupancy_test {

using Host = Kokkos::DefaultHostExecutionSpace;

/// A team functor that is never launched (outside the anonymous namespace: nvcc warns about
/// unreferenced functions with internal linkage).
struct Probe {
  void operator()(const Kokkos::TeamPolicy<Host>::member_type&) const {}
};

namespace {

TEST(TeamOccupancy, CarveoutHoldsTheTeamsAndRoundsUp) {
  // 4 teams of 7,000 bytes of 233,472 (228 KiB): 28,000 bytes = 11.99 % -> 12 %.
  EXPECT_EQ(impl::shared_carveout_percent(4, 7000, 233472), 12);
  const int p = impl::shared_carveout_percent(5, 11300, 233472);
  EXPECT_GE(static_cast<double>(p) / 100 * 233472, 5 * 11300.0);
  EXPECT_EQ(impl::shared_carveout_percent(0, 1000, 100000), 1);   // at least one team
  EXPECT_EQ(impl::shared_carveout_percent(64, 10000, 100000), 100);  // capped
  EXPECT_EQ(impl::shared_carveout_percent(2, 1000, 0), 100);          // unknown size: Kokkos' choice
}

TEST(TeamOccupancy, NothingIsKnownOffCuda) {
  const auto o = impl::team_kernel_occupancy<Probe>(Kokkos::TeamPolicy<Host>(1, 1), 0);
  EXPECT_FALSE(o.known);
  EXPECT_EQ(o.resident_teams(), 0);
}

}  // namespace
}  // namespace kelp::team_occupancy_test
