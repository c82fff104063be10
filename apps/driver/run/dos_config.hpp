#pragma once
/// The `dos` section of a run configuration (task: dos): a KPM density of states.
///
///   task: dos
///   problem:
///     scalar: complex
///     generator: {type: topological_insulator, nx: 8, ny: 8, nz: 4, disorder: 1.0}
///   dos:
///     num_moments: 256
///     num_vectors: 16
///     seed: 42
///     random_vector: random_phase      # rademacher | random_phase (complex only)
///     trace: stochastic                # stochastic | exact (all N basis vectors)
///     implementation: blocked          # naive | augmented | blocked
///     block_size: 16                   # vectors per block; capped at the vectors (the summary says so)
///     row_order: natural               # natural | locality (rows grouped into compact parts)
///     locality_part_rows: 0            # rows per part of the locality order; 0: automatic
///     kernel: jackson                  # jackson | lorentz
///     lorentz_lambda: 4.0
///     bounds: lanczos                  # lanczos | gershgorin
///     lanczos_steps: 30
///     safety_margin: 0.01
///     growth_tolerance: 1.0e-6
///     hermitian_tolerance: 1.0e-12
///     energy_min: -4.0                 # both absent (default): the spectral bounds
///     energy_max: 4.0                  # equal ends: that one energy (num_energies: 1)
///     num_energies: 201
///     csv: dos.csv                     # energy,density,density_error; "" writes none
///
/// The keys are KpmParams' fields (solvers/kpm/kpm_params.hpp) and the energy grid's.

#include <optional>
#include <string>

#include "kelp/apps/driver/config/fields.hpp"
#include "kelp/solvers/kpm/kpm.hpp"

namespace kelp::solvers {

struct DosConfig {
  KpmParams params;
  /// Seed of the random vectors (a config integer; KpmParams::seed). Default 42.
  long long seed = 42;
  /// The energy grid: num_energies points from energy_min to energy_max. Both unset (the
  /// default: keys absent): the grid spans the spectral bounds found by the run (for a
  /// single-point spectrum c, [c - max(1, |c|), c + max(1, |c|)]: kpm_scaled_bounds). Given, they
  /// come together; equal ends mean that one energy and need num_energies: 1.
  std::optional<double> energy_min;
  std::optional<double> energy_max;
  /// Points of the energy grid (>= 1). Default 201.
  int num_energies = 201;
  /// Path of the CSV output (energy,density,density_error), relative to the working directory;
  /// empty (default) writes none.
  std::string csv;
};

void dos_config_fields(config::FieldVisitor& v, DosConfig& config);

/// What the dos task computed (RunResult::dos; empty for other tasks).
struct DosOutcome {
  KpmDosResult result;
};

}  // namespace kelp::solvers
