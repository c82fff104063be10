#pragma once
/// The component registry: maps a configuration node's `type` to a builder.
///
/// Every node that chooses an implementation has a `type`. A Registry holds, for each type, its
/// params struct (defaults), a `fields` function listing the params' keys, and a builder. Parsing
/// a node reads `type`, looks the entry up and lets the params' fields parse the rest of the node
/// strictly; the result is a ComponentSpec (type + params) that can be written back (effective
/// configuration) or built. Adding a method means adding one entry:
///
///   preconditioners.add<precond::JacobiParams>(
///       "jacobi", "point Jacobi, M^{-1} = damping * D^{-1}", jacobi_fields,
///       [](const precond::JacobiParams& p, const ConfigMatrix& A) { ... return M; });
///
/// Components whose product depends on the scalar (matrices, vectors, preconditioners,
/// solvers) live in a ScalarRegistry: one builder, a generic lambda, is compiled for float,
/// double and Kokkos::complex<double> where the component registers itself, and the run driver
/// picks one with build<Scalar>.
///
/// Specs are plain values: copyable, comparable through their written form, and independent of
/// any matrix, so a configuration can be printed without building anything.

#include <Kokkos_Core.hpp>
#include <any>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "kelp/kernels/core/error.hpp"
#include "kelp/apps/driver/config/fields.hpp"

namespace kelp::solvers {

class RegistryBase;

/// A chosen component: its type and its params (the registry entry's params struct).
class ComponentSpec {
 public:
  /// Empty spec: no component chosen.
  ComponentSpec() = default;
  ComponentSpec(const RegistryBase& registry, std::string type, std::any params)
      : registry_(&registry), type_(std::move(type)), params_(std::move(params)) {}

  bool empty() const { return registry_ == nullptr; }
  const std::string& type() const { return type_; }
  /// The registry this spec belongs to. @throws InvalidState for an empty spec
  const RegistryBase& registry() const;

  /// The params struct. @throws InvalidState when Params is not this type's params struct
  template <class Params>
  const Params& params() const {
    const Params* p = std::any_cast<Params>(&params_);
    KELP_REQUIRE(p != nullptr, InvalidState,
                 "kelp::solvers::ComponentSpec::params: '" << type_
                     << "' does not hold the requested params type");
    return *p;
  }
  template <class Params>
  Params& params() {
    return const_cast<Params&>(static_cast<const ComponentSpec&>(*this).params<Params>());
  }
  const std::any& any_params() const { return params_; }

  /// The node {type: ..., <every field>} (empty map for an empty spec).
  YAML::Node write() const;
  /// One line: "jacobi {damping: 1.0}" (or "identity").
  std::string summary() const;

 private:
  const RegistryBase* registry_ = nullptr;
  std::string type_;
  std::any params_;
};

/// The type-independent part of a registry: entries, parsing and writing.
class RegistryBase {
 public:
  /// @param[in] kind  what the components are ("preconditioner"), for messages
  explicit RegistryBase(std::string kind) : kind_(std::move(kind)) {}
  virtual ~RegistryBase() = default;
  RegistryBase(const RegistryBase&) = delete;
  RegistryBase& operator=(const RegistryBase&) = delete;

  const std::string& kind() const { return kind_; }
  /// Registered types, in registration order.
  std::vector<std::string> types() const;
  bool contains(const std::string& type) const;
  /// One-line description of a type. @throws InvalidArgument for an unknown type
  const std::string& description(const std::string& type) const;

  /// Parses a node: a map {type: T, ...T's fields} or the shorthand scalar "T" (all defaults).
  /// @throws ConfigError for a missing or unknown type, unknown keys, bad values
  ComponentSpec parse(const config::ConfigNode& node) const;
  /// A spec of `type` with default params. @throws InvalidArgument for an unknown type
  ComponentSpec make(const std::string& type) const;
  /// {type: T, fields...} of a spec of this registry.
  YAML::Node write(const ComponentSpec& spec) const;

