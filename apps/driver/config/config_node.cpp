#include "kelp/apps/driver/config/config_node.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

namespace kelp::config {

namespace fs = std::filesystem;

namespace impl {

/// Where a document came from, shared by all its nodes.
struct Source {
  struct Override {
    std::string path;    // dotted path it set
    std::string origin;  // "--set a.b=c", shown as the location of everything below `path`
  };
  std::string name;
  std::string base_dir;  // folder for relative file names; empty: the working directory
  std::vector<Override> overrides;

  /// The override that set `path` or one of its ancestors (the latest one wins), if any.
  const Override* covering(const std::string& path) const {
    for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
      if (path == it->path || (path.size() > it->path.size() &&
                               path.compare(0, it->path.size(), it->path) == 0 &&
                               path[it->path.size()] == '.')) {
        return &*it;
      }
    }
    return nullptr;
  }
  /// An override that set something below `path` (for maps an override created).
  const Override* below(const std::string& path) const {
    for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
      if (path.empty() || (it->path.size() > path.size() &&
                           it->path.compare(0, path.size(), path) == 0 &&
                           it->path[path.size()] == '.')) {
        return &*it;
      }
    }
    return nullptr;
  }
};

}  // namespace impl

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

/// Human description of a node's value for "expected X, got Y" messages.
std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "an empty value";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.Tag() == "!") return "the quoted string \"" + node.Scalar() + "\"";
  return "'" + node.Scalar() + "'";
}

/// Plain (unquoted) scalar text, or nothing.
const std::string* plain_scalar(const YAML::Node& node) {
  if (!node.IsScalar() || node.Tag() == "!") return nullptr;
  return &node.Scalar();
}

std::vector<std::string> split_path(const std::string& dotted, const std::string& origin) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(dotted);
  while (std::getline(in, part, '.')) parts.push_back(part);
  if (!dotted.empty() && dotted.back() == '.') parts.push_back("");
  const bool bad = parts.empty() ||
                   std::any_of(parts.begin(), parts.end(), [](const std::string& p) {
                     return p.empty() || p.find_first_of(" \t=") != std::string::npos;
                   });
  KELP_REQUIRE(!bad, ConfigError,
               origin << ": bad path '" << dotted
                      << "'; expected dot-separated keys such as solver.preconditioner.damping");
  return parts;
}

std::string syntax_error(const std::string& name, const YAML::Exception& e) {
  std::ostringstream out;
  out << name;
  if (!e.mark.is_null()) out << ":" << e.mark.line + 1 << ":" << e.mark.column + 1;
  out << ": YAML syntax error: " << e.msg;
  return out.str();
}

/// The lines of `text` (without their '\n').
std::vector<std::string_view> split_lines(const std::string& text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t newline = std::min(text.find('\n', start), text.size());
    lines.emplace_back(text.data() + start, newline - start);
    start = newline + 1;
  }
  return lines;
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// A document marker ("---" or "...") at the start of `line`, alone or followed by a space.
bool is_marker(std::string_view line, const char* marker) {
  return line.substr(0, 3) == marker && (line.size() == 3 || is_space(line[3]));
}

/// Blank, or only a comment.
bool is_blank_or_comment(std::string_view line) {
  std::size_t k = 0;
  while (k < line.size() && is_space(line[k])) ++k;
  return k == line.size() || line[k] == '#';
}

/// "name:line:column: " (1-based) for 0-based line and column.
std::string location_prefix(const std::string& name, std::size_t line, std::size_t column) {
  return name + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": ";
}

/// When yaml-cpp fails on a line indented with a tab (it says "illegal map value" or "illegal
/// tab when looking for indentation"), a message that says so and points at the tab.
std::optional<std::string> tab_indentation_error(const std::string& name, const std::string& text,
                                                 const YAML::Exception& e) {
  if (e.mark.is_null()) return std::nullopt;
  const auto lines = split_lines(text);
  const std::size_t error_line = static_cast<std::size_t>(e.mark.line);
  // yaml-cpp reports the error on the tab's line; look one line up as well, to be safe.
  for (const std::size_t line : {error_line, error_line - 1}) {
    if (line >= lines.size()) continue;  // also error_line - 1 for error_line 0 (wrapped)
    const std::string_view text_line = lines[line];
    for (std::size_t column = 0; column < text_line.size(); ++column) {
      if (text_line[column] == '\t') {
        return location_prefix(name, line, column) +
               "YAML syntax error: tab character in the indentation; YAML does not allow tabs "
               "for indentation, indent with spaces (yaml-cpp says: " + e.msg + ")";
      }
      if (text_line[column] != ' ') break;
    }
  }
  return std::nullopt;
}

