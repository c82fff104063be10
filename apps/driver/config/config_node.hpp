#pragma once
/// Strict reading of YAML configuration files.
///
/// A ConfigDocument is a parsed YAML file plus the `--set dotted.path=value` overrides applied to
/// it. ConfigNode is a read-only view of one node of it that knows its dotted path ("solver.
/// preconditioner") and where it came from (file:line:column, or the override that set it), so
/// every error can say exactly where the bad value is and what was allowed:
///
///   configs/poisson.yaml:14:7: solver.preconditioner: unknown key 'dampin'; allowed: [type, damping]
///   --set solver.max_iterations=abc: solver.max_iterations: expected an integer, got 'abc'
///
/// Every error is a ConfigError (a missing file is a FileError). Scalars are converted strictly:
/// a quoted "100" is a string, not a number; 1.5 is not an integer; yes/no are not booleans.

#include <yaml-cpp/yaml.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kelp/kernels/core/error.hpp"

namespace kelp::config {

namespace impl {
struct Source;
}

/// Read-only view of one node of a ConfigDocument.
///
/// Maps are strict: every key a reader looks up (find, get, expect_keys) is recorded as allowed,
/// and check_known_keys() rejects any other key, listing the allowed ones. Copies of a ConfigNode
/// share that record.
class ConfigNode {
 public:
  /// Dotted path of this node ("" for the document root).
  const std::string& path() const { return path_; }
  /// "file:line:column" of this node, or "--set path=value" when an override set it.
  std::string location() const;
  /// Name of the file (or text) the document was read from.
  const std::string& source_name() const;

  bool is_null() const { return !node_.IsDefined() || node_.IsNull(); }
  bool is_map() const { return node_.IsMap(); }
  bool is_scalar() const { return node_.IsScalar(); }

  /// The child under `key`, or nothing when the key is absent. Records `key` as allowed.
  /// @throws ConfigError when this node is not a map (null counts as an empty map)
  std::optional<ConfigNode> find(const std::string& key) const;
  /// The child under `key`. Records `key` as allowed.
  /// @throws ConfigError "missing required key 'key'; allowed: [...]" when it is absent
  ConfigNode get(const std::string& key) const;
  /// Records `allowed` as this map's keys, then check_known_keys(). Call it before reading the
  /// keys, so that a misspelt key is reported as unknown rather than as a missing required one.
  void expect_keys(const std::vector<std::string>& allowed) const;
  /// @throws ConfigError naming the first key that was never looked up, or a duplicate key
  void check_known_keys() const;
  /// Keys of this map in file order (empty for null).
  std::vector<std::string> keys() const;

  /// Strict scalar conversions. @throws ConfigError "expected <kind>, got <what>"
  long long as_integer() const;
  double as_double() const;  ///< finite numbers only; integers are accepted
  bool as_bool() const;      ///< true/True/TRUE or false/False/FALSE
  std::string as_string() const;  ///< any scalar, quoted or not; not null, not a map

  /// Resolves a file name given in this node: absolute names stay; relative ones are taken
  /// relative to the configuration file's folder (the working directory for values set by an
  /// override or read from a string without a base folder). The result is absolute and normal.
  std::string resolve_path(const std::string& file) const;

  /// Throws ConfigError "location: path: what" (path left out for the root).
  [[noreturn]] void fail(const std::string& what) const;

  /// The underlying yaml-cpp node (read-only use).
  const YAML::Node& yaml() const { return node_; }

 private:
  friend class ConfigDocument;
  ConfigNode(std::shared_ptr<const impl::Source> source, YAML::Node node, std::string path,
             YAML::Mark key_mark);
  std::string child_path(const std::string& key) const;
  /// Location of a (possibly absent) child: its override, or the given mark.
  std::string location_of(const std::string& path, const YAML::Mark& mark) const;
  std::string allowed_list() const;

  std::shared_ptr<const impl::Source> source_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark key_mark_;  // where the key of this node sits (used when the value has no mark)
  std::shared_ptr<std::vector<std::string>> known_keys_;
};

/// A parsed configuration: the YAML tree of a file (or string) with overrides applied.
class ConfigDocument {
 public:
  /// Reads and parses a YAML file.
  /// @throws FileError when the file cannot be read, ConfigError on a YAML syntax error
  ///         ("file:line:column: YAML syntax error: ..."; a tab in the indentation is named as
  ///         such) and when the file holds more than one YAML document (a second '---', or
  ///         content after the end marker '...')
  static ConfigDocument from_file(const std::string& path);
  /// Parses YAML text. `name` stands for the file in messages; relative file names in the
  /// configuration resolve against `base_dir` (empty: the working directory).
  static ConfigDocument from_string(const std::string& text, const std::string& name = "<string>",
                                    const std::string& base_dir = "");

  /// Applies one override "dotted.path=value". The value is parsed as YAML ("3", "1e-6",
  /// "{type: jacobi, damping: 0.8}"); an empty value is the empty string; "~" or "null" removes
  /// the key, so that its default applies. Missing maps along the path are created; the keys are
  /// validated later by the reader, like the file's own. Errors name the override.
  /// @throws ConfigError when the text has no '=', an empty path component, or the path runs
  ///         through a scalar
  void apply_override(const std::string& assignment);
  /// Sets `dotted_path` to the string `value` verbatim (no YAML parsing), recording `origin`
  /// ("--report out.json") as its location in messages.
  void set_string(const std::string& dotted_path, const std::string& value,
                  const std::string& origin);

  /// The root node.
  ConfigNode root() const;
  /// Name of the file (or text) the document was read from.
  const std::string& source_name() const;

 private:
  ConfigDocument(std::shared_ptr<impl::Source> source, YAML::Node root);
  void set_node(const std::string& dotted_path, YAML::Node value, const std::string& origin);

  std::shared_ptr<impl::Source> source_;
  YAML::Node root_;
};

}  // namespace kelp::config
