#pragma once
/// Thread binding for Kelp's executables on the OpenMP backend.

namespace kelp::solvers {

/// When OMP_PROC_BIND is unset, sets OMP_PROC_BIND=spread and OMP_PLACES=threads (what Kokkos'
/// OpenMP backend asks for) and restarts the program with them, before Kokkos starts.
///
/// The OpenMP runtime reads its environment when it is loaded, before main(), so setting the
/// variables in-process would only hide Kokkos' warning (printed on standard output, where it
/// mixes with `kelp info` or a benchmark's JSON lines) without binding a single thread. A user's
/// own OMP_PROC_BIND, even `false`, is always kept. No-op without the OpenMP backend, or when the
/// restart fails (the program then goes on unbound, and Kokkos warns as before).
/// @param[in] argv  main()'s argv, passed on unchanged
void bind_threads_or_restart(char* argv[]);

}  // namespace kelp::solvers
