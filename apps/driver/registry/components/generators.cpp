#include "kelp/apps/driver/registry/components/generators.hpp"

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"

namespace kelp::solvers::components {

using config::Bounds;
using config::FieldVisitor;
using config::Presence;

namespace {
const Bounds grid_size = Bounds::at_least(1);

/// The Scalar of a ScalarTag argument.
template <class Tag>
using scalar_of = typename Tag::type;
}  // namespace

void laplace1d_fields(FieldVisitor& v, Laplace1dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
}
void laplace2d_fields(FieldVisitor& v, Laplace2dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
}
void laplace3d_fields(FieldVisitor& v, Laplace3dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("nz", p.nz, grid_size, Presence::required);
}
void anisotropic2d_fields(FieldVisitor& v, Anisotropic2dParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("epsilon", p.epsilon, Bounds::greater_than(0));
  v.field("theta", p.theta);
}
void convection_diffusion_fields(FieldVisitor& v, ConvectionDiffusionParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("nz", p.nz, grid_size);
  v.field("wx", p.wx);
  v.field("wy", p.wy);
  v.field("wz", p.wz);
}

void topological_insulator_fields(FieldVisitor& v, TopologicalInsulatorConfigParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size, Presence::required);
  v.field("nz", p.nz, grid_size, Presence::required);
  v.field("hopping", p.hopping);
  v.field("disorder", p.disorder, Bounds::at_least(0));
  v.field("seed", p.seed, Bounds::at_least(0));
  v.field("periodic_xy", p.periodic_xy);
}
void tight_binding_fields(FieldVisitor& v, TightBindingParams& p) {
  v.field("nx", p.nx, grid_size, Presence::required);
  v.field("ny", p.ny, grid_size);
  v.field("nz", p.nz, grid_size);
  v.field("hopping", p.hopping);
  v.field("periodic", p.periodic);
}

void register_generators(GeneratorRegistry& r) {
  // The generators' stencils are real; stencil_matrix converts them to the Scalar asked for.
  r.add<Laplace1dParams>("laplace1d", "1D Laplacian, 3-point stencil, SPD", laplace1d_fields,
                         [](const Laplace1dParams& p, auto tag) {
                           using S = scalar_of<decltype(tag)>;
                           return generators::laplace1d<S, ConfigDevice>(p.nx);
                         });
  r.add<Laplace2dParams>("laplace2d", "2D Laplacian, 5-point stencil, SPD", laplace2d_fields,
                         [](const Laplace2dParams& p, auto tag) {
                           using S = scalar_of<decltype(tag)>;
                           return generators::laplace2d<S, ConfigDevice>(p.nx, p.ny);
                         });
  r.add<Laplace2dParams>("laplace2d_9pt", "2D Laplacian, 9-point stencil, SPD", laplace2d_fields,
                         [](const Laplace2dParams& p, auto tag) {
                           using S = scalar_of<decltype(tag)>;
                           return generators::laplace2d_9pt<S, ConfigDevice>(p.nx, p.ny);
                         });
  r.add<Laplace3dParams>("laplace3d", "3D Laplacian, 7-point stencil, SPD", laplace3d_fields,
                         [](const Laplace3dParams& p, auto tag) {
                           using S = scalar_of<decltype(tag)>;
                           return generators::laplace3d<S, ConfigDevice>(p.nx, p.ny, p.nz);
                         });
  r.add<Laplace3dParams>("laplace3d_27pt", "3D Laplacian, 27-point stencil, SPD",
                         laplace3d_fields, [](const Laplace3dParams& p, auto tag) {
                           using S = scalar_of<decltype(tag)>;
                           return generators::laplace3d_27pt<S, ConfigDevice>(p.nx, p.ny, p.nz);
                         });
  r.add<Anisotropic2dParams>(
      "anisotropic2d", "rotated anisotropic 2D diffusion, SPD", anisotropic2d_fields,
      [](const Anisotropic2dParams& p, auto tag) {
        using S = scalar_of<decltype(tag)>;
        return generators::anisotropic2d<S, ConfigDevice>(p.nx, p.ny, p.epsilon, p.theta);
      });
  r.add<ConvectionDiffusionParams>(
      "convection_diffusion", "upwinded convection-diffusion, nonsymmetric M-matrix",
      convection_diffusion_fields, [](const ConvectionDiffusionParams& p, auto tag) {
        using S = scalar_of<decltype(tag)>;
        return generators::convection_diffusion<S, ConfigDevice>(p.nx, p.ny, p.nz, p.wx, p.wy,
                                                                 p.wz);
      });
  r.add<TopologicalInsulatorConfigParams>(
      "topological_insulator", "KPM paper's 3D topological insulator, complex Hermitian, 13 nnz/row",
      topological_insulator_fields, [](const TopologicalInsulatorConfigParams& p, auto tag) {
        using S = scalar_of<decltype(tag)>;
        if constexpr (ScalarTraits<S>::is_complex) {
          generators::TopologicalInsulatorParams q;
          q.nx = p.nx, q.ny = p.ny, q.nz = p.nz;
          q.hopping = p.hopping;
          q.disorder = p.disorder;
          q.seed = static_cast<std::uint64_t>(p.seed);
          q.periodic_xy = p.periodic_xy;
          return generators::topological_insulator<S, ConfigDevice>(q);
        } else {
          KELP_THROW(NotSupported, "kelp::generators::topological_insulator: the TI Hamiltonian "
                                   "is complex; set problem.scalar: complex");
          return CrsMatrix<S, Ordinal, Offset, ConfigDevice>();
        }
      });
  r.add<TightBindingParams>(
      "tight_binding", "nearest-neighbour tight-binding chain/square/cubic lattice, symmetric",
      tight_binding_fields, [](const TightBindingParams& p, auto tag) {
        using S = scalar_of<decltype(tag)>;
        return generators::tight_binding<S, ConfigDevice>(p.nx, p.ny, p.nz, p.hopping, p.periodic);
      });
}

}  // namespace kelp::solvers::components
