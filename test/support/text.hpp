#pragma once
// Text helpers of the tests that read program output or run programs through the shell.
#include <string>

namespace kelp::test {

/// Whether `text` contains `needle`.
inline bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

/// `text` as one single-quoted POSIX shell word (for std::system command lines).
inline std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace kelp::test
