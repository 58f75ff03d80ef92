// The 3M elements (summa::element_3m): only for c and z, the same element but
// for the kernel and tag, and their gemm is a different kernel (its rounding
// differs from the plain one) whose product is right (a plain triple loop).
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <random>
#include <vector>

#include "hympi/summa/element.hpp"

namespace hympi::summa {
namespace {

template <class T>
void check_3m(char code, double tolerance) {
  const Element* fast = element_3m(code);
  ASSERT_NE(fast, nullptr);
  const Element& plain = element<T>();
  EXPECT_EQ(fast->code, plain.code);
  EXPECT_EQ(fast->size, plain.size);
  EXPECT_EQ(std::string(fast->tag), std::string(1, code) + "3m");
  EXPECT_NE(fast->gemm, plain.gemm);

  const int m = 67, n = 59, k = 71;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  auto random = [&](int count) {
    std::vector<T> v(count);
    for (T& x : v) x = T(u(gen), u(gen));
    return v;
  };
  const std::vector<T> a = random(m * k), b = random(k * n), c0 = random(m * n);
  const T alpha(0.75, -0.5);
  std::vector<T> by_3m = c0, by_plain = c0;
  fast->gemm(m, n, k, &alpha, a.data(), m, b.data(), k, by_3m.data(), m);
  plain.gemm(m, n, k, &alpha, a.data(), m, b.data(), k, by_plain.data(), m);

  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      std::complex<double> ref = c0[i + j * m];
      for (int l = 0; l < k; ++l)
        ref += std::complex<double>(alpha) * std::complex<double>(a[i + l * m]) * std::complex<double>(b[l + j * k]);
      worst = std::max(worst, std::abs(std::complex<double>(by_3m[i + j * m]) - ref) / (1 + std::abs(ref)));
    }
  EXPECT_LT(worst, tolerance);
  // Another kernel ran: 3M's sums of real and imaginary parts round differently.
  EXPECT_NE(std::memcmp(by_3m.data(), by_plain.data(), by_3m.size() * sizeof(T)), 0);
}

TEST(Element3m, RealPrecisionsHaveNone) {
  EXPECT_EQ(element_3m('s'), nullptr);
  EXPECT_EQ(element_3m('d'), nullptr);
  EXPECT_EQ(element_3m('x'), nullptr);
}

TEST(Element3m, ComplexKernelsMultiplyRightWithAnotherKernel) {
  if (!gemm3m_available()) {
    EXPECT_EQ(element_3m('c'), nullptr);
    EXPECT_EQ(element_3m('z'), nullptr);
    GTEST_SKIP() << "this BLAS has no cgemm3m_/zgemm3m_";
  }
  check_3m<std::complex<float>>('c', 1e-4);
  check_3m<std::complex<double>>('z', 1e-12);
}

}  // namespace
}  // namespace hympi::summa
