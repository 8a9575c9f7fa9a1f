#include "cost/least_squares.hpp"

#include <cmath>
#include <cstddef>

namespace eqfuse {

std::vector<double> least_squares(std::vector<std::vector<double>> a, std::vector<double> b) {
  size_t m = a.size(), n = m ? a[0].size() : 0;
  for (size_t k = 0; k < n && k < m; ++k) {
    double norm = 0;
    for (size_t i = k; i < m; ++i) norm += a[i][k] * a[i][k];
    norm = std::sqrt(norm);
    if (norm == 0) continue;
    double alpha = a[k][k] > 0 ? -norm : norm;
    std::vector<double> v(m, 0.0);
    for (size_t i = k; i < m; ++i) v[i] = a[i][k];
    v[k] -= alpha;
    double vv = 0;
    for (size_t i = k; i < m; ++i) vv += v[i] * v[i];
    if (vv == 0) continue;
    auto reflect = [&](auto get, auto set) {
      double dot = 0;
      for (size_t i = k; i < m; ++i) dot += v[i] * get(i);
      double s = 2 * dot / vv;
      for (size_t i = k; i < m; ++i) set(i, get(i) - s * v[i]);
    };
    for (size_t j = k; j < n; ++j)
      reflect([&](size_t i) { return a[i][j]; }, [&](size_t i, double x) { a[i][j] = x; });
    reflect([&](size_t i) { return b[i]; }, [&](size_t i, double x) { b[i] = x; });
  }
  std::vector<double> x(n, 0.0);
  for (size_t k = n; k-- > 0;) {
    double s = b[k];
    for (size_t j = k + 1; j < n; ++j) s -= a[k][j] * x[j];
    x[k] = std::abs(a[k][k]) > 1e-300 ? s / a[k][k] : 0;
  }
  return x;
}

}  // namespace eqfuse
