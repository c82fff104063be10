#pragma once
/// Splits the columns of a multi-vector into blocks of compile-time width (8, 4, 2, 1), so that
/// SpMMV kernels keep one accumulator per column in registers and read A once per block.

#include <cstddef>

namespace kelp::kernels::impl {

/// Calls launch.template operator()<Width>(first_column) for each block covering [0, num_columns).
template <class Launch>
void for_each_column_block(std::size_t num_columns, const Launch& launch) {
  std::size_t col = 0;
  while (col < num_columns) {
    const std::size_t left = num_columns - col;
    if (left >= 8) {
      launch.template operator()<8>(col);
      col += 8;
    } else if (left >= 4) {
      launch.template operator()<4>(col);
      col += 4;
    } else if (left >= 2) {
      launch.template operator()<2>(col);
      col += 2;
    } else {
      launch.template operator()<1>(col);
      col += 1;
    }
  }
}

}  // namespace kelp::kernels::impl
