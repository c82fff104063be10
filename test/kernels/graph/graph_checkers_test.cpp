// The graph checkers on hand-made valid and invalid inputs, and the pattern helpers
// (transpose, symmetrize, strength graph, coarse graph) against hand-computed results.
#include <gtest/gtest.h>

#include "kelp/kernels/generators/generators.hpp"
#include "test/kernels/graph/graph_helpers.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"

namespace kelp::graph_checkers_test {
namespace {

using test::Graph;
using test::graph_from;
using test::view_of;

// 0 - 1 - 2 - 3 (a path), with a self loop on 2.
Graph path4() { return graph_from({{1}, {0, 2}, {1, 2, 3}, {2}}); }

TEST(GraphCheckers, Distance1AcceptsAValidColoringAndRejectsAMonochromaticEdge) {
  const auto g = path4();

  const auto good = kernels::is_valid_coloring_distance1(g, view_of({0, 1, 0, 1}));
  const auto bad = kernels::is_valid_coloring_distance1(g, view_of({0, 1, 1, 0}));
  const auto uncolored = kernels::is_valid_coloring_distance1(g, view_of({0, 1, -1, 1}));
  const auto short_colors = kernels::is_valid_coloring_distance1(g, view_of({0, 1, 0}));

  EXPECT_TRUE(good) << good.reason;
  EXPECT_FALSE(bad);
  EXPECT_NE(bad.reason.find("vertices 1 and 2 are adjacent and both have color 1"), std::string::npos) << bad.reason;
  EXPECT_FALSE(uncolored);
  EXPECT_FALSE(short_colors);
}

TEST(GraphCheckers, Distance2RejectsEqualColorsTwoHopsApart) {
  const auto g = path4();

  const auto good = kernels::is_valid_coloring_distance2(g, view_of({0, 1, 2, 0}));
  const auto bad = kernels::is_valid_coloring_distance2(g, view_of({0, 1, 0, 2}));
  const auto adjacent = kernels::is_valid_coloring_distance2(g, view_of({0, 0, 1, 2}));

  EXPECT_TRUE(good) << good.reason;
  EXPECT_FALSE(bad);
  EXPECT_NE(bad.reason.find("two hops apart"), std::string::npos) << bad.reason;
  EXPECT_FALSE(adjacent);
}

TEST(GraphCheckers, BipartiteRejectsRowsSharingAColumnAndColumnsSharingARow) {
  // 3 x 4: rows 0 and 2 share column 3; columns 0 and 1 share row 0.
  const auto a = graph_from(3, 4, {{0, 1, 3}, {2}, {3}});

  EXPECT_TRUE(kernels::is_valid_coloring_bipartite(a, view_of({0, 0, 1})));
  EXPECT_FALSE(kernels::is_valid_coloring_bipartite(a, view_of({0, 1, 0})));
  EXPECT_TRUE(kernels::is_valid_coloring_bipartite(a, view_of({0, 1, 0, 2}), true));
  EXPECT_FALSE(kernels::is_valid_coloring_bipartite(a, view_of({0, 0, 1, 2}), true));
  EXPECT_FALSE(kernels::is_valid_coloring_bipartite(a, view_of({0, 1, 0}), true));  // 3 colors, 4 columns
}

TEST(GraphCheckers, Mis2RejectsDependentNonMaximalAndMalformedSets) {
  // Path 0 - 1 - 2 - 3 - 4 - 5.
  const auto g = graph_from({{1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4}});

  EXPECT_TRUE(kernels::is_mis2(g, view_of({0, 3})));
  EXPECT_TRUE(kernels::is_mis2(g, view_of({1, 4})));
  const auto dependent = kernels::is_mis2(g, view_of({0, 2, 5}));
  EXPECT_FALSE(dependent);
  EXPECT_NE(dependent.reason.find("not independent"), std::string::npos) << dependent.reason;
  const auto not_maximal = kernels::is_mis2(g, view_of({0}));
  EXPECT_FALSE(not_maximal);
  EXPECT_NE(not_maximal.reason.find("not maximal: vertex 3"), std::string::npos) << not_maximal.reason;
  EXPECT_FALSE(kernels::is_mis2(g, view_of({0, 0, 3})));
  EXPECT_FALSE(kernels::is_mis2(g, view_of({0, 6})));
  EXPECT_FALSE(kernels::is_mis2(g, view_of({0, 1})));  // adjacent
  // Edges stored twice (legal input for the kernels): one set vertex is still one.
  const auto doubled = graph_from({{1, 1}, {0, 0, 2}, {1, 3, 3}, {2, 2, 4}, {3, 5}, {4, 4}});
  EXPECT_TRUE(kernels::is_mis2(doubled, view_of({0, 3})));
  EXPECT_TRUE(kernels::is_mis2(doubled, view_of({1, 4})));
  EXPECT_FALSE(kernels::is_mis2(doubled, view_of({0, 2, 5})));
}

TEST(GraphCheckers, AggregationRejectsDisconnectedEmptyAndOutOfRangeAggregates) {
  const auto g = graph_from({{1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4}});

  EXPECT_TRUE(kernels::is_valid_aggregation(g, view_of({0, 0, 0, 1, 1, 1}), 2));
  const auto disconnected = kernels::is_valid_aggregation(g, view_of({0, 1, 0, 1, 1, 1}), 2);
  EXPECT_FALSE(disconnected);
  EXPECT_NE(disconnected.reason.find("aggregate 0 is not connected"), std::string::npos) << disconnected.reason;
  const auto empty = kernels::is_valid_aggregation(g, view_of({0, 0, 0, 2, 2, 2}), 3);
  EXPECT_FALSE(empty);
  EXPECT_NE(empty.reason.find("aggregate 1 is empty"), std::string::npos) << empty.reason;
  EXPECT_FALSE(kernels::is_valid_aggregation(g, view_of({0, 0, 0, 1, 1, 2}), 2));
  EXPECT_FALSE(kernels::is_valid_aggregation(g, view_of({0, 0, 0, 1, 1, -1}), 2));
  EXPECT_FALSE(kernels::is_valid_aggregation(g, view_of({0, 0, 0, 1, 1}), 2));
}

TEST(GraphCheckers, RejectMalformedGraphs) {
  const auto bad_column = graph_from(2, 2, {{1}, {2}});

  test::expect_throw_containing<InvalidArgument>(
      [&] { (void)kernels::is_valid_coloring_distance1(bad_column, view_of({0, 1})); },
      "kelp::kernels::is_valid_coloring_distance1: malformed graph at row 1");
}

TEST(GraphPatterns, TransposeOfARectangularPatternMergesDuplicates) {
  const auto a = graph_from(2, 3, {{2, 0, 2}, {1, 1}});

  const auto t = kernels::transpose(a);

  EXPECT_EQ(t.num_rows(), 3);
  EXPECT_EQ(t.num_cols(), 2);
  EXPECT_EQ(test::rows_of(t), (std::vector<std::vector<Ordinal>>{{0}, {1}, {0}}));
}

TEST(GraphPatterns, SymmetrizeAddsTheTransposeAndDropsSelfLoops) {
  const auto g = graph_from({{0, 2}, {1}, {2, 1}, {}});

  const auto s = kernels::symmetrize(g);

  EXPECT_EQ(test::rows_of(s), (std::vector<std::vector<Ordinal>>{{2}, {2}, {0, 1}, {}}));
}

TEST(GraphPatterns, SymmetrizeOfTheEmptyGraph) {
  const auto s = kernels::symmetrize(graph_from({}));

  EXPECT_EQ(s.num_rows(), 0);
  EXPECT_EQ(s.nnz(), 0);
}

TEST(GraphPatterns, SymmetrizeRejectsNonSquareAndBadColumns) {
  test::expect_throw_containing<DimensionMismatch>(
      [] { (void)kernels::symmetrize(graph_from(2, 3, {{0}, {2}})); },
      "kelp::kernels::symmetrize: the graph must be square: it is 2 x 3");
  test::expect_throw_containing<InvalidArgument>(
      [] { (void)kernels::symmetrize(graph_from(2, 2, {{0}, {-1}})); }, "malformed graph at row 1");
}

TEST(GraphPatterns, StrengthGraphDropsWeakConnections) {
  // a_01 = -1 is strong for theta = 0.25 (1 >= 0.0625 * 4 * 4); a_12 = -0.1 is weak
  // (0.01 < 0.0625 * 4 * 1); the diagonal never appears.
  const auto A = test::crs_from_dense<double>({{4, -1, 0}, {-1, 4, -0.1}, {0, -0.1, 1}});

  const auto strong = kernels::strength_graph(A, 0.25);
  const auto all = kernels::strength_graph(A, 0.0);

  EXPECT_EQ(test::rows_of(strong), (std::vector<std::vector<Ordinal>>{{1}, {0}, {}}));
  EXPECT_EQ(test::rows_of(all), (std::vector<std::vector<Ordinal>>{{1}, {0, 2}, {1}}));
  test::expect_throw_containing<InvalidArgument>([&] { (void)kernels::strength_graph(A, 1.5); },
                                                 "theta = 1.5 is outside [0, 1)");
}

TEST(GraphPatterns, StrengthGraphOfAComplexMatrix) {
  using C = Kokkos::complex<double>;
  // |a_01|^2 = 1 against theta^2 * 16: strong for theta = 0.2, weak for 0.3.
  const auto A = crs_from_coo<C>(2, 2, std::vector<Ordinal>{0, 0, 1, 1}, std::vector<Ordinal>{0, 1, 0, 1},
                                 std::vector<C>{C(4, 0), C(0, -1), C(0, 1), C(4, 0)});

  EXPECT_EQ(test::rows_of(kernels::strength_graph(A, 0.2)), (std::vector<std::vector<Ordinal>>{{1}, {0}}));
  EXPECT_EQ(test::rows_of(kernels::strength_graph(A, 0.3)), (std::vector<std::vector<Ordinal>>{{}, {}}));
}

// The criterion holds for A scaled by any factor: its squares under- or overflowed at 1e-170
// and 1e170, where inf >= inf and 0 >= 0 made every weak entry strong.
TEST(GraphPatterns, StrengthGraphIsScaleInvariant) {
  using C = Kokkos::complex<double>;
  for (const double scale : {1.0, 1e-170, 1e170, 1e-300, 1e300}) {
    // a_01 = 0.1: weak for theta = 0.5 (0.1 < 0.5); a_12 = 0.6: strong (0.6 >= 0.5).
    const auto A = test::crs_from_dense<double>({{scale, 0.1 * scale, 0}, {0.1 * scale, scale, 0.6 * scale},
                                                 {0, 0.6 * scale, scale}});
    const auto Z = crs_from_coo<C>(2, 2, std::vector<Ordinal>{0, 0, 1, 1}, std::vector<Ordinal>{0, 1, 0, 1},
                                   std::vector<C>{C(scale, 0), C(0, 0.1 * scale), C(0, -0.1 * scale), C(0, scale)});
    EXPECT_EQ(test::rows_of(kernels::strength_graph(A, 0.5)), (std::vector<std::vector<Ordinal>>{{}, {2}, {1}}))
        << scale;
    EXPECT_EQ(test::rows_of(kernels::strength_graph(Z, 0.5)), (std::vector<std::vector<Ordinal>>{{}, {}})) << scale;
    EXPECT_EQ(test::rows_of(kernels::strength_graph(Z, 0.05)), (std::vector<std::vector<Ordinal>>{{1}, {0}})) << scale;
  }
}

TEST(GraphPatterns, CoarseGraphOfAPathOfThreeAggregates) {
  const auto g = graph_from({{1}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4}});
  kernels::Aggregation<> aggregation{view_of({0, 0, 1, 1, 2, 2}), 3};

  const auto c = kernels::coarse_graph(g, aggregation);

  EXPECT_EQ(test::rows_of(c), (std::vector<std::vector<Ordinal>>{{1}, {0, 2}, {1}}));
  aggregation.aggregates = view_of({0, 0, 1, 1, 2, 3});
  test::expect_throw_containing<InvalidArgument>([&] { (void)kernels::coarse_graph(g, aggregation); },
                                                 "1 aggregate labels outside [0, 3)");
}

}  // namespace
}  // namespace kelp::graph_checkers_test
