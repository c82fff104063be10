#include "kelp/apps/driver/config/fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "kelp/apps/driver/config/quoted_string.hpp"
#include "kelp/apps/driver/registry/registry.hpp"

namespace kelp::config {

// --- Bounds --------------------------------------------------------------------------------------

bool Bounds::contains(double value) const {
  if (zero_allowed && value == 0) return true;
  const bool above = min_open ? value > min : value >= min;
  const bool below = max_open ? value < max : value <= max;
  return above && below;
}

std::string Bounds::describe(const std::string& name) const {
  const bool has_min = std::isfinite(min), has_max = std::isfinite(max);
  std::string out;
  if (zero_allowed) out += name + " = 0 (off) or ";
  if (has_min) out += name + (min_open ? " > " : " >= ") + format_double(min);
  if (has_min && has_max) out += " and ";
  if (has_max) out += name + (max_open ? " < " : " <= ") + format_double(max);
  return out;
}

namespace {

/// Bounds of integer fields print without ".0".
std::string describe_integer_bounds(const Bounds& bounds, const std::string& name) {
  std::string text = bounds.describe(name);
  for (std::size_t at; (at = text.find(".0")) != std::string::npos;) text.erase(at, 2);
  return text;
}

template <class Int>
void check_integer(const ConfigNode& node, long long value, const Bounds& bounds,
                   const char* key) {
  const bool fits = value >= static_cast<long long>(std::numeric_limits<Int>::min()) &&
                    value <= static_cast<long long>(std::numeric_limits<Int>::max());
  if (!fits || !bounds.contains(static_cast<double>(value))) {
    std::string expected = describe_integer_bounds(bounds, key);
    if (!fits) {
      expected = (expected.empty() ? "" : expected + " and ") + "at most " +
                 std::to_string(std::numeric_limits<Int>::max());
    }
    node.fail(std::to_string(value) + " is out of range; expected " + expected);
  }
}

}  // namespace

// --- FieldReader ---------------------------------------------------------------------------------

std::optional<ConfigNode> FieldReader::child(const char* key, Presence presence) const {
  if (presence == Presence::required) return node_.get(key);
  return node_.find(key);
}

void FieldReader::visit_int(const char* key, int& value, const Bounds& bounds,
                            Presence presence) {
  if (auto c = child(key, presence)) {
    const long long v = c->as_integer();
    check_integer<int>(*c, v, bounds, key);
    value = static_cast<int>(v);
  }
}

void FieldReader::visit_integer(const char* key, long long& value, const Bounds& bounds,
                                Presence presence) {
  if (auto c = child(key, presence)) {
    const long long v = c->as_integer();
    check_integer<long long>(*c, v, bounds, key);
    value = v;
  }
}

void FieldReader::visit_double(const char* key, double& value, const Bounds& bounds,
                               Presence presence) {
  if (auto c = child(key, presence)) {
    const double v = c->as_double();
    if (!bounds.contains(v)) {
      c->fail(format_double(v) + " is out of range; expected " + bounds.describe(key));
    }
    value = v;
  }
}

void FieldReader::visit_optional_double(const char* key, std::optional<double>& value, const Bounds& bounds) {
  if (!node_.find(key)) return;
  double v = value.value_or(0.0);
  visit_double(key, v, bounds, Presence::required);
  value = v;
}

void FieldReader::visit_bool(const char* key, bool& value, Presence presence) {
  if (auto c = child(key, presence)) value = c->as_bool();
}

void FieldReader::visit_string(const char* key, std::string& value, Presence presence) {
  if (auto c = child(key, presence)) value = c->as_string();
}

void FieldReader::visit_file(const char* key, std::string& path, Presence presence) {
  if (auto c = child(key, presence)) {
    const std::string text = c->as_string();
    if (text.empty()) c->fail("expected a file name, got an empty string");
    path = c->resolve_path(text);
  }
}

void FieldReader::visit_choice(const char* key, std::string& name,
                               const std::vector<std::string>& allowed, Presence presence) {
  if (auto c = child(key, presence)) {
    const std::string text = c->is_scalar() ? c->as_string() : emit_flow(c->yaml());
    if (!c->is_scalar() || std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
      c->fail(unknown_choice(text, allowed));
    }
    name = text;
  }
}

void FieldReader::visit_component(const char* key, solvers::ComponentSpec& spec,
                                  Presence presence) {
  if (auto c = child(key, presence)) spec = spec.registry().parse(*c);
}

void FieldReader::visit_violation(const char* key, const std::string& message) {
  if (auto c = node_.find(key)) c->fail(message);
  node_.fail(message);
}

// --- FieldWriter ---------------------------------------------------------------------------------

void FieldWriter::visit_int(const char* key, int& value, const Bounds&, Presence) {
  out_[key] = std::to_string(value);
}
void FieldWriter::visit_integer(const char* key, long long& value, const Bounds&, Presence) {
  out_[key] = std::to_string(value);
}
void FieldWriter::visit_double(const char* key, double& value, const Bounds&, Presence) {
  out_[key] = format_double(value);
}
void FieldWriter::visit_optional_double(const char* key, std::optional<double>& value, const Bounds&) {
  if (value) out_[key] = format_double(*value);
}
void FieldWriter::visit_bool(const char* key, bool& value, Presence) {
  out_[key] = value ? "true" : "false";
}
void FieldWriter::visit_string(const char* key, std::string& value, Presence) {
  out_[key] = value;
}
void FieldWriter::visit_file(const char* key, std::string& path, Presence) { out_[key] = path; }
void FieldWriter::visit_choice(const char* key, std::string& name,
                               const std::vector<std::string>&, Presence) {
  out_[key] = name;
}
void FieldWriter::visit_component(const char* key, solvers::ComponentSpec& spec, Presence) {
  out_[key] = spec.write();
}

std::string unknown_choice(const std::string& value, const std::vector<std::string>& allowed) {
  std::string list;
  for (const auto& name : allowed) list += (list.empty() ? "" : ", ") + name;
  return "unknown value '" + value + "'; allowed: [" + list + "]";
}

// --- Text output ---------------------------------------------------------------------------------

std::string format_double(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (!std::isfinite(value)) return text;
  const auto exponent = text.find('e');
  if (text.find('.') == std::string::npos) {
    text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
  }
  return text;
}

namespace {

bool plain_safe(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    return false;
  }
  const auto word_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '/' || c == '+' || c == '-';
  };
  std::size_t start = 0;
  if (text[0] == '-') {
    if (text.size() == 1) return false;
    start = 1;
  }
  if (text[start] == '-') return false;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (!word_char(text[i])) return false;
  }
  return true;
}

