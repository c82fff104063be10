#pragma once
/// One description of a params struct's fields, used both to read it from YAML and to write it.
///
/// A params struct gets a `fields` function that lists every field once, with its key (= the
/// field name), its bounds and whether it is required:
///
///   void fields(config::FieldVisitor& v, precond::JacobiParams& p) {
///     v.field("damping", p.damping, config::Bounds::open_closed(0, 2));
///   }
///
/// FieldReader fills the struct from a ConfigNode (strictly: unknown keys, wrong types and values
/// out of bounds are ConfigErrors); FieldWriter exports it again with every default filled in, so
/// an app can print its effective configuration; read(write(p)) == p.
///
/// A field whose value is one of a fixed set of names is a typed enum field: its Choices list the
/// names of the enumerators once, and a bad value is a ConfigError with file:line and the
/// allowed names:
///
///   enum class ScalarKind { real_float, real_double, complex_double };
///   const config::Choices<ScalarKind> scalar_kinds{{ScalarKind::real_float, "float"}, ...};
///   v.field("scalar", p.scalar, scalar_kinds);
///   // problem.yaml:3:11: problem.scalar: unknown value 'half'; allowed: [float, double, complex]

#include <yaml-cpp/yaml.h>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kelp/apps/driver/config/config_node.hpp"

namespace kelp::solvers {
class ComponentSpec;
}

namespace kelp::config {

/// Whether a key may be left out (the struct's default applies) or must be given.
enum class Presence { optional, required };

/// Allowed range of a number: [min, max], either end open or absent; zero_allowed adds 0 (a
/// switch-off value outside the range, as divergence_tolerance's "0: never").
struct Bounds {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  bool max_open = false;
  bool zero_allowed = false;

  static Bounds at_least(double low) { return {low, std::numeric_limits<double>::infinity()}; }
  static Bounds greater_than(double low) {
    return {low, std::numeric_limits<double>::infinity(), true, false};
  }
  static Bounds closed(double low, double high) { return {low, high}; }
  static Bounds open_closed(double low, double high) { return {low, high, true, false}; }
  static Bounds closed_open(double low, double high) { return {low, high, false, true}; }
  static Bounds zero_or_at_least(double low) {
    return {low, std::numeric_limits<double>::infinity(), false, false, true};
  }

  bool contains(double value) const;
  /// "damping > 0 and damping <= 2", "max_iterations >= 0", or "" when unbounded.
  std::string describe(const std::string& name) const;
};

/// The names of an enumeration's values, for typed enum fields and messages.
/// Each enumerator has one name; the order is the order errors list them in.
template <class Enum>
class Choices {
 public:
  Choices(std::initializer_list<std::pair<Enum, const char*>> items) : items_(items) {}

  /// The name of `value`. @throws InvalidArgument when `value` has no name here
  const char* name(Enum value) const {
    for (const auto& item : items_) {
      if (item.first == value) return item.second;
    }
    KELP_THROW(InvalidArgument, "kelp::config::Choices::name: enumerator "
                                    << static_cast<long long>(value) << " has no name");
    return "";  // not reached: KELP_THROW throws (nvcc cannot tell)
  }
  /// The enumerator called `text`, or nothing.
  std::optional<Enum> find(const std::string& text) const {
    for (const auto& item : items_) {
      if (text == item.second) return item.first;
    }
    return std::nullopt;
  }
  /// Every name, in order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& item : items_) out.emplace_back(item.second);
    return out;
  }

 private:
  std::vector<std::pair<Enum, const char*>> items_;
};

/// Reads a scalar node naming one of `choices`.
/// @throws ConfigError "location: path: unknown value 'x'; allowed: [a, b]" (also for a map)
template <class Enum>
Enum read_choice(const ConfigNode& node, const Choices<Enum>& choices);

/// "unknown value 'x'; allowed: [a, b]": the text of a bad enum value's error.
std::string unknown_choice(const std::string& value, const std::vector<std::string>& allowed);

/// Visits the fields of a params struct. Implemented by FieldReader (YAML -> struct),
/// FieldWriter (struct -> YAML) and KeyCollector (lists the keys).
class FieldVisitor {
 public:
  virtual ~FieldVisitor() = default;