 protected:
  struct Entry {
    std::string type;
    std::string description;
    std::function<std::any()> make_default;
    std::function<void(config::FieldVisitor&, std::any&)> visit;
  };
  void add_entry(Entry entry);
  /// The entry of a params struct: defaults and a visitor over `fields`.
  template <class Params>
  static Entry make_entry(std::string type, std::string description,
                          std::function<void(config::FieldVisitor&, Params&)> fields) {
    Entry entry;
    entry.type = std::move(type);
    entry.description = std::move(description);
    entry.make_default = [] { return std::any(Params{}); };
    entry.visit = [fields](config::FieldVisitor& v, std::any& params) {
      fields(v, std::any_cast<Params&>(params));
    };
    return entry;
  }
  /// @throws InvalidArgument when the spec is empty or belongs to another registry
  void require_own(const ComponentSpec& spec) const;
  const Entry& entry(const std::string& type) const;
  std::size_t index_of(const std::string& type) const;

 private:
  std::string kind_;
  std::vector<Entry> entries_;
};

/// A registry whose builders make a Product from a spec and BuildArgs (the matrix, ...).
template <class Product, class... BuildArgs>
class Registry : public RegistryBase {
 public:
  using RegistryBase::RegistryBase;

  /// Registers `type`. `fields(visitor, params)` lists Params' keys; `build(params, args...)`
  /// makes the product. @throws InvalidArgument when `type` is already registered
  template <class Params>
  void add(std::string type, std::string description,
           std::function<void(config::FieldVisitor&, Params&)> fields,
           std::function<Product(const Params&, BuildArgs...)> build) {
    add_entry(make_entry<Params>(std::move(type), std::move(description), std::move(fields)));
    builders_.push_back([build](const std::any& params, BuildArgs... args) {
      return build(std::any_cast<const Params&>(params), std::forward<BuildArgs>(args)...);
    });
  }

  /// Builds the component a spec of this registry describes.
  /// @throws InvalidArgument when the spec belongs to another registry
  Product build(const ComponentSpec& spec, BuildArgs... args) const {
    require_own(spec);
    return builders_[index_of(spec.type())](spec.any_params(), std::forward<BuildArgs>(args)...);
  }

 private:
  std::vector<std::function<Product(const std::any&, BuildArgs...)>> builders_;
};

/// A registry whose products depend on the scalar: build<Scalar>(spec, args...) makes a
/// Product<Scalar> from Args<Scalar>... for Scalar = float, double, Kokkos::complex<double>.
///
///   using PreconditionerRegistry =
///       ScalarRegistry<PreconditionerPointer, NamedMatrixArgument>;
///   registry.add<JacobiParams>("jacobi", "...", jacobi_fields,
///       [](const JacobiParams& p, const auto& A) {   // A: const NamedMatrix<Scalar>&
///         using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
///         return std::make_shared<precond::Jacobi<Matrix>>(p, A.name);
///       });
///   auto M = registry.build<double>(spec, named_matrix);
///
/// `add` compiles the builder for the three scalars, so a component's code is compiled once, in
/// the file that registers it.
template <template <class> class Product, template <class> class... Args>
class ScalarRegistry : public RegistryBase {
 public:
  using RegistryBase::RegistryBase;

  /// Registers `type`. `build(params, args...)` is called with the Args<Scalar>... of each
  /// standard scalar and must return a Product<Scalar> (a generic lambda, usually).
  /// @throws InvalidArgument when `type` is already registered
  template <class Params, class Build>
  void add(std::string type, std::string description,
           std::function<void(config::FieldVisitor&, Params&)> fields, Build build) {
    add_entry(make_entry<Params>(std::move(type), std::move(description), std::move(fields)));
    add_builder<Params, float>(build);
    add_builder<Params, double>(build);
    add_builder<Params, Kokkos::complex<double>>(build);
  }

  /// Builds the component a spec of this registry describes, for Scalar.
  /// @throws InvalidArgument when the spec belongs to another registry
  template <class Scalar>
  Product<Scalar> build(const ComponentSpec& spec, Args<Scalar>... args) const {
    require_own(spec);
    return std::get<Builders<Scalar>>(builders_)[index_of(spec.type())](
        spec.any_params(), std::forward<Args<Scalar>>(args)...);
  }

 private:
  template <class Scalar>
  using Builders = std::vector<std::function<Product<Scalar>(const std::any&, Args<Scalar>...)>>;

  template <class Params, class Scalar, class Build>
  void add_builder(const Build& build) {
    std::get<Builders<Scalar>>(builders_).push_back(
        [build](const std::any& params, Args<Scalar>... args) -> Product<Scalar> {
          return build(std::any_cast<const Params&>(params), std::forward<Args<Scalar>>(args)...);
        });
  }

  std::tuple<Builders<float>, Builders<double>, Builders<Kokkos::complex<double>>> builders_;
};

}  // namespace kelp::solvers
