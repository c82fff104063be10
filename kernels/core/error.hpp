#pragma once
/// Kelp's exception types and check macros.
///
/// Exceptions are for bad input and misuse; numerical outcomes of iterative methods come back as
/// values (solvers::SolveResult). Every message follows "where: what is wrong: actual values;
/// what was expected", e.g.
///   kelp::kernels::spmv: dimension mismatch: A is 1000 x 998, x has 1000 rows, expected 998

#include <sstream>
#include <stdexcept>
#include <string>

namespace kelp {

/// Base of all Kelp exceptions; records where the check that threw lives in the source.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, const char* function, const char* file, int line)
      : std::runtime_error(message), function_(function), file_(file), line_(line) {}
  const char* function() const noexcept { return function_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  const char* function_;
  const char* file_;
  int line_;
};

#define KELP_DEFINE_ERROR(Name)                                                   \
  class Name : public Error {                                                     \
   public:                                                                        \
    using Error::Error;                                                           \
    Name(const std::string& message) : Error(message, "", "", 0) {}               \
  }

KELP_DEFINE_ERROR(InvalidArgument);    ///< a value out of range (negative fill level, damping <= 0)
KELP_DEFINE_ERROR(DimensionMismatch);  ///< operand shapes don't conform
KELP_DEFINE_ERROR(InvalidState);       ///< calls out of order (apply before setup)
KELP_DEFINE_ERROR(ConfigError);        ///< bad YAML: unknown key, bad type, missing value
KELP_DEFINE_ERROR(NotSupported);       ///< a valid request this build or device can't do
KELP_DEFINE_ERROR(NumericalError);     ///< setup cannot continue (zero pivot, zero diagonal)
KELP_DEFINE_ERROR(FileError);          ///< a file cannot be opened, read or parsed

#undef KELP_DEFINE_ERROR

}  // namespace kelp

/// Always-on check for anything the caller controls. `message` is a stream expression, evaluated
/// only when the check fails:  KELP_REQUIRE(n >= 0, InvalidArgument, "f: n = " << n << " < 0");
#define KELP_REQUIRE(cond, Type, message)                                        \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::ostringstream kelp_require_stream_;                                   \
      kelp_require_stream_ << message;                                           \
      throw ::kelp::Type(kelp_require_stream_.str(), __func__, __FILE__, __LINE__); \
    }                                                                            \
  } while (false)

/// Throw unconditionally (for the end of a switch over user choices, for example).
#define KELP_THROW(Type, message) KELP_REQUIRE(false, Type, message)

/// Internal invariant: checked in debug builds only.
#ifdef NDEBUG
#define KELP_ASSERT(cond, message) \
  do {                             \
  } while (false)
#else
#define KELP_ASSERT(cond, message) KELP_REQUIRE(cond, InvalidState, "internal error: " << message)
#endif