  void field(const char* key, int& value, Bounds bounds = {},
             Presence presence = Presence::optional) {
    visit_int(key, value, bounds, presence);
  }
  void field(const char* key, long long& value, Bounds bounds = {},
             Presence presence = Presence::optional) {
    visit_integer(key, value, bounds, presence);
  }
  void field(const char* key, double& value, Bounds bounds = {},
             Presence presence = Presence::optional) {
    visit_double(key, value, bounds, presence);
  }
  /// A number that may be left unset (an absent key: "automatic"): read only when the key is
  /// there, written only when set, so read(write(p)) == p keeps it unset.
  void field(const char* key, std::optional<double>& value, Bounds bounds = {}) {
    visit_optional_double(key, value, bounds);
  }
  void field(const char* key, bool& value, Presence presence = Presence::optional) {
    visit_bool(key, value, presence);
  }
  void field(const char* key, std::string& value, Presence presence = Presence::optional) {
    visit_string(key, value, presence);
  }
  /// A typed enum field: the value is one of the names in `choices`.
  template <class Enum>
  void field(const char* key, Enum& value, const Choices<Enum>& choices,
             Presence presence = Presence::optional) {
    static_assert(std::is_enum<Enum>::value, "FieldVisitor::field: choices need an enum type");
    std::string name = choices.name(value);
    visit_choice(key, name, choices.names(), presence);
    value = *choices.find(name);  // visit_choice leaves a name from the list
  }
  /// A name of an input file. Read: relative names become absolute, resolved against the folder
  /// of the configuration file (see ConfigNode::resolve_path).
  void file(const char* key, std::string& path, Presence presence = Presence::optional) {
    visit_file(key, path, presence);
  }
  /// A nested component chosen by `type` (solver.preconditioner). An absent optional key keeps
  /// `spec` as it is (its default type and params).
  void component(const char* key, solvers::ComponentSpec& spec,
                 Presence presence = Presence::optional) {
    visit_component(key, spec, presence);
  }
  /// A rule across keys, stated after they are visited: when `ok` is false, a reader fails at
  /// `key` (at the section when the key is absent) with `message`, so the error carries the
  /// file, line and column; writers and collectors ignore it.
  void require(bool ok, const char* key, const std::string& message) {
    if (!ok) visit_violation(key, message);
  }

 protected:
  virtual void visit_violation(const char* /*key*/, const std::string& /*message*/) {}
  virtual void visit_int(const char* key, int& value, const Bounds& bounds, Presence presence) = 0;
  virtual void visit_integer(const char* key, long long& value, const Bounds& bounds,
                             Presence presence) = 0;
  virtual void visit_double(const char* key, double& value, const Bounds& bounds,
                            Presence presence) = 0;
  virtual void visit_optional_double(const char* key, std::optional<double>& value, const Bounds& bounds) = 0;
  virtual void visit_bool(const char* key, bool& value, Presence presence) = 0;
  virtual void visit_string(const char* key, std::string& value, Presence presence) = 0;
  virtual void visit_file(const char* key, std::string& path, Presence presence) = 0;
  /// `name` holds the current value's name on entry; a reader replaces it by one of `allowed`.
  virtual void visit_choice(const char* key, std::string& name,
                            const std::vector<std::string>& allowed, Presence presence) = 0;
  virtual void visit_component(const char* key, solvers::ComponentSpec& spec,
                               Presence presence) = 0;
};

/// Fills fields from the keys of one map node. Does not check for unknown keys by itself (see
/// read_params, which does).
class FieldReader : public FieldVisitor {
 public:
  explicit FieldReader(ConfigNode node) : node_(std::move(node)) {}

 protected:
  void visit_int(const char* key, int& value, const Bounds& bounds, Presence presence) override;
  void visit_integer(const char* key, long long& value, const Bounds& bounds,
                     Presence presence) override;
  void visit_double(const char* key, double& value, const Bounds& bounds,
                    Presence presence) override;
  void visit_optional_double(const char* key, std::optional<double>& value, const Bounds& bounds) override;
  void visit_bool(const char* key, bool& value, Presence presence) override;
  void visit_string(const char* key, std::string& value, Presence presence) override;
  void visit_file(const char* key, std::string& path, Presence presence) override;
  void visit_choice(const char* key, std::string& name, const std::vector<std::string>& allowed,
                    Presence presence) override;
  void visit_component(const char* key, solvers::ComponentSpec& spec, Presence presence) override;
  void visit_violation(const char* key, const std::string& message) override;

 private:
  std::optional<ConfigNode> child(const char* key, Presence presence) const;
  ConfigNode node_;
};

