#include "kelp/apps/driver/problem/input_files.hpp"

#include "kelp/kernels/io/matrix_market.hpp"

namespace kelp::solvers {

void require_scalar_fits(const std::string& key, const std::string& path, ScalarKind scalar) {
  if (scalar == ScalarKind::complex_double) return;  // every field reads into complex
  const io::MatrixMarketInfo info = with_key(key + ".file", [&] { return io::read_matrix_market_info(path); });
  KELP_REQUIRE(info.field != io::MatrixMarketField::complex, InvalidArgument,
               key << ": " << path << " holds complex values, but problem.scalar is "
                   << to_string(scalar) << "; set problem.scalar: complex");
}

template <class Scalar>
ConfigVector<Scalar> read_vector_file(const std::string& key, const std::string& path,
                                      Ordinal num_rows) {
  require_scalar_fits(key, path, scalar_kind_of<Scalar>());
  const auto file =
      with_key(key + ".file", [&] { return io::read_vector_matrix_market<Scalar, ConfigDevice>(path); });
  KELP_REQUIRE(static_cast<long long>(file.extent(0)) == static_cast<long long>(num_rows),
               DimensionMismatch,
               key << ": dimension mismatch: " << path << " has " << file.extent(0)
                   << " rows, the matrix has " << num_rows);
  // A contiguous copy: the file's column is a strided view in general.
  ConfigVector<Scalar> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::problem::" + key),
                         num_rows);
  Kokkos::deep_copy(v, file);
  return v;
}

KELP_ETI_FOR_EACH_SCALAR(KELP_DRIVER_READ_VECTOR_FILE, KELP_ETI_DEFINE)

}  // namespace kelp::solvers
