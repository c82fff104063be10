#include "kelp/apps/driver/run/build_info.hpp"

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <sstream>

#include "kelp_build_info.hpp"  // generated: KELP_VERSION_STRING, KELP_GIT_REVISION

namespace kelp::solvers {

namespace {
const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}
}  // namespace

namespace {

std::string kokkos_version() {
  std::ostringstream out;
  out << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "." << KOKKOS_VERSION % 100;
  return out.str();
}

/// The backends compiled into Kokkos, as Kokkos names its execution spaces.
std::string kokkos_backends() {
  std::string list;
  const auto add = [&list](const char* name) { list += (list.empty() ? "" : ", ") + std::string(name); };
#ifdef KOKKOS_ENABLE_SERIAL
  add("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  add("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  add("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  add("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  add("SYCL");
#endif
  (void)add;
  return "[" + list + "]";
}

std::string gpu() {
#ifdef KOKKOS_ENABLE_CUDA
  const int device = Kokkos::Cuda().cuda_device();
  cudaDeviceProp properties;
  if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    return "CUDA device " + std::to_string(device) + " (properties unavailable)";
  }
  std::ostringstream out;
  out.precision(3);
  out << properties.name << " (CUDA device " << device << ", compute capability "
      << properties.major << "." << properties.minor << ", "
      << static_cast<double>(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0) << " GiB)";
  return out.str();
#else
  return "none";
#endif
}

}  // namespace

std::string version_line() {
  return std::string("kelp ") + KELP_VERSION_STRING + " (git " + KELP_GIT_REVISION + ")";
}

std::string build_info() {
  std::ostringstream out;
  out << version_line() << "\n"
      << "version: " << KELP_VERSION_STRING << "\n"
      << "git revision: " << KELP_GIT_REVISION << "\n"
      << "kokkos: " << kokkos_version() << "\n"
      << "kokkos backends: " << kokkos_backends() << "\n"
      << "default execution space: " << Kokkos::DefaultExecutionSpace::name() << "\n"
      << "host execution space: " << Kokkos::DefaultHostExecutionSpace::name() << "\n"
      << "host threads: " << Kokkos::DefaultHostExecutionSpace().concurrency() << "\n"
      << "thread binding: OMP_PROC_BIND=" << env_or("OMP_PROC_BIND", "(unset)")
      << ", OMP_PLACES=" << env_or("OMP_PLACES", "(unset)") << "\n"
      << "gpu: " << gpu() << "\n";
  return out.str();
}

}  // namespace kelp::solvers
