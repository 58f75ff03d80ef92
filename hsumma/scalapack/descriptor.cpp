#include "descriptor.hpp"

#include <algorithm>
#include <stdexcept>

namespace hympi::hsumma::scalapack {

std::optional<Descriptor> read_descriptor(const int* d) {
  Descriptor out;
  if (d[0] == 1) {
    out.ctxt = d[1], out.m = d[2], out.n = d[3];
    out.imb = out.mb = d[4], out.inb = out.nb = d[5];
    out.rsrc = d[6], out.csrc = d[7], out.lld = d[8];
    return out;
  }
  if (d[0] == 2) {
    out.ctxt = d[1], out.m = d[2], out.n = d[3];
    out.imb = d[4], out.inb = d[5], out.mb = d[6], out.nb = d[7];
    out.rsrc = d[8], out.csrc = d[9], out.lld = d[10];
    return out;
  }
  return std::nullopt;
}

// Block 0 holds `first` items, block b > 0 holds items [first + (b-1)*block, ...).
int CyclicDim::owner(std::int64_t g) const {
  const std::int64_t b = g < first ? 0 : 1 + (g - first) / block;
  return static_cast<int>((src + b) % nprocs);
}

std::int64_t CyclicDim::local_index(std::int64_t g) const {
  if (g < first) return g;
  const std::int64_t b = 1 + (g - first) / block, offset = (g - first) % block;
  const std::int64_t before = b / nprocs;  // earlier blocks on the same process
  // The owner of block 0 (b a multiple of nprocs) holds the short first block among them.
  return b % nprocs == 0 ? first + (before - 1) * block + offset : before * block + offset;
}

std::int64_t CyclicDim::local_size(int proc) const {
  const int rel = static_cast<int>((proc - src + nprocs) % nprocs);  // block index of proc's first block
  if (n <= first) return rel == 0 ? n : 0;
  const std::int64_t rest = n - first, full = rest / block, tail = rest % block;
  const std::int64_t nblocks = 1 + full + (tail > 0 ? 1 : 0);  // including block 0
  if (rel >= nblocks) return 0;
  const std::int64_t mine = (nblocks - 1 - rel) / nprocs + 1;  // blocks rel, rel+P, ...
  const std::int64_t last = rel + (mine - 1) * nprocs;         // my last block index
  std::int64_t size = mine * block;
  if (rel == 0) size += first - block;                        // block 0 is `first` long
  if (last == nblocks - 1 && tail > 0) size -= block - tail;  // the last block is short
  return size;
}

Axis Axis::of(const CyclicDim& dim, std::int64_t offset, std::int64_t len) {
  Axis a;
  for (std::int64_t t = 0; t < len;) {  // a block (or its part in the window) at a time
    const std::int64_t g = offset + t;
    const std::int64_t left = g < dim.first ? dim.first - g : dim.block - (g - dim.first) % dim.block;
    const std::int64_t run = std::min(left, len - t);
    a.append(dim.owner(g), dim.local_index(g), run);
    t += run;
  }
  return a;
}

void Axis::append(int owner, std::int64_t local, std::int64_t len) {
  if (len <= 0) return;
  if (runs_.empty() || runs_.back().owner != owner || runs_.back().local + (len_ - runs_.back().start) != local)
    runs_.push_back({len_, owner, local});
  len_ += len;
}

const Axis::Run& Axis::run_at(std::int64_t t) const {
  if (t < 0 || t >= len_) throw std::out_of_range("hympi scalapack: Axis index past the axis");
  // The last run starting at or before t.
  const auto after =
      std::upper_bound(runs_.begin(), runs_.end(), t, [](std::int64_t x, const Run& r) { return x < r.start; });
  return *(after - 1);
}

std::int64_t Axis::count(int proc) const {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].owner == proc) n += run_end(i) - runs_[i].start;
  return n;
}

Axis compact(const Axis& like, int nprocs) {
  Axis a;
  std::vector<std::int64_t> next(static_cast<std::size_t>(nprocs), 0);
  const std::vector<Axis::Run>& runs = like.runs();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::int64_t len = like.run_end(i) - runs[i].start;
    std::int64_t& at = next[static_cast<std::size_t>(runs[i].owner)];
    a.append(runs[i].owner, at, len);
    at += len;
  }
  return a;
}

Axis k_axis(std::int64_t k, std::int64_t block, int nprocs) {
  block = std::max<std::int64_t>(1, block);
  return Axis::of({k, block, block, 0, nprocs}, 0, k);
}

const char* check_submatrix(const SubmatrixRef& r, int nprow, int npcol, int myrow) {
  const Descriptor& d = r.desc;
  if (d.m < 0 || d.n < 0) return "negative global size";
  if (d.imb < 1 || d.inb < 1 || d.mb < 1 || d.nb < 1) return "block size < 1";
  if (d.rsrc < 0 || d.rsrc >= nprow || d.csrc < 0 || d.csrc >= npcol) return "source process outside the grid";
  if (r.i < 1 || r.j < 1) return "submatrix offset < 1";
  if (r.rows < 0 || r.cols < 0) return "negative submatrix size";
  if (r.i - 1 + r.rows > d.m || r.j - 1 + r.cols > d.n) return "submatrix outside the matrix";
  const CyclicDim rows{d.m, d.imb, d.mb, d.rsrc, nprow};
  if (d.lld < std::max<std::int64_t>(1, rows.local_size(myrow))) return "local leading dimension too small";
  return nullptr;
}

}  // namespace hympi::hsumma::scalapack
