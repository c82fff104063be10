// The team kernel's row layouts (solvers/kpm/impl/kpm_team_kernel.hpp): interleaved over the
// resident teams (GPUs) and contiguous ranges (host). Every row must go to exactly one (team,
// member): a row missed is a wrong moment, a row taken twice a wrong W. Checked by enumerating
// what KpmBlockedTeamSpmmv's loop takes, on odd sizes, n < team size, n = 0 and more teams
// than passes. The GPU runs of the KPM tests (kpm_test.cpp) run the interleaved layout itself.
#include <gtest/gtest.h>

#include <vector>

#include "kelp/solvers/kpm/impl/kpm_team_kernel.hpp"

namespace kelp::kpm_team_rows_test {
namespace {

using solvers::impl::KpmTeamRows;

/// How many times each row is taken by KpmBlockedTeamSpmmv's loop for this layout.
std::vector<int> rows_taken(const KpmTeamRows& r, long long n, int team_size) {
  std::vector<int> taken(static_cast<std::size_t>(n), 0);
  for (int l = 0; l < r.league_size; ++l) {
    const long long first = l * r.team_offset;
    const long long last = first + r.team_span < n ? first + r.team_span : n;
    for (int t = 0; t < team_size; ++t) {
      for (long long i = first + t; i < last; i += r.row_step) {
        if (i < 0 || i >= n) {
          ADD_FAILURE() << "row " << i << " outside [0, " << n << ")";
          return taken;
        }
        ++taken[static_cast<std::size_t>(i)];
      }
    }
  }
  return taken;
}

void expect_each_row_once(const KpmTeamRows& r, long long n, int team_size, const char* layout) {
  ASSERT_GE(r.league_size, 1);
  ASSERT_GE(r.row_step, 1);
  const std::vector<int> taken = rows_taken(r, n, team_size);
  for (long long i = 0; i < n; ++i) {
    ASSERT_EQ(taken[static_cast<std::size_t>(i)], 1)
        << layout << ": row " << i << " of " << n << ", team size " << team_size << ", league " << r.league_size;
  }
}

TEST(KpmTeamRows, InterleavedTakesEachRowOnce) {
  for (const long long n : {0LL, 1LL, 7LL, 8LL, 255LL, 256LL, 1000LL, 4099LL, 100003LL}) {
    for (const int team_size : {1, 4, 8, 32, 256}) {
      for (const long long teams : {1LL, 3LL, 528LL, 1056LL}) {
        const KpmTeamRows r = solvers::impl::kpm_interleaved_rows(n, team_size, teams);
        expect_each_row_once(r, n, team_size, "interleaved");
        // One pass of the league covers league * team_size consecutive rows (the window).
        EXPECT_EQ(r.row_step, static_cast<long long>(r.league_size) * team_size);
        EXPECT_LE(r.league_size, teams);
      }
    }
  }
}

TEST(KpmTeamRows, InterleavedNeverLaunchesIdleTeamsBeyondOne) {
  // 10 rows, 4 members: 3 passes, so at most 3 teams however many would fit.
  const KpmTeamRows r = solvers::impl::kpm_interleaved_rows(10, 4, 528);
  EXPECT_EQ(r.league_size, 3);
  EXPECT_EQ(solvers::impl::kpm_interleaved_rows(0, 4, 528).league_size, 1);
}

TEST(KpmTeamRows, RangesTakeEachRowOnce) {
  for (const long long n : {0LL, 1LL, 7LL, 8LL, 255LL, 1000LL, 4099LL, 100003LL}) {
    for (const int team_size : {1, 4, 8, 256}) {
      for (const long long teams : {1LL, 5LL, 64LL, 8448LL}) {
        const KpmTeamRows r = solvers::impl::kpm_range_rows(n, team_size, teams);
        expect_each_row_once(r, n, team_size, "ranges");
        EXPECT_LE(r.league_size, teams);
        EXPECT_EQ(r.row_step, team_size);
      }
    }
  }
}

/// The instantiation per R: narrow for 1 and 2 vectors, quad (four vectors a lane) for the
/// multiples of 4 and paired (two a lane) for the other even widths from 8 to 64 (measured faster
/// that way), wide for every other width. A lane's group must never reach past R: an odd R is
/// never paired, and an R that is not a multiple of 4 is never quad.
TEST(KpmTeamRows, KernelKindByWidth) {
  using solvers::impl::KpmTeamKernelKind;
  using solvers::impl::kpm_team_kernel_kind;
  for (const int R : {1, 2}) EXPECT_EQ(kpm_team_kernel_kind(R), KpmTeamKernelKind::narrow) << R;
  for (const int R : {8, 12, 16, 32, 60, 64}) EXPECT_EQ(kpm_team_kernel_kind(R), KpmTeamKernelKind::quad) << R;
  for (const int R : {10, 14, 18, 34, 62}) EXPECT_EQ(kpm_team_kernel_kind(R), KpmTeamKernelKind::paired) << R;
  for (const int R : {3, 4, 5, 6, 7, 9, 33, 63, 65, 66, 68, 128}) {
    EXPECT_EQ(kpm_team_kernel_kind(R), KpmTeamKernelKind::wide) << R;
  }
}

}  // namespace
}  // namespace kelp::kpm_team_rows_test
