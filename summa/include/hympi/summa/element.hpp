// The element types of a multiply (ScaLAPACK's s, d, c, z): what the one panel
// pipeline and the drop-in's copies need to know of a type, as data. Nothing
// above this file is written per precision; element.cpp instantiates the four
// from one template.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace hympi::summa {

struct Element {
  char code;         // 's', 'd', 'c' or 'z' (ScaLAPACK's prefix)
  std::size_t size;  // bytes
  bool complex;      // 'C' (conjugate transpose) differs from 'T'
  const char* name;  // "single", "double", "complex", "complex16"
  // The key of the element's tuning-file entries and messages: the prefix, with
  // "3m" when gemm is the BLAS's 3M kernel (its own GEMM rate).
  const char* tag;
  MPI_Datatype (*mpi)();  // a function: some MPIs' handles are not constant expressions
  // C += alpha * A * B, column-major, no transposes; alpha points at one element.
  void (*gemm)(std::int64_t m, std::int64_t n, std::int64_t k, const void* alpha, const void* a, std::int64_t lda,
               const void* b, std::int64_t ldb, void* c, std::int64_t ldc);
  // out[i * stride] = alpha * x[i] + beta * out[i * stride], x = conj(in) when
  // `conj`, else in. beta = 0 never reads out (NaN there vanishes).
  void (*combine)(const void* in, std::int64_t len, void* out, std::int64_t stride, const void* alpha, const void* beta,
                  bool conj);
  // x[i] = beta * x[i] for len contiguous elements; beta = 0 writes zeros.
  void (*scale)(void* x, std::int64_t len, const void* beta);
  bool (*is_zero)(const void* x);
  bool (*is_one)(const void* x);
  const void* zero;  // the element 0
  const void* one;   // the element 1
};

// float, double, std::complex<float>, std::complex<double>.
template <class T>
const Element& element();

// The element of a ScaLAPACK prefix, or null for another letter.
const Element* element_of(char code);

// The complex element `code` ('c' or 'z') whose gemm is the BLAS's 3M kernel
// (cgemm3m/zgemm3m: three real products instead of four, about 25% fewer
// flops, normwise as accurate, not componentwise). Null for real prefixes and
// when the BLAS has no such kernel (gemm3m_available()).
const Element* element_3m(char code);
bool gemm3m_available();
// Whether e is one of element_3m's elements.
bool is_3m(const Element& e);

// Byte arithmetic on element pointers: `count` elements past p.
inline const void* advance(const void* p, std::int64_t count, const Element& e) {
  return static_cast<const std::byte*>(p) + count * static_cast<std::int64_t>(e.size);
}
inline void* advance(void* p, std::int64_t count, const Element& e) {
  return static_cast<std::byte*>(p) + count * static_cast<std::int64_t>(e.size);
}

}  // namespace hympi::summa
