#ifdef KELP_HAVE_MPI
#include "kelp/apps/driver/run/dist_preconditioner.hpp"

#include "kelp/apps/driver/registry/components/additive_schwarz.hpp"
#include "kelp/distributed/additive_schwarz.hpp"
#include "kelp/distributed/collective_error.hpp"

namespace kelp::solvers {

namespace {
constexpr const char* where = "kelp::solvers::run_distributed_solve";

}  // namespace

// A serial run said "row 9" where two ranks said "row 4" of the same matrix: the name now says
// where the block lies.
std::string local_block_name(MPI_Comm comm, const dist::RowPartition& rows, std::string matrix_name) {
  if (matrix_name.rfind("matrix ", 0) == 0) matrix_name.erase(0, 7);  // "matrix FILE": the file
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return matrix_name + ", the local block of rank " + std::to_string(rank) + ": its row r is row " +
         std::to_string(rows.begin(rank)) + " + r of the distributed matrix (rows in the order of the partition)";
}

template <class Scalar>
DistPreconditioner<Scalar> make_dist_preconditioner(const ComponentSpec& spec, const std::string& solver_type,
                                                    std::shared_ptr<const dist::DistCrsMatrix<Scalar>> A,
                                                    const std::string& matrix_name) {
  const MPI_Comm comm = A->communicator();
  DistPreconditioner<Scalar> out;
  if (spec.type() != "additive_schwarz") {
    // The preconditioner on this rank's local block (block Jacobi over the ranks, additive
    // Schwarz without overlap); local work, so its errors are made collective.
    PreconditionerPointer<Scalar> M;
    dist::collective_try(comm, where, [&] {
      M = preconditioner_registry().build<Scalar>(spec, NamedMatrix<Scalar>{A->local_block(), local_block_name(comm, A->row_partition(), matrix_name)});
    });
    out.op = M;
    out.setup_symbolic = [M, A] { dist::collective_try(A->communicator(), where, [&] { M->setup_symbolic(A->local_block()); }); };
    out.setup_numeric = [M, A] { dist::collective_try(A->communicator(), where, [&] { M->setup_numeric(A->local_block()); }); };
    out.note = " (preconditioner on each rank's local block)";
    return out;
  }
  const auto& c = spec.params<components::AdditiveSchwarzConfig>();
  dist::AdditiveSchwarzParams params;
  params.overlap = c.overlap;
  params.variant = components::schwarz_symmetric(c.variant, solver_type) ? dist::SchwarzVariant::symmetric
                                                                         : dist::SchwarzVariant::restricted;
  const ComponentSpec local = c.local;
  std::string name = matrix_name;
  if (name.rfind("matrix ", 0) == 0) name.erase(0, 7);  // "matrix FILE": the file
  name += ", the overlapping subdomain of one rank (rows numbered within the subdomain)";
  auto M = std::make_shared<dist::AdditiveSchwarz<Scalar>>(params, [local, name](const ConfigMatrix<Scalar>& sub) {
    return std::shared_ptr<ConfigPreconditioner<Scalar>>(
        preconditioner_registry().build<Scalar>(local, NamedMatrix<Scalar>{sub, name}));
  });
  out.op = M;
  // AdditiveSchwarz makes its own errors collective.
  out.setup_symbolic = [M, A] { M->setup_symbolic(*A); };
  out.setup_numeric = [M, A] { M->setup_numeric(*A); };
  out.note = " (overlapping subdomains over the ranks)";
  return out;
}

#define KELP_DIST_PRECONDITIONER(S)                                                                        \
  template DistPreconditioner<S> make_dist_preconditioner<S>(const ComponentSpec&, const std::string&,      \
                                                             std::shared_ptr<const dist::DistCrsMatrix<S>>, \
                                                             const std::string&);
KELP_DIST_PRECONDITIONER(float)
KELP_DIST_PRECONDITIONER(double)
KELP_DIST_PRECONDITIONER(Kokkos::complex<double>)

}  // namespace kelp::solvers
#endif