/// The message for a text that holds more than one YAML document: where the second one starts
/// (its '---'), or the first content after an end marker '...'.
std::string second_document_error(const std::string& name, const std::string& text,
                                  const YAML::Node& second) {
  constexpr const char* single = "; a configuration file holds a single YAML document";
  const auto lines = split_lines(text);
  bool started = false;  // the first document has begun (an explicit '---' or content)
  std::size_t end_marker = lines.size();
  for (std::size_t line = 0; line < lines.size(); ++line) {
    const std::string_view l = lines[line];
    if (is_marker(l, "---")) {
      if (!started && end_marker == lines.size()) {
        started = true;  // the explicit start of the first document
        continue;
      }
      return location_prefix(name, line, 0) + "a second YAML document starts here ('---')" +
             single;
    }
    if (is_marker(l, "...")) {
      if (end_marker == lines.size()) end_marker = line;
      continue;
    }
    if (is_blank_or_comment(l)) continue;
    if (!started && l[0] == '%') continue;  // a directive (%YAML 1.2)
    if (end_marker < lines.size()) {
      std::size_t column = 0;
      while (column < l.size() && is_space(l[column])) ++column;
      return location_prefix(name, line, column) +
             "content after the document end marker '...' (line " +
             std::to_string(end_marker + 1) + ")" + single;
    }
    started = true;
  }
  // Not found by the scan (a marker yaml-cpp saw elsewhere): yaml-cpp's position.
  const YAML::Mark mark = second.Mark();
  const std::string where = mark.is_null() ? name + ": "
                                           : location_prefix(name, static_cast<std::size_t>(mark.line),
                                                             static_cast<std::size_t>(mark.column));
  return where + "a second YAML document" + single;
}

}  // namespace

// --- ConfigNode ---------------------------------------------------------------------------------

ConfigNode::ConfigNode(std::shared_ptr<const impl::Source> source, YAML::Node node,
                       std::string path, YAML::Mark key_mark)
    : source_(std::move(source)),
      node_(node),
      path_(std::move(path)),
      key_mark_(key_mark),
      known_keys_(std::make_shared<std::vector<std::string>>()) {}

const std::string& ConfigNode::source_name() const { return source_->name; }

std::string ConfigNode::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string ConfigNode::location_of(const std::string& path, const YAML::Mark& mark) const {
  if (const auto* o = source_->covering(path)) return o->origin;
  if (!mark.is_null()) {
    std::ostringstream out;
    out << source_->name << ":" << mark.line + 1 << ":" << mark.column + 1;
    return out.str();
  }
  if (const auto* o = source_->below(path)) return o->origin;
  return source_->name;
}

std::string ConfigNode::location() const {
  // An empty value's mark points past it (often to the next line): its key is the better place.
  YAML::Mark mark = is_null() ? YAML::Mark::null_mark() : node_.Mark();
  if (mark.is_null()) mark = key_mark_;
  return location_of(path_, mark);
}

void ConfigNode::fail(const std::string& what) const {
  throw ConfigError(location() + ": " + (path_.empty() ? "" : path_ + ": ") + what);
}

std::string ConfigNode::allowed_list() const { return join(*known_keys_); }

std::optional<ConfigNode> ConfigNode::find(const std::string& key) const {
  if (std::find(known_keys_->begin(), known_keys_->end(), key) == known_keys_->end()) {
    known_keys_->push_back(key);
  }
  if (is_null()) return std::nullopt;
  if (!is_map()) fail("expected a map with key '" + key + "', got " + describe(node_));
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      return ConfigNode(source_, it->second, child_path(key), it->first.Mark());
    }
  }
  return std::nullopt;
}

ConfigNode ConfigNode::get(const std::string& key) const {
  auto child = find(key);
  if (!child) fail("missing required key '" + key + "'; allowed: " + allowed_list());
  return *child;
}

void ConfigNode::expect_keys(const std::vector<std::string>& allowed) const {
  for (const auto& key : allowed) {
    if (std::find(known_keys_->begin(), known_keys_->end(), key) == known_keys_->end()) {
      known_keys_->push_back(key);
    }
  }
  check_known_keys();
}

void ConfigNode::check_known_keys() const {
  if (is_null()) return;
  if (!is_map()) fail("expected a map with keys " + allowed_list() + ", got " + describe(node_));
  std::vector<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const YAML::Node key = it->first;  // by value: it-> yields a temporary
    const std::string where = path_.empty() ? "" : path_ + ": ";
    if (!key.IsScalar()) {
      throw ConfigError(location_of(path_, key.Mark()) + ": " + where +
                        "keys must be plain names, got " + describe(key) + "; allowed: " +
                        allowed_list());
    }
    const std::string& name = key.Scalar();
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw ConfigError(location_of(child_path(name), key.Mark()) + ": " + where +
                        "duplicate key '" + name + "'");
    }
    seen.push_back(name);
    if (std::find(known_keys_->begin(), known_keys_->end(), name) == known_keys_->end()) {
      throw ConfigError(location_of(child_path(name), key.Mark()) + ": " + where +
                        "unknown key '" + name + "'; allowed: " + allowed_list());
    }
  }
}

std::vector<std::string> ConfigNode::keys() const {
  std::vector<std::string> out;
  if (!is_map()) return out;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar()) out.push_back(it->first.Scalar());
  }
  return out;
}

long long ConfigNode::as_integer() const {
  const std::string* text = plain_scalar(node_);
  if (!text) fail("expected an integer, got " + describe(node_));
  const char* first = text->data();
  const char* last = first + text->size();
  if (first != last && *first == '+') ++first;
  long long value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error == std::errc::result_out_of_range) fail("integer '" + *text + "' is out of range");
  if (error != std::errc() || end != last || first == last) {
    fail("expected an integer, got '" + *text + "'");
  }
  return value;
}

