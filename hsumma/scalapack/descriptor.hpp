// ScaLAPACK array descriptors as the drop-in pdgemm reads them, and the
// index arithmetic of one block-cyclic dimension. Pure logic, no MPI.
//
// Two descriptor types exist: the classic one (DTYPE 1, 9 integers: DTYPE CTXT
// M N MB NB RSRC CSRC LLD) and PBLAS's BLOCK_CYCLIC_2D_INB (DTYPE 2, 11 integers:
// DTYPE CTXT M N IMB INB MB NB RSRC CSRC LLD) whose first block may be smaller.
// Both read into one Descriptor with imb = mb, inb = nb for type 1.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace hympi::hsumma::scalapack {

struct Descriptor {
  int ctxt = -1;
  std::int64_t m = 0, n = 0;
  std::int64_t imb = 1, inb = 1, mb = 1, nb = 1;
  int rsrc = 0, csrc = 0;
  std::int64_t lld = 1;
};

// Reads a descriptor; nothing when its type is neither 1 nor 2.
std::optional<Descriptor> read_descriptor(const int* desc);

// One dimension of a block-cyclic matrix: n items, a first block of `first`
// items then blocks of `block`, dealt cyclically to `nprocs` processes starting
// at `src`.
struct CyclicDim {
  std::int64_t n = 0, first = 1, block = 1;
  int src = 0, nprocs = 1;
  int owner(std::int64_t global) const;
  std::int64_t local_index(std::int64_t global) const;  // on its owner
  std::int64_t local_size(int proc) const;              // ScaLAPACK's numroc
};

// For the `len` items starting at global index `offset` of a dimension: who owns
// each and where it lives there. A submatrix of any distribution reads through
// a pair of these, so redistribution needs no further arithmetic.
struct Axis {
  std::vector<int> owner;
  std::vector<std::int64_t> local;
  static Axis of(const CyclicDim& dim, std::int64_t offset, std::int64_t len);
  std::int64_t size() const { return static_cast<std::int64_t>(owner.size()); }
  bool operator==(const Axis& o) const { return owner == o.owner && local == o.local; }
};

// The same owners as `like`, local indices renumbered 0, 1, ... per owner in order.
Axis compact(const Axis& like, int nprocs);

// k indices block-cyclic over nprocs from process 0, blocks of `block`.
Axis k_axis(std::int64_t k, std::int64_t block, int nprocs);

// Why a submatrix argument cannot be run by hympi (ScaLAPACK's own checks then
// decide whether it is an error); null when valid and supported. At least as
// strict as ScaLAPACK: the local leading dimension is checked on this rank.
struct SubmatrixRef {
  const Descriptor& desc;
  std::int64_t i, j;        // 1-based first row and column (IA, JA)
  std::int64_t rows, cols;  // extent of the stored submatrix
};
const char* check_submatrix(const SubmatrixRef& ref, int nprow, int npcol, int myrow);

}  // namespace hympi::hsumma::scalapack
