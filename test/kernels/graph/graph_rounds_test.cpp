// Round loops of the graph kernels terminate: every algorithm's round count stays within its
// bound (repeated on two threads, where speculative rounds race), the round guard throws a clear
// error on a round without progress, and the edge-based coloring needs few rounds. Also the
// second pass of MIS-2 aggregation: every vertex aggregated, aggregates connected and within
// distance 2 of a root.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "test/kernels/graph/graph_helpers.hpp"
#include "test/support/expect.hpp"

namespace kelp::graph_rounds_test {
namespace {

using test::Graph;
using test::graph_from;

TEST(GraphRounds, GuardThrowsOnARoundWithoutProgress) {
  kernels::impl::RoundGuard guard("kelp::kernels::test_kernel", 3);
  guard.record(5, 2);
  EXPECT_EQ(guard.rounds(), 1);
  test::expect_throw_containing<InvalidState>([&] { guard.record(5, 0); },
                                              "kelp::kernels::test_kernel: no progress in round 2 (5 left)");
}

TEST(GraphRounds, GuardThrowsPastTheCap) {
  kernels::impl::RoundGuard guard("kelp::kernels::test_kernel", 2);
  guard.record(3, 1);
  guard.record(2, 1);
  test::expect_throw_containing<InvalidState>([&] { guard.record(1, 1); },
                                              "kelp::kernels::test_kernel: 3 rounds, over the bound of 2");
}

/// A path of n vertices (the longest chains of priorities) and a star with a hub of degree n - 1.
std::vector<std::vector<Ordinal>> path_rows(Ordinal n) {
  std::vector<std::vector<Ordinal>> rows(n);
  for (Ordinal v = 1; v < n; ++v) {
    rows[v].push_back(v - 1);
    rows[v - 1].push_back(v);
  }
  return rows;
}

std::vector<std::vector<Ordinal>> star_rows(Ordinal n) {
  std::vector<std::vector<Ordinal>> rows(n);
  for (Ordinal v = 1; v < n; ++v) {
    rows[0].push_back(v);
    rows[v].push_back(0);
  }
  return rows;
}

TEST(GraphRounds, EveryAlgorithmStaysWithinItsRoundBound) {
  // Repeated: on two threads the speculative rounds race differently each call.
  const std::vector<std::pair<std::string, Graph>> graphs = {
      {"path", graph_from(path_rows(200))},
      {"star", graph_from(star_rows(100))},
      {"laplace3d 8", generators::laplace3d<double>(8, 8, 8).graph()},
  };
  for (const auto& [name, g] : graphs) {
    SCOPED_TRACE(name);
    const Ordinal n = g.num_rows();
    for (int repeat = 0; repeat < 3; ++repeat) {
      for (const auto algorithm : {kernels::Color1Algorithm::speculative, kernels::Color1Algorithm::deterministic,
                                   kernels::Color1Algorithm::edge_based}) {
        kernels::Color1Params params;
        params.algorithm = algorithm;
        const auto c = kernels::color_distance1(g, params);
        EXPECT_TRUE(kernels::is_valid_coloring_distance1(g, c.colors));
        EXPECT_GE(c.rounds, 1);
        EXPECT_LE(c.rounds, n);
        // Hashed priorities: the rounds follow the longest decreasing chain, far below n.
        if (algorithm != kernels::Color1Algorithm::speculative) {
          EXPECT_LE(c.rounds, 40) << "algorithm " << static_cast<int>(algorithm);
        }
      }
      for (const auto algorithm : {kernels::Color2Algorithm::vertex_based, kernels::Color2Algorithm::net_based}) {
        const auto c = kernels::color_distance2(g, kernels::Color2Params{algorithm});
        EXPECT_TRUE(kernels::is_valid_coloring_distance2(g, c.colors));
        EXPECT_LE(c.rounds, 2 * n + 1);
      }
      const auto set = kernels::mis2(g);
      EXPECT_LE(set.rounds, 40);
    }
  }
}

TEST(GraphRounds, EdgeBasedColoringNeedsFewRounds) {
  // Measured: 3 rounds and 7 colors (the deterministic coloring's 7) on 3D meshes; the earlier
  // lowest-free-color rounds needed 5-6.
  const auto g = generators::laplace3d<double>(20, 20, 20).graph();
  kernels::Color1Params params;
  params.algorithm = kernels::Color1Algorithm::edge_based;
  const auto c = kernels::color_distance1(g, params);
  EXPECT_TRUE(kernels::is_valid_coloring_distance1(g, c.colors));
  EXPECT_LE(c.rounds, 4);
  EXPECT_LE(c.num_colors, 7);
  // A path: 2 or 3 colors, few rounds.
  const auto p = kernels::color_distance1(graph_from(path_rows(2000)), params);
  EXPECT_LE(p.num_colors, 3);
  EXPECT_LE(p.rounds, 6);
}

/// Whether each aggregate has a vertex from which every member is within `radius` hops through
/// edges inside the aggregate (the root; sequential breadth-first searches).
bool aggregates_within_radius(const std::vector<std::vector<Ordinal>>& rows, const std::vector<Ordinal>& labels,
                              Ordinal num_aggregates, int radius) {
  std::vector<std::vector<Ordinal>> members(num_aggregates);
  for (std::size_t v = 0; v < labels.size(); ++v) members[labels[v]].push_back(static_cast<Ordinal>(v));
  std::vector<int> depth(rows.size(), -1);
  for (const auto& group : members) {
    bool found = false;
    for (const Ordinal root : group) {
      for (const Ordinal v : group) depth[v] = -1;
      std::vector<Ordinal> frontier = {root};
      depth[root] = 0;
      std::size_t reached = 1;
      for (int d = 1; d <= radius && !frontier.empty(); ++d) {
        std::vector<Ordinal> next;
        for (const Ordinal v : frontier) {
          for (const Ordinal u : rows[v]) {
            if (labels[u] == labels[root] && depth[u] < 0) {
              depth[u] = d;
              next.push_back(u);
              ++reached;
            }
          }
        }
        frontier.swap(next);
      }
      if (reached == group.size()) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

TEST(GraphRounds, SecondMis2PassAggregatesEveryVertexNearARoot) {
  const std::vector<std::pair<std::string, Graph>> graphs = {
      {"laplace2d 41 x 29", generators::laplace2d<double>(41, 29).graph()},
      {"laplace3d 9", generators::laplace3d<double>(9, 9, 9).graph()},
      {"path", graph_from(path_rows(301))},
      {"star", graph_from(star_rows(50))},
      {"isolated and self loops", graph_from({{}, {1, 2}, {1, 2, 3}, {2, 3}, {4}})},
  };
  for (const auto& [name, g] : graphs) {
    SCOPED_TRACE(name);
    const auto rows = test::rows_of(g);
    kernels::Mis2AggregateParams one_pass;
    one_pass.second_pass = false;
    const auto first = kernels::mis2_aggregate(g, one_pass);
    const auto second = kernels::mis2_aggregate(g);  // second pass on by default
    const auto again = kernels::mis2_aggregate(g);
    const auto check = kernels::is_valid_aggregation(g, second.aggregates, second.num_aggregates);
    EXPECT_TRUE(check) << check.reason;  // every vertex in one non-empty, connected aggregate
    EXPECT_GE(second.num_aggregates, first.num_aggregates);
    EXPECT_EQ(test::labels_of(second.aggregates), test::labels_of(again.aggregates));
    EXPECT_TRUE(aggregates_within_radius(rows, test::labels_of(second.aggregates), second.num_aggregates, 2));
    // Every second-pass root founds an aggregate, singletons included: more aggregates, the
    // same guarantees (leftovers at distance 2 from a second-pass root still join).
    kernels::Mis2AggregateParams all;
    all.min_second_pass_size = 1;
    const auto stars = kernels::mis2_aggregate(g, all);
    EXPECT_TRUE(kernels::is_valid_aggregation(g, stars.aggregates, stars.num_aggregates));
    EXPECT_GE(stars.num_aggregates, second.num_aggregates);
    EXPECT_TRUE(aggregates_within_radius(rows, test::labels_of(stars.aggregates), stars.num_aggregates, 2));
    // Without the second pass: stars around the roots and joined leftovers, radius 2 as well.
    EXPECT_TRUE(aggregates_within_radius(rows, test::labels_of(first.aggregates), first.num_aggregates, 2));
  }
  // The second pass helps where the first leaves many over: 2D meshes.
  const auto mesh = generators::laplace2d<double>(41, 29).graph();
  kernels::Mis2AggregateParams one_pass;
  one_pass.second_pass = false;
  EXPECT_GT(kernels::mis2_aggregate(mesh).num_aggregates, kernels::mis2_aggregate(mesh, one_pass).num_aggregates);
}

TEST(GraphRounds, SecondPassRejectsABadMinimumSize) {
  kernels::Mis2AggregateParams params;
  params.min_second_pass_size = 0;
  test::expect_throw_containing<InvalidArgument>(
      [&] { (void)kernels::mis2_aggregate(graph_from(path_rows(5)), params); },
      "kelp::kernels::mis2_aggregate: min_second_pass_size is 0; expected >= 1");
}

}  // namespace
}  // namespace kelp::graph_rounds_test
