// The alpha-beta (Hockney) cost model of SUMMA/HSUMMA, the same formulas as
// apps/model/hympi_model.py (the reference: tests/scalapack/model_choice_test.py
// compares this port with it on a table of inputs). Used by groups=auto.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "hympi/enums.hpp"

namespace hympi::hsumma::model {

enum class Bcast { binomial, vandegeijn, pipelined };

}  // namespace hympi::hsumma::model

namespace hympi {
// The broadcast models' names (model=..., --bcast, the model's tables): parse_bcast,
// bcast_name and every list of them come from here.
template <>
struct EnumTable<hsumma::model::Bcast> {
  static constexpr const char* what = "broadcast model";
  static constexpr Spelling<hsumma::model::Bcast> names[] = {{"binomial", hsumma::model::Bcast::binomial},
                                                             {"vandegeijn", hsumma::model::Bcast::vandegeijn},
                                                             {"pipelined", hsumma::model::Bcast::pipelined}};
  static constexpr std::array<Spelling<hsumma::model::Bcast>, 0> aliases{};
};
}  // namespace hympi

namespace hympi::hsumma::model {

// A name of the table above -> the model; anything else throws hympi::Error(invalid_argument) listing them.
Bcast parse_bcast(const std::string& name);
const char* bcast_name(Bcast b);

struct Machine {
  double alpha = 0;  // seconds per message
  double beta = 0;   // seconds per byte
  double gamma = 0;  // flop/s per process
  int elem_bytes = 8;
};

struct Problem {
  double m = 0, n = 0, k = 0;
  double b = 0, M = 0;  // inner and outer panel widths (M a multiple of b)
  int P = 1, Q = 1;
};

struct Prediction {
  int I = 1, J = 1;
  double t_outer = 0, t_inner = 0, t_comm = 0, t_comp = 0, t_total = 0;
};

// (L(p), W(p)) of one broadcast among p processes.
std::pair<double, double> bcast_terms(Bcast algorithm, int p, int segments = 16);

// Time of HSUMMA with I x J groups (SUMMA when I = J = 1).
Prediction predict(const Problem& pb, const Machine& mc, Bcast algorithm, int I, int J, int segments = 16);

// One I x J per group count G (I | P, J | Q), the most grid-shaped one, by G.
std::vector<std::pair<int, int>> group_shapes(int P, int Q);

// The fastest group shape (ties: the smaller G), as hympi_model.optimal(sweep(...)).
Prediction optimal(const Problem& pb, const Machine& mc, Bcast algorithm, int segments = 16);

// --- The same model with measured broadcasts (model=measured) ---------------
// A broadcast on one kind of HSUMMA communicator, as measured with every line of
// that kind broadcasting at once: time(bytes) = latency + bytes * per_byte. The
// formulas above assume one alpha and beta for every communicator; on a torus (or
// any network where a line's placement and its neighbours' traffic matter) the
// measured line is what the multiply will see.
struct Line {
  double latency = 0, per_byte = 0;
  double time(double bytes) const { return latency + bytes * per_byte; }
  // The line through two measured points (clamped to be non-negative).
  static Line fit(double bytes1, double t1, double bytes2, double t2);
};

// The four broadcast kinds of HSUMMA with I x J groups: outer = among groups
// (rows of J, columns of I processes), inner = within a group (Q/J, P/I). A
// line of one process costs nothing.
struct MeasuredShape {
  int I = 1, J = 1;
  Line outer_row, outer_col, inner_row, inner_col;
  // One step of the engine's schedule measured back to back, over the sum of
  // its broadcasts measured alone (<= 1): what the order of the broadcasts
  // hides when ranks run ahead into the next one (1: nothing).
  double schedule = 1.0;
};

// The formulas' lines: predict_measured(pb, mc, formula_shape(...)) == predict(...).
MeasuredShape formula_shape(const Problem& pb, const Machine& mc, Bcast algorithm, int I, int J, int segments = 16);

// HSUMMA's time with the shape's measured broadcasts and mc.gamma (alpha, beta unused).
Prediction predict_measured(const Problem& pb, const Machine& mc, const MeasuredShape& shape);

// A candidate inner panel width b and the DGEMM rate measured for it.
struct BlockRate {
  double b = 0, gamma = 0;
};

struct Choice {
  Prediction p;
  double b = 0, M = 0;
};

// The fastest (shape, b): ties keep the smaller G, then the larger b. For each
// candidate b, M = pb.M rounded up to a multiple of b (pb.M = 0: M = b). No
// blocks: pb.b at mc.gamma.
Choice choose_measured(const Problem& pb, const Machine& mc, const std::vector<MeasuredShape>& shapes,
                       const std::vector<BlockRate>& blocks);

}  // namespace hympi::hsumma::model
