#pragma once
/// The `dos` task of the run driver (an entry of task_table()): the KPM density of states of the
/// problem's matrix (solvers/kpm/kpm.hpp).

#include <iosfwd>
#include <string>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// Builds the problem's Hermitian matrix (problem.scalar double or complex), runs kpm_dos on the energy
/// grid of the dos section (a timed phase), prints the bounds, the moments' time and a coarse
/// table, writes dos.csv when set, and fills RunResult::dos (the JSON report then holds the
/// energies and rho, enough to plot the DOS later).
/// @throws NotSupported for problem.scalar float; InvalidArgument / NumericalError from kpm_dos
RunResult run_dos_task(const RunConfig& config, std::ostream& out);

/// The energy grid of the dos section: num_energies points from energy_min to energy_max, or,
/// when they are unset, over kpm_scaled_bounds(bounds) (shared with the distributed dos task).
/// num_energies: 1 without ends gives the lower bound.
/// @throws InvalidArgument when the grid's width overflows a double
std::vector<double> dos_energy_grid(const DosConfig& d, const SpectralBounds& bounds);

/// "block W": the vectors per block that the run takes (kpm_block_width). When block_size
/// exceeds the run's vectors it says so, so that the summary names what ran, not only what
/// was asked for.
std::string dos_block_summary(const KpmParams& p, long long num_rows);

/// Writes dos.csv (energy,density,density_error). @throws FileError when it cannot
void write_dos_csv(const std::string& path, const KpmDosResult& r);

}  // namespace kelp::solvers
