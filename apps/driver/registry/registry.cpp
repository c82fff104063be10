#include "kelp/apps/driver/registry/registry.hpp"

#include <algorithm>

namespace kelp::solvers {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

}  // namespace

const RegistryBase& ComponentSpec::registry() const {
  KELP_REQUIRE(registry_ != nullptr, InvalidState,
               "kelp::solvers::ComponentSpec::registry: the spec is empty (no type chosen)");
  return *registry_;
}

YAML::Node ComponentSpec::write() const {
  if (empty()) return YAML::Node(YAML::NodeType::Map);
  return registry_->write(*this);
}

std::string ComponentSpec::summary() const {
  if (empty()) return "(none)";
  YAML::Node node = write();
  node.remove("type");
  return node.size() == 0 ? type_ : type_ + " " + config::emit_flow(node);
}

std::vector<std::string> RegistryBase::types() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.type);
  return out;
}

bool RegistryBase::contains(const std::string& type) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.type == type; });
}

std::size_t RegistryBase::index_of(const std::string& type) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].type == type) return i;
  }
  KELP_THROW(InvalidArgument, "kelp::solvers::Registry: unknown " << kind_ << " type '" << type
                                  << "'; registered: " << join(types()));
}

const RegistryBase::Entry& RegistryBase::entry(const std::string& type) const {
  return entries_[index_of(type)];
}

const std::string& RegistryBase::description(const std::string& type) const {
  return entry(type).description;
}

void RegistryBase::require_own(const ComponentSpec& spec) const {
  KELP_REQUIRE(!spec.empty() && &spec.registry() == this, InvalidArgument,
               "kelp::solvers::Registry::build: the spec '" << spec.type() << "' is not a "
                                                            << kind_ << " spec");
}

void RegistryBase::add_entry(Entry entry) {
  KELP_REQUIRE(!contains(entry.type), InvalidArgument,
               "kelp::solvers::Registry::add: " << kind_ << " type '" << entry.type
                                                << "' is already registered");
  entries_.push_back(std::move(entry));
}

ComponentSpec RegistryBase::parse(const config::ConfigNode& node) const {
  const std::string choices = "; allowed: " + join(types());
  if (node.is_scalar()) {  // shorthand: "rhs: ones" means {type: ones}
    const std::string type = node.as_string();
    if (!contains(type)) node.fail("unknown " + kind_ + " type '" + type + "'" + choices);
    ComponentSpec spec = make(type);
    // All-default params must be complete: a type with required fields needs the map form.
    config::KeyCollector collector;
    std::any scratch = spec.any_params();
    entry(type).visit(collector, scratch);
    if (!collector.required.empty()) {
      node.fail(kind_ + " type '" + type + "' needs the keys " + join(collector.required) +
                "; write {type: " + type + ", ...}");
    }
    return spec;
  }
  if (node.is_null() || !node.is_map()) {
    node.fail("expected a " + kind_ + " map {type: ...} or a type name" + choices);
  }
  const auto type_node = node.find("type");
  if (!type_node) node.fail("missing required key 'type'" + choices);
  const std::string type = type_node->as_string();
  if (!contains(type)) type_node->fail("unknown " + kind_ + " type '" + type + "'" + choices);
  const Entry& e = entry(type);
  std::any params = e.make_default();
  config::read_params(node, params, e.visit, {"type"});
  return ComponentSpec(*this, type, std::move(params));
}

ComponentSpec RegistryBase::make(const std::string& type) const {
  return ComponentSpec(*this, type, entry(type).make_default());
}

YAML::Node RegistryBase::write(const ComponentSpec& spec) const {
  YAML::Node out(YAML::NodeType::Map);
  out["type"] = spec.type();
  config::FieldWriter writer(out);
  std::any params = spec.any_params();
  entry(spec.type()).visit(writer, params);
  return out;
}

}  // namespace kelp::solvers
