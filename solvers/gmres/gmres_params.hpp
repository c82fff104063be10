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

/// Which side of A the preconditioner M is applied on.
enum class PreconditionerSide {
  right,  ///< A M^{-1} u = b, x = M^{-1} u: minimises the true residual ||b - A x||
  left,   ///< M^{-1} A x = M^{-1} b: minimises the preconditioned residual ||M^{-1} (b - A x)||
};

inline std::string to_string(PreconditionerSide side) {
  return side == PreconditionerSide::right ? "right" : "left";
}

/// Stopping rules plus the restart length, the orthogonalisation and flexibility.
struct GmresParams : StoppingRules {
  /// Krylov vectors per cycle (m of GMRES(m)), >= 1. Memory: m + 1 vectors (2m + 1 flexible).
  int restart = 30;
  Orthogonalization orthogonalization = Orthogonalization::cgs2;
  /// FGMRES (Saad 1993): keeps Z_j = M_j^{-1} v_j, so M may change between applications (an
  /// inner solver run to a tolerance). Required for variable preconditioners.
  bool flexible = false;
  /// Right (default): the stopping test and the history use the true residual. Left: they use
  /// the preconditioned residual ||M^{-1} r|| (SolveResult::stopping_norm says so), relative to
  /// ||M^{-1} b|| or ||M^{-1} r_0||; the true residual is recomputed and reported at the end.
  /// Left needs a fixed M: flexible GMRES is right-preconditioned by construction.
  PreconditionerSide side = PreconditionerSide::right;
};

}  // namespace kelp::solvers
