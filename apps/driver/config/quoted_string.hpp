#pragma once
/// Double-quoted string literals for the YAML writer (apps/driver/config/fields.cpp).
/// JSON is written with nlohmann::json (the run report, the benchmarks), never with this.

#include <cstdio>
#include <string>

namespace kelp::config {

/// `text` as a YAML double-quoted scalar: ", \, newline and tab escaped; other control
/// characters written with `control_format` (printf-style, one unsigned argument), "\\x%02x",
/// YAML's two-digit hex escape.
inline std::string quoted_string(const std::string& text, const char* control_format = "\\x%02x") {
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
