// Kokkos ownership inside a host code that owns Kokkos: the test main initialised it, so no
// Kelp guard or call may stop it.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/scope_guard.hpp"

namespace kelp::scope_guard_test {
namespace {

struct AddIndex {
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& sum) const { sum += i; }
};

/// 0 + 1 + ... + (n - 1) on the default execution space (the device on a GPU build).
int sum_of_first(int n) {
  int sum = 0;
  Kokkos::parallel_reduce("kelp::test::sum_of_first", Kokkos::RangePolicy<>(0, n), AddIndex{}, sum);
  return sum;
}

TEST(ScopeGuard, LeavesAKokkosItDidNotStartRunning) {
  ASSERT_TRUE(Kokkos::is_initialized());  // started by the test main, the "host code"

  bool guard_owned = true;
  {
    ScopeGuard guard;
    guard_owned = guard.owns_kokkos();
  }

  EXPECT_FALSE(guard_owned);
  EXPECT_FALSE(owns_kokkos());
  EXPECT_TRUE(Kokkos::is_initialized());
}

TEST(ScopeGuard, InitializeAndFinalizeDoNothingToTheHostsKokkos) {
  int argc = 1;
  char name[] = "kelp_test";
  char* argv[] = {name, nullptr};

  const bool started = initialize(argc, argv);
  const bool stopped = finalize();

  EXPECT_FALSE(started);
  EXPECT_FALSE(stopped);
  EXPECT_EQ(argc, 1);
  EXPECT_TRUE(Kokkos::is_initialized());
  EXPECT_EQ(sum_of_first(100), 4950);  // and it still runs kernels
}

}  // namespace
}  // namespace kelp::scope_guard_test
