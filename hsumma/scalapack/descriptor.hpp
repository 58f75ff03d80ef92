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
#include <stdexcept>
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
// a pair of these, so redistribution needs no further arithmetic. Stored as runs
// (consecutive items on one owner whose local indices go on by one): about
// len / block of them, where a map per item (12 bytes an item) held O(m + n + k)
// per rank through every call, 6 MB a rank at n = 65536, which every simulated
// rank of an SMPI run holds at once (issue 51).
class Axis {
 public:
  struct Run {
    std::int64_t start;  // the run's first item
    int owner;
    std::int64_t local;  // the first item's local index
    bool operator==(const Run& o) const { return start == o.start && owner == o.owner && local == o.local; }
  };
  static Axis of(const CyclicDim& dim, std::int64_t offset, std::int64_t len);
  std::int64_t size() const { return len_; }
  int owner(std::int64_t t) const { return run_at(t).owner; }
  std::int64_t local(std::int64_t t) const {
    const Run& r = run_at(t);
    return r.local + (t - r.start);
  }
  std::int64_t count(int proc) const;  // items owned by proc
  // Appends `len` items on `owner` with local indices local, local + 1, ...
  void append(int owner, std::int64_t local, std::int64_t len = 1);
  const std::vector<Run>& runs() const { return runs_; }
  std::int64_t run_end(std::size_t i) const { return i + 1 < runs_.size() ? runs_[i + 1].start : len_; }
  // Reads at t not decreasing, in amortized O(1): the run holding t and where it ends.
  class Cursor {
   public:
    explicit Cursor(const Axis& a) : a_(a) {}
    const Run& at(std::int64_t t) {
      // Past the end the loop below would never stop (run_end stays len_): an internal error, said.
      if (t < 0 || t >= a_.len_) throw std::out_of_range("hympi scalapack: Axis::Cursor::at past the axis");
      while (a_.run_end(i_) <= t) ++i_;
      return a_.runs_[i_];
    }
    std::int64_t end() const { return a_.run_end(i_); }

   private:
    const Axis& a_;
    std::size_t i_ = 0;
  };
  // Runs are maximal (append merges), so equal maps have equal runs.
  bool operator==(const Axis& o) const { return len_ == o.len_ && runs_ == o.runs_; }

 private:
  const Run& run_at(std::int64_t t) const;
  std::vector<Run> runs_;
  std::int64_t len_ = 0;
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
