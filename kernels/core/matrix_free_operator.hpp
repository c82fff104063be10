#pragma once
/// What the matrix-free operators (RowOperator, FunctionOperator) share: a shape and a name.

#include <sstream>
#include <string>
#include <utility>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/operator.hpp"

namespace kelp {

/// Base of operators defined by user code instead of a matrix: holds the shape (checked >= 0)
/// and the user's name, and writes summary() as "<kind> '<name>' R x C".
template <class Scalar, class Device>
class MatrixFreeOperator : public Operator<Scalar, Device> {
 public:
  Ordinal num_rows() const override { return num_rows_; }
  Ordinal num_cols() const override { return num_cols_; }
  std::string summary() const override {
    std::ostringstream out;
    out << kind_ << " '" << name_ << "' " << num_rows_ << " x " << num_cols_;
    return out.str();
  }
  /// The name given at construction.
  const std::string& name() const { return name_; }

 protected:
  /// @param[in] class_name  "kelp::RowOperator", for messages; @param[in] kind  for summary()
  MatrixFreeOperator(const char* class_name, const char* kind, Ordinal num_rows, Ordinal num_cols,
                     std::string name)
      : kind_(kind), num_rows_(num_rows), num_cols_(num_cols), name_(std::move(name)) {
    KELP_REQUIRE(num_rows >= 0 && num_cols >= 0, InvalidArgument,
                 class_name << ": '" << name_ << "' is " << num_rows << " x " << num_cols
                            << "; expected sizes >= 0");
  }

 private:
  const char* kind_;
  Ordinal num_rows_;
  Ordinal num_cols_;
  std::string name_;
};

}  // namespace kelp
