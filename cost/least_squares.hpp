// Dense linear least squares for the calibration fit (cost/calibrate.cpp):
// small systems (rows = measurements, columns = profile parameters), solved
// by Householder QR, which stays accurate where the normal equations square
// the condition number.
#pragma once
#include <vector>

namespace eqfuse {

// Minimizes |A x - b| for A (rows x cols, row-major), full column rank; a
// column QR finds no pivot for gets 0.
std::vector<double> least_squares(std::vector<std::vector<double>> a, std::vector<double> b);

}  // namespace eqfuse
