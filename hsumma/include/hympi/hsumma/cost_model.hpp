// The alpha-beta (Hockney) cost model of SUMMA/HSUMMA, the same formulas as
// apps/model/hympi_model.py (the reference: tests/scalapack/model_choice_test.py
// compares this port with it on a table of inputs). Used by groups=auto.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace hympi::hsumma::model {

enum class Bcast { binomial, vandegeijn, pipelined };

// "binomial" | "vandegeijn" | "pipelined"; throws std::invalid_argument naming the value.
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

}  // namespace hympi::hsumma::model
