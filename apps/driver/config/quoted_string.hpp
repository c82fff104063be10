#pragma once
/// Double-quoted string literals for the YAML and JSON writers.

#include <cstdio>
#include <string>

namespace kelp::config {

/// `text` in double quotes with ", \, newline and tab escaped; other control characters are
/// written with `control_format` (printf-style, one unsigned argument): "\\x%02x" for YAML,
/// "\\u%04x" for JSON, whose grammar has no \x escape.
inline std::string quoted_string(const std::string& text, const char* control_format) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, control_format, static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace kelp::config