double ConfigNode::as_double() const {
  const std::string* text = plain_scalar(node_);
  if (!text) fail("expected a number, got " + describe(node_));
  const char* first = text->data();
  const char* last = first + text->size();
  if (first != last && *first == '+') ++first;
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || first == last || !std::isfinite(value)) {
    fail("expected a finite number, got '" + *text + "'");
  }
  return value;
}

bool ConfigNode::as_bool() const {
  const std::string* text = plain_scalar(node_);
  if (text) {
    if (*text == "true" || *text == "True" || *text == "TRUE") return true;
    if (*text == "false" || *text == "False" || *text == "FALSE") return false;
  }
  fail("expected true or false, got " + describe(node_));
}

std::string ConfigNode::as_string() const {
  if (!is_scalar()) fail("expected a string, got " + describe(node_));
  return node_.Scalar();
}

std::string ConfigNode::resolve_path(const std::string& file) const {
  fs::path path(file);
  if (path.is_relative()) {
    const bool from_override = source_->covering(path_) != nullptr;
    const fs::path base = from_override || source_->base_dir.empty() ? fs::current_path()
                                                                      : fs::path(source_->base_dir);
    path = base / path;
  }
  return fs::absolute(path).lexically_normal().string();
}

// --- ConfigDocument ----------------------------------------------------------------------------

ConfigDocument::ConfigDocument(std::shared_ptr<impl::Source> source, YAML::Node root)
    : source_(std::move(source)), root_(root) {}

ConfigDocument ConfigDocument::from_file(const std::string& path) {
  std::error_code ec;
  KELP_REQUIRE(!fs::is_directory(path, ec), FileError,
               "cannot read configuration file '" << path << "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  KELP_REQUIRE(in.good(), FileError,
               "cannot open configuration file '" << path << "': " << std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  KELP_REQUIRE(!in.bad(), FileError, "cannot read configuration file '" << path << "'");
  const std::string base_dir = fs::absolute(fs::path(path)).parent_path().string();
  return from_string(text.str(), path, base_dir);
}

ConfigDocument ConfigDocument::from_string(const std::string& text, const std::string& name,
                                           const std::string& base_dir) {
  auto source = std::make_shared<impl::Source>();
  source->name = name;
  source->base_dir = base_dir;
  std::vector<YAML::Node> documents;
  try {
    // All documents, not just the first: YAML::Load would silently drop a second one (after
    // '---', or content after '...').
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    if (auto tab = tab_indentation_error(name, text, e)) throw ConfigError(*tab);
    throw ConfigError(syntax_error(name, e));
  }
  if (documents.size() > 1) throw ConfigError(second_document_error(name, text, documents[1]));
  return ConfigDocument(source, documents.empty() ? YAML::Node() : documents.front());
}

ConfigNode ConfigDocument::root() const {
  return ConfigNode(source_, root_, "", YAML::Mark::null_mark());
}

const std::string& ConfigDocument::source_name() const { return source_->name; }

void ConfigDocument::apply_override(const std::string& assignment) {
  const std::string origin = "--set " + assignment;
  const auto equals = assignment.find('=');
  KELP_REQUIRE(equals != std::string::npos, ConfigError,
               origin << ": expected dotted.path=value, e.g. solver.max_iterations=200");
  const std::string path = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  YAML::Node value;
  if (text.empty()) {
    value = YAML::Node(std::string());
  } else {
    try {
      value = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw ConfigError(origin + ": YAML syntax error in the value: " + e.msg);
    }
  }
  set_node(path, value, origin);
}

void ConfigDocument::set_string(const std::string& dotted_path, const std::string& value,
                                const std::string& origin) {
  set_node(dotted_path, YAML::Node(value), origin);
}

void ConfigDocument::set_node(const std::string& dotted_path, YAML::Node value,
                              const std::string& origin) {
  const auto parts = split_path(dotted_path, origin);
  if (!root_.IsDefined() || root_.IsNull()) root_ = YAML::Node(YAML::NodeType::Map);
  KELP_REQUIRE(root_.IsMap(), ConfigError,
               origin << ": cannot apply: the configuration is not a map of sections");
  YAML::Node current = root_;
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string& key = parts[i];
    walked += (i ? "." : "") + key;
    YAML::Node next = current[key];
    if (!next.IsDefined() || next.IsNull()) {
      current[key] = YAML::Node(YAML::NodeType::Map);
      next.reset(current[key]);
    }
    KELP_REQUIRE(next.IsMap(), ConfigError,
                 origin << ": cannot set '" << dotted_path << "': '" << walked << "' holds "
                        << describe(next) << ", not a map");
    current.reset(next);
  }
  const bool removes = !value.IsDefined() || value.IsNull();
  if (removes) {
    current.remove(parts.back());
  } else {
    current[parts.back()] = value;
  }
  source_->overrides.push_back({dotted_path, origin});
}

}  // namespace kelp::config