std::string scalar_text(const std::string& text) {
  return plain_safe(text) ? text : quoted_string(text, "\\x%02x");
}

bool all_scalars(const YAML::Node& map) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->second.IsScalar()) return false;
  }
  return true;
}

void emit_flow_to(std::ostream& out, const YAML::Node& node) {
  if (node.IsMap()) {
    out << "{";
    bool first = true;
    for (auto it = node.begin(); it != node.end(); ++it) {
      out << (first ? "" : ", ") << scalar_text(it->first.Scalar()) << ": ";
      emit_flow_to(out, it->second);
      first = false;
    }
    out << "}";
  } else if (node.IsSequence()) {
    out << "[";
    for (std::size_t i = 0; i < node.size(); ++i) {
      out << (i ? ", " : "");
      emit_flow_to(out, node[i]);
    }
    out << "]";
  } else if (node.IsScalar()) {
    out << scalar_text(node.Scalar());
  } else {
    out << "~";
  }
}

void emit_block(std::ostream& out, const YAML::Node& map, int depth) {
  const std::string indent(2 * depth, ' ');
  for (auto it = map.begin(); it != map.end(); ++it) {
    out << indent << scalar_text(it->first.Scalar()) << ":";
    const YAML::Node value = it->second;  // by value: it-> yields a temporary
    const bool block = value.IsMap() && value.size() > 0 && (depth == 0 || !all_scalars(value));
    if (block) {
      out << "\n";
      emit_block(out, value, depth + 1);
    } else {
      out << " ";
      emit_flow_to(out, value);
      out << "\n";
    }
  }
}

}  // namespace

std::string emit_yaml(const YAML::Node& node) {
  std::ostringstream out;
  if (node.IsMap()) {
    emit_block(out, node, 0);
  } else {
    emit_flow_to(out, node);
    out << "\n";
  }
  return out.str();
}

std::string emit_flow(const YAML::Node& node) {
  std::ostringstream out;
  emit_flow_to(out, node);
  return out.str();
}

}  // namespace kelp::config
