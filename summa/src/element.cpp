#include "hympi/summa/element.hpp"

#include <cblas.h>

#include <complex>
#include <type_traits>

#ifdef HYMPI_BLAS_HAS_GEMM3M
// Not in every cblas.h: the Fortran entries (OpenBLAS, MKL), by reference.
extern "C" {
void cgemm3m_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const void* alpha,
              const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
              std::size_t ta_len, std::size_t tb_len);
void zgemm3m_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const void* alpha,
              const void* a, const int* lda, const void* b, const int* ldb, const void* beta, void* c, const int* ldc,
              std::size_t ta_len, std::size_t tb_len);
}
#endif

namespace hympi::summa {

namespace {

template <class T>
struct IsComplex : std::false_type {};
template <class T>
struct IsComplex<std::complex<T>> : std::true_type {};

// The BLAS call of each type (C += alpha * A * B).
void gemm_of(const float* alpha, int m, int n, int k, const void* a, int lda, const void* b, int ldb, void* c,
             int ldc) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, *alpha, static_cast<const float*>(a), lda,
              static_cast<const float*>(b), ldb, 1.0f, static_cast<float*>(c), ldc);
}
void gemm_of(const double* alpha, int m, int n, int k, const void* a, int lda, const void* b, int ldb, void* c,
             int ldc) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, *alpha, static_cast<const double*>(a), lda,
              static_cast<const double*>(b), ldb, 1.0, static_cast<double*>(c), ldc);
}
void gemm_of(const std::complex<float>* alpha, int m, int n, int k, const void* a, int lda, const void* b, int ldb,
             void* c, int ldc) {
  const std::complex<float> one(1);
  cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, &one, c, ldc);
}
void gemm_of(const std::complex<double>* alpha, int m, int n, int k, const void* a, int lda, const void* b, int ldb,
             void* c, int ldc) {
  const std::complex<double> one(1);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, &one, c, ldc);
}

#ifdef HYMPI_BLAS_HAS_GEMM3M
// C += alpha * A * B through the 3M kernel of T's precision.
template <class T>
void gemm3m(std::int64_t m, std::int64_t n, std::int64_t k, const void* alpha, const void* a, std::int64_t lda,
            const void* b, std::int64_t ldb, void* c, std::int64_t ldc) {
  const T one(1);
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const int ldai = static_cast<int>(lda), ldbi = static_cast<int>(ldb), ldci = static_cast<int>(ldc);
  if constexpr (std::is_same_v<T, std::complex<float>>)
    cgemm3m_("N", "N", &mi, &ni, &ki, alpha, a, &ldai, b, &ldbi, &one, c, &ldci, 1, 1);
  else
    zgemm3m_("N", "N", &mi, &ni, &ki, alpha, a, &ldai, b, &ldbi, &one, c, &ldci, 1, 1);
}
#endif

template <class T>
struct Ops {
  static inline const T zero{0}, one{1};

  static T maybe_conj(const T& x, bool conj) {
    if constexpr (IsComplex<T>::value) return conj ? std::conj(x) : x;
    static_cast<void>(conj);
    return x;
  }
  static void gemm(std::int64_t m, std::int64_t n, std::int64_t k, const void* alpha, const void* a, std::int64_t lda,
                   const void* b, std::int64_t ldb, void* c, std::int64_t ldc) {
    gemm_of(static_cast<const T*>(alpha), static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), a,
            static_cast<int>(lda), b, static_cast<int>(ldb), c, static_cast<int>(ldc));
  }
  static void combine(const void* in_v, std::int64_t len, void* out_v, std::int64_t stride, const void* alpha_v,
                      const void* beta_v, bool conj) {
    const T* in = static_cast<const T*>(in_v);
    T* out = static_cast<T*>(out_v);
    const T alpha = *static_cast<const T*>(alpha_v), beta = *static_cast<const T*>(beta_v);
    if (beta == zero) {
      for (std::int64_t i = 0; i < len; ++i) out[i * stride] = alpha * maybe_conj(in[i], conj);
    } else {
      for (std::int64_t i = 0; i < len; ++i) out[i * stride] = alpha * maybe_conj(in[i], conj) + beta * out[i * stride];
    }
  }
  static void scale(void* x_v, std::int64_t len, const void* beta_v) {
    T* x = static_cast<T*>(x_v);
    const T beta = *static_cast<const T*>(beta_v);
    for (std::int64_t i = 0; i < len; ++i) x[i] = beta == zero ? zero : beta * x[i];
  }
  static bool is_zero(const void* x) { return *static_cast<const T*>(x) == zero; }
  static bool is_one(const void* x) { return *static_cast<const T*>(x) == one; }
};

template <class T>
Element make(char code, const char* name, const char* tag, MPI_Datatype (*mpi)()) {
  return {code,
          sizeof(T),
          IsComplex<T>::value,
          name,
          tag,
          mpi,
          Ops<T>::gemm,
          Ops<T>::combine,
          Ops<T>::scale,
          Ops<T>::is_zero,
          Ops<T>::is_one,
          &Ops<T>::zero,
          &Ops<T>::one};
}

#ifdef HYMPI_BLAS_HAS_GEMM3M
// T's element with the 3M kernel as its gemm; everything else the same.
template <class T>
const Element& element_3m_of(const char* tag) {
  static const Element e = [&] {
    Element out = element<T>();
    out.tag = tag;
    out.gemm = gemm3m<T>;
    return out;
  }();
  return e;
}
#endif

}  // namespace

template <>
const Element& element<float>() {
  static const Element e = make<float>('s', "single", "s", [] { return MPI_FLOAT; });
  return e;
}
template <>
const Element& element<double>() {
  static const Element e = make<double>('d', "double", "d", [] { return MPI_DOUBLE; });
  return e;
}
template <>
const Element& element<std::complex<float>>() {
  static const Element e = make<std::complex<float>>('c', "complex", "c", [] { return MPI_C_FLOAT_COMPLEX; });
  return e;
}
template <>
const Element& element<std::complex<double>>() {
  static const Element e = make<std::complex<double>>('z', "complex16", "z", [] { return MPI_C_DOUBLE_COMPLEX; });
  return e;
}

const Element* element_of(char code) {
  switch (code) {
    case 's':
      return &element<float>();
    case 'd':
      return &element<double>();
    case 'c':
      return &element<std::complex<float>>();
    case 'z':
      return &element<std::complex<double>>();
    default:
      return nullptr;
  }
}

bool gemm3m_available() {
#ifdef HYMPI_BLAS_HAS_GEMM3M
  return true;
#else
  return false;
#endif
}

const Element* element_3m(char code) {
#ifdef HYMPI_BLAS_HAS_GEMM3M
  if (code == 'c') return &element_3m_of<std::complex<float>>("c3m");
  if (code == 'z') return &element_3m_of<std::complex<double>>("z3m");
#endif
  static_cast<void>(code);
  return nullptr;
}

bool is_3m(const Element& e) {
  return &e == element_3m(e.code);
}

}  // namespace hympi::summa
