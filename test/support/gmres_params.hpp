#pragma once
// GMRES parameters of the GMRES tests: restart, orthogonalisation, relative tolerance and an
// iteration limit high enough that the tolerance decides.
#include "kelp/solvers/gmres/gmres.hpp"

namespace kelp::test {

inline solvers::GmresParams gmres_params(int restart, solvers::Orthogonalization o,
                                         double tol = 1e-10, int max_iterations = 2000) {
  solvers::GmresParams p;
  p.restart = restart;
  p.orthogonalization = o;
  p.relative_tolerance = tol;
  p.max_iterations = max_iterations;
  return p;
}

}  // namespace kelp::test
