#include "kelp/apps/driver/run/thread_binding.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>

namespace kelp::solvers {

void bind_threads_or_restart(char* argv[]) {
#if defined(KOKKOS_ENABLE_OPENMP)
  if (std::getenv("OMP_PROC_BIND") != nullptr) return;
  setenv("OMP_PROC_BIND", "spread", 1);
  if (std::getenv("OMP_PLACES") == nullptr) setenv("OMP_PLACES", "threads", 1);
  execv("/proc/self/exe", argv);  // returns only on failure: go on as before, unbound
  unsetenv("OMP_PROC_BIND");
#else
  (void)argv;
#endif
}

}  // namespace kelp::solvers
