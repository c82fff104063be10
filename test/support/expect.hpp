#pragma once
// Assertion helpers shared by the tests.
#include <gtest/gtest.h>

#include <functional>
#include <string>

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

}  // namespace kelp::test
