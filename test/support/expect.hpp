#pragma once
// Assertion helpers shared by the tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace kelp::test {

/// Expects `fn` to throw exactly an `Exception` (or a subclass) whose message contains `needle`.
template <class Exception>
void expect_throw_containing(const std::function<void()>& fn, const std::string& needle) {
  try {
    fn();
  } catch (const Exception& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message was: " << e.what() << "\nexpected it to contain: " << needle;
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw the wrong exception type; message: " << e.what();
    return;
  }
  ADD_FAILURE() << "expected an exception containing: " << needle;
}

/// Whether an iteration count lies in the band around the count pinned for a problem:
/// |actual - pinned| <= max(3, 10 % of pinned). Wide enough for the rounding differences between
/// thread counts, SpMV algorithms and GPUs; narrow enough that a slower (or suspiciously faster)
/// convergence fails. Use as EXPECT_TRUE(test::iterations_near(result.iterations, 935)).
inline ::testing::AssertionResult iterations_near(int actual, int pinned) {
  const int band = std::max(3, static_cast<int>(std::ceil(0.1 * pinned)));
  if (std::abs(actual - pinned) <= band) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " iterations, pinned " << pinned << " +- "
                                       << band;
}

/// Whether an iteration count lies in the band around the counts of several reference runs that
/// differ only in rounding (e.g. the summation order of their inner products): at most
/// max(3, 10 %) below the least or above the largest. A rounding-sensitive solver (BiCGStab on a
/// hard matrix) moves by more than 10 % between summation orders alone, so one sequential count
/// is no fair pin there, while the spread of the references still bounds a correct solver.
inline ::testing::AssertionResult iterations_within(int actual, const std::vector<int>& references) {
  const int low = *std::min_element(references.begin(), references.end());
  const int high = *std::max_element(references.begin(), references.end());
  if (iterations_near(actual, low) || iterations_near(actual, high) || (actual >= low && actual <= high)) {
    return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure() << actual << " iterations; the references took";
  for (const int r : references) failure << " " << r;
  return failure << " (band: max(3, 10 %) around them)";
}

}  // namespace kelp::test
