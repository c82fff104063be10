#pragma once
/// The parameters of GMRES(m) and FGMRES(m).

#include <string>

#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// How each new Krylov vector is orthogonalised against the basis.
enum class Orthogonalization {
  cgs2,  ///< classical Gram-Schmidt applied twice: 2 block reductions (gram) + 1 norm per step
  mgs,   ///< modified Gram-Schmidt: j + 1 dot products + 1 norm in step j (more messages)
};

inline std::string to_string(Orthogonalization o) { return o == Orthogonalization::cgs2 ? "cgs2" : "mgs"; }

/// Stopping rules plus the restart length, the orthogonalisation and flexibility.
struct GmresParams : StoppingRules {
  /// Krylov vectors per cycle (m of GMRES(m)), >= 1. Memory: m + 1 vectors (2m + 1 flexible).
  int restart = 30;
  Orthogonalization orthogonalization = Orthogonalization::cgs2;
  /// FGMRES (Saad 1993): keeps Z_j = M_j^{-1} v_j, so M may change between applications (an
  /// inner solver run to a tolerance). Required for variable preconditioners.
  bool flexible = false;
};

}  // namespace kelp::solvers