/// Appends every field, defaults included, to a YAML map in declaration order.
class FieldWriter : public FieldVisitor {
 public:
  /// @param[in,out] out  a map node (a null node becomes one)
  explicit FieldWriter(YAML::Node out) : out_(out) {}

 protected:
  void visit_int(const char* key, int& value, const Bounds&, Presence) override;
  void visit_integer(const char* key, long long& value, const Bounds&, Presence) override;
  void visit_double(const char* key, double& value, const Bounds&, Presence) override;
  void visit_optional_double(const char* key, std::optional<double>& value, const Bounds&) override;
  void visit_bool(const char* key, bool& value, Presence) override;
  void visit_string(const char* key, std::string& value, Presence) override;
  void visit_file(const char* key, std::string& path, Presence) override;
  void visit_choice(const char* key, std::string& name, const std::vector<std::string>&,
                    Presence) override;
  void visit_component(const char* key, solvers::ComponentSpec& spec, Presence) override;

 private:
  YAML::Node out_;
};

/// Records the keys of the fields, in order, and which of them are required.
class KeyCollector : public FieldVisitor {
 public:
  std::vector<std::string> keys;
  std::vector<std::string> required;

 protected:
  void visit_int(const char* key, int&, const Bounds&, Presence p) override { add(key, p); }
  void visit_integer(const char* key, long long&, const Bounds&, Presence p) override {
    add(key, p);
  }
  void visit_double(const char* key, double&, const Bounds&, Presence p) override { add(key, p); }
  void visit_optional_double(const char* key, std::optional<double>&, const Bounds&) override {
    add(key, Presence::optional);
  }
  void visit_bool(const char* key, bool&, Presence p) override { add(key, p); }
  void visit_string(const char* key, std::string&, Presence p) override { add(key, p); }
  void visit_file(const char* key, std::string&, Presence p) override { add(key, p); }
  void visit_choice(const char* key, std::string&, const std::vector<std::string>&,
                    Presence p) override {
    add(key, p);
  }
  void visit_component(const char* key, solvers::ComponentSpec&, Presence p) override {
    add(key, p);
  }

 private:
  void add(const char* key, Presence presence) {
    keys.push_back(key);
    if (presence == Presence::required) required.push_back(key);
  }
};

/// Reads a params struct from a map node strictly: first rejects keys that are neither in
/// `extra_keys` (read by the caller, e.g. "type") nor fields, then reads the fields.
/// @param[in] node    the map (null: all defaults)
/// @param[in,out] params  holds the defaults on entry
/// @param[in] fields  void(FieldVisitor&, Params&), listing the fields
template <class Params, class Fields>
void read_params(const ConfigNode& node, Params& params, const Fields& fields,
                 const std::vector<std::string>& extra_keys = {}) {
  KeyCollector collector;
  Params scratch = params;
  fields(collector, scratch);
  std::vector<std::string> allowed = extra_keys;
  allowed.insert(allowed.end(), collector.keys.begin(), collector.keys.end());
  node.expect_keys(allowed);
  FieldReader reader(node);
  fields(reader, params);
}

/// Writes a params struct as a YAML map (all fields, defaults included).
template <class Params, class Fields>
YAML::Node write_params(const Params& params, const Fields& fields) {
  YAML::Node out(YAML::NodeType::Map);
  FieldWriter writer(out);
  Params copy = params;
  fields(writer, copy);
  return out;
}

/// Shortest text that reads back as the same double, always with a '.' or an exponent
/// ("1.0", "1.0e-08", "0.25") so that YAML 1.1 readers also see a float.
std::string format_double(double value);

/// Emits a configuration tree as YAML text: top-level maps in block style, maps whose values are
/// all scalars in flow style ({type: jacobi, damping: 1.0}), strings quoted only when plain
/// style would change their meaning. Reading the text back gives the same tree.
std::string emit_yaml(const YAML::Node& node);
/// One-line flow form of a node: "{type: jacobi, damping: 1.0}" or "42".
std::string emit_flow(const YAML::Node& node);

template <class Enum>
Enum read_choice(const ConfigNode& node, const Choices<Enum>& choices) {
  const std::string text = node.is_scalar() ? node.as_string() : config::emit_flow(node.yaml());
  const auto value = node.is_scalar() ? choices.find(text) : std::nullopt;
  if (!value) node.fail(unknown_choice(text, choices.names()));
  return *value;
}

}  // namespace kelp::config
