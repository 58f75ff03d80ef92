// Checkpoints of a BPMF chain: one file <dir>/chain.ckpt, replaced atomically
// (durable_file.hpp), holding what identifies the chain (its chain id, drawn at
// random when the chain starts and kept by every resume, and a hash of the data,
// the model and the seed) and its ChainState. A run resumes only from a checkpoint
// of the same chain; anything else - another data set, K, seed, alpha or burn-in,
// another chain id where one is expected, a truncated or corrupt file, an iteration
// count outside 0..INT_MAX - is refused with a message saying what differs.
//
// Format (little-endian, native doubles): 8-byte magic "HYBPMFC4", the chain id
// (32 hex digits), the rest of the identity (ChainIdentity, field by field as
// uint64/int64/double, up to alpha, then noise kind as int64, sn_init, sn_max),
// iteration and averaged (int64), the noise state (alpha, precision_sum,
// inverse_precision_sum: doubles), then five arrays as int64 length + doubles: U, V,
// prediction_sum, moment_mean, moment_m2 (per test entry, then per held-out calibration
// rating); last an 8-byte checksum of everything before it. "HYBPMFC5" (a chain with a
// calibration holdout, --calibrate > 0; since 2026-11-29) is the same with the
// fraction (a double) after sn_max; a chain without one is still written as
// "HYBPMFC4", readable by the versions before calibration. "HYBPMFC3" is the same
// layout written while adaptive noise's SN meant the precision SN / var (now (SN + 1)
// / var, SMURFF's): read for fixed noise, refused for adaptive noise. Older formats are
// read as chains with fixed noise (alpha): "HYBPMFC2" (before adaptive noise,
// 2026-11-29) is the same without the noise fields, "HYBPMFC1" (before chain ids,
// 2026-11-27) also without the chain id, whose chain gets an id when resumed.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bpmf/ratings.hpp"
#include "bpmf/sampler.hpp"

namespace bpmf {

struct ChainIdentity {
  std::uint64_t data_hash = 0;  // of the training and test ratings
  std::int64_t rows = 0, cols = 0, test_entries = 0;
  std::int64_t K = 0, burnin = 0;
  std::uint64_t seed = 0;
  double alpha = 0.0;  // fixed noise; 0 for adaptive
  std::string chain;   // 32 hex digits (new_chain_id); empty in `expected`: any chain
  NoiseKind noise = NoiseKind::fixed;
  double sn_init = 0.0, sn_max = 0.0;  // adaptive noise; 0 for fixed
  double calibrate = 0.0;              // the calibration holdout's fraction: another holdout, another chain
};

// A fresh chain id: 128 random bits as 32 hex digits.
std::string new_chain_id();

// A 64-bit hash of the shapes and entries (indices and value bits) of both matrices
// (the training entries replayed from their source: one more pass of a generator).
std::uint64_t data_hash(const TrainingInput& train, const Ratings& test);
ChainIdentity chain_identity(const TrainingInput& train, const Ratings& test, const SamplerConfig& config);

std::string checkpoint_path(const std::string& dir);
// The format's checksum of n bytes (a file ends with that of everything before it).
std::uint64_t checkpoint_checksum(const char* bytes, std::size_t n);

// Writes the checkpoint (the directory must exist). Throws InputError on failure.
void write_checkpoint(const std::string& dir, const ChainIdentity& id, const ChainState& state);

// Reads and checks a checkpoint of the chain `expected` (of any chain id when
// expected.chain is empty); the id found goes to *found_chain ("" for HYBPMFC1). Throws InputError
// naming the file and the problem (missing, truncated, corrupt, another chain, a count
// that does not fit an int).
ChainState read_checkpoint(const std::string& dir, const ChainIdentity& expected, std::string* found_chain = nullptr);

// Collective: `state` of `root` on every rank of comm.
void broadcast(ChainState& state, MPI_Comm comm, int root = 0);
// Collective: `values` of `root` (any length) on every rank of comm.
void broadcast_values(std::vector<double>& values, MPI_Comm comm, int root = 0);

}  // namespace bpmf
