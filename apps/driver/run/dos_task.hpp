#pragma once
/// The `dos` task of the run driver (an entry of task_table()): the KPM density of states of the
/// problem's matrix (solvers/kpm/kpm.hpp).

#include <iosfwd>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// Builds the problem's Hermitian matrix (double or complex_double), runs kpm_dos on the energy
/// grid of the dos section (a timed phase), prints the bounds, the moments' time and a coarse
/// table, writes dos.csv when set, and fills RunResult::dos (the JSON report then holds the
/// energies and rho, enough to plot the DOS later).
/// @throws NotSupported for problem.scalar float; InvalidArgument / NumericalError from kpm_dos
RunResult run_dos_task(const RunConfig& config, std::ostream& out);

}  // namespace kelp::solvers
