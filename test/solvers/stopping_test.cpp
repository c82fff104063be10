// The shared stopping rules (solvers/stopping.hpp): tolerance references, divergence,
// stagnation, the time limit, parameter checks, and CG routed through them.
#include <gtest/gtest.h>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/stopping.hpp"
#include "test/solvers/krylov_helpers.hpp"
#include "test/support/expect.hpp"
#include "test/support/residual.hpp"

namespace kelp::stopping_test {
namespace {

using solvers::StopReason;
using solvers::StoppingRules;
using solvers::StoppingState;

TEST(Stopping, ToleranceRelativeToTheRhsOrTheInitialResidual) {
  StoppingRules rules;
  rules.relative_tolerance = 1e-3;
  StoppingState rhs(rules, 10.0);
  rhs.set_initial_residual(100.0);
  EXPECT_DOUBLE_EQ(rhs.tolerance(), 1e-2);
  rules.relative_to = solvers::ToleranceReference::initial_residual;
  StoppingState r0(rules, 10.0);
  r0.set_initial_residual(100.0);
  EXPECT_DOUBLE_EQ(r0.tolerance(), 1e-1);
  StopReason reason = StopReason::max_iterations;
  EXPECT_TRUE(r0.converged(0.05, reason));
  EXPECT_EQ(reason, StopReason::converged_relative);
  rules.absolute_tolerance = 1.0;
  StoppingState abs(rules, 10.0);
  abs.set_initial_residual(100.0);
  EXPECT_TRUE(abs.converged(0.5, reason));
  EXPECT_EQ(reason, StopReason::converged_absolute);
}

TEST(Stopping, DivergenceStagnationAndNonFinite) {
  StoppingRules rules;
  rules.divergence_tolerance = 1e3;
  rules.stagnation_window = 3;
  StoppingState s(rules, 1.0);
  s.set_initial_residual(1.0);
  StopReason reason = StopReason::max_iterations;
  EXPECT_FALSE(s.must_stop(1, 0.5, reason));
  EXPECT_FALSE(s.must_stop(2, 0.4999999, reason));  // no real progress from here on
  EXPECT_FALSE(s.must_stop(3, 0.4999999, reason));
  EXPECT_TRUE(s.must_stop(4, 0.4999999, reason));
  EXPECT_EQ(reason, StopReason::stagnated);
  StoppingState d(rules, 1.0);
  d.set_initial_residual(1.0);
  EXPECT_TRUE(d.must_stop(1, 2e3, reason));
  EXPECT_EQ(reason, StopReason::diverged);
  EXPECT_TRUE(d.must_stop(1, std::nan(""), reason));
  EXPECT_EQ(reason, StopReason::non_finite);
  EXPECT_EQ(solvers::to_string(StopReason::time_limit), "time_limit");
}

TEST(Stopping, RejectsRulesOutOfRange) {
  StoppingRules rules;
  rules.divergence_tolerance = 0.5;
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::check_stopping_rules(rules, "here"); }, "here: divergence_tolerance = 0.5");
  rules = StoppingRules{};
  rules.stagnation_window = -1;
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::check_stopping_rules(rules, "here"); }, "stagnation_window");
  rules = StoppingRules{};
  rules.time_limit_seconds = -1;
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::check_stopping_rules(rules, "here"); }, "time_limit_seconds");
}

TEST(Stopping, CgUsesTheSharedRules) {
  auto A = generators::laplace3d<double>(12, 12, 12);
  auto b = test::rhs_of_ones(A);
  VectorView<double> x("x", A.num_rows());
  solvers::CgParams params;
  params.time_limit_seconds = 1e-12;
  auto result = solvers::Cg<double>(test::op_of(A), test::jacobi_of(A), params).solve(b, x, InitialGuess::zero);
  EXPECT_EQ(result.reason, StopReason::time_limit);
  EXPECT_EQ(result.iterations, 1);

  // Relative to ||r_0||: from x0 = 0.9 * ones the tolerance is 10x smaller than relative to ||b||.
  params = solvers::CgParams{};
  params.relative_tolerance = 1e-6;
  params.relative_to = solvers::ToleranceReference::initial_residual;
  Kokkos::deep_copy(x, 0.9);
  result = solvers::Cg<double>(test::op_of(A), test::jacobi_of(A), params).solve(b, x);
  EXPECT_EQ(result.reason, StopReason::converged_relative);
  EXPECT_LE(result.residual_norm, 1e-6 * result.initial_residual_norm);
  EXPECT_NEAR(result.initial_residual_norm, 0.1 * result.rhs_norm, 1e-12 * result.rhs_norm);
}

}  // namespace
}  // namespace kelp::stopping_test
