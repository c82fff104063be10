#pragma once
/// How a solver or smoother uses the x it is given on entry.

#include <string>

namespace kelp {

/// zero: x is overwritten with 0 before the iteration and never read, so it may hold garbage
/// (and the first residual costs no operator application); provided: x is the initial guess.
/// Inner solvers and smoothers used as preconditioners start from zero; time-stepping codes
/// pass the previous step's solution as provided.
enum class InitialGuess { zero, provided };

inline std::string to_string(InitialGuess guess) {
  return guess == InitialGuess::zero ? "zero" : "provided";
}

}  // namespace kelp
