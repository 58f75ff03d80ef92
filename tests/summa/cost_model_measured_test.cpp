// model=measured's arithmetic (hympi/hsumma/cost_model.hpp): the formulas'
// lines reproduce the formula model exactly, a fitted line goes through its
// points, the schedule factor scales communication only, and the choice over
// shapes and panel widths follows the predictions (ties: smaller G, wider b).
#include <gtest/gtest.h>

#include <random>

#include "hympi/hsumma/cost_model.hpp"

namespace model = hympi::hsumma::model;

namespace {

model::Problem problem(double n, double b, double M, int P, int Q) {
  model::Problem pb;
  pb.m = pb.n = pb.k = n, pb.b = b, pb.M = M, pb.P = P, pb.Q = Q;
  return pb;
}

model::Machine machine() {
  model::Machine mc;
  mc.alpha = 3e-6, mc.beta = 1 / 425e6, mc.gamma = 3.4e9;
  return mc;
}

}  // namespace

TEST(CostModelMeasured, FormulaLinesReproduceTheFormulaModel) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int P = 1 << std::uniform_int_distribution<int>(0, 5)(rng),
              Q = 1 << std::uniform_int_distribution<int>(0, 5)(rng);
    const double b = 1 << std::uniform_int_distribution<int>(4, 8)(rng);
    const model::Problem pb = problem(4096.0 * (1 + trial % 3), b, b * (1 << (trial % 3)), P, Q);
    model::Machine mc = machine();
    mc.alpha *= 1 + trial % 7, mc.beta *= 1 + trial % 5;
    for (const auto algorithm : {model::Bcast::binomial, model::Bcast::vandegeijn, model::Bcast::pipelined})
      for (const auto& [I, J] : model::group_shapes(P, Q)) {
        const model::Prediction f = model::predict(pb, mc, algorithm, I, J);
        const model::Prediction m = model::predict_measured(pb, mc, model::formula_shape(pb, mc, algorithm, I, J));
        EXPECT_NEAR(m.t_outer, f.t_outer, 1e-12 * (1 + f.t_outer)) << P << "x" << Q << " groups " << I << "x" << J;
        EXPECT_NEAR(m.t_inner, f.t_inner, 1e-12 * (1 + f.t_inner)) << P << "x" << Q << " groups " << I << "x" << J;
        EXPECT_DOUBLE_EQ(m.t_comp, f.t_comp);
      }
  }
}

TEST(CostModelMeasured, LineFitGoesThroughItsPoints) {
  const model::Line l = model::Line::fit(1000, 2e-6 + 1000 * 3e-9, 9000, 2e-6 + 9000 * 3e-9);
  EXPECT_NEAR(l.latency, 2e-6, 1e-15);
  EXPECT_NEAR(l.per_byte, 3e-9, 1e-18);
  EXPECT_NEAR(model::Line::fit(9000, 5.0, 1000, 1.0).time(9000), 5.0, 1e-12);  // either order
  const model::Line flat = model::Line::fit(1000, 2.0, 9000, 1.0);             // noise: never negative
  EXPECT_EQ(flat.per_byte, 0.0);
  EXPECT_EQ(flat.latency, 2.0);
}

TEST(CostModelMeasured, ScheduleScalesCommunicationOnly) {
  const model::Problem pb = problem(8192, 256, 256, 8, 8);
  const model::Machine mc = machine();
  model::MeasuredShape s = model::formula_shape(pb, mc, model::Bcast::binomial, 2, 2);
  const model::Prediction alone = model::predict_measured(pb, mc, s);
  s.schedule = 0.5;
  const model::Prediction hidden = model::predict_measured(pb, mc, s);
  EXPECT_NEAR(hidden.t_comm, 0.5 * alone.t_comm, 1e-12);
  EXPECT_EQ(hidden.t_comp, alone.t_comp);
}

TEST(CostModelMeasured, ChoosesTheFastestShapeAndBlock) {
  const model::Problem pb = problem(8192, 256, 0, 8, 8);  // M = 0: M follows b
  const model::Machine mc = machine();
  std::vector<model::MeasuredShape> shapes;
  for (const auto& [I, J] : model::group_shapes(8, 8))
    shapes.push_back(model::formula_shape(pb, mc, model::Bcast::binomial, I, J));
  // Binomial formulas are flat in G (within rounding): the smallest G wins.
  EXPECT_EQ(model::choose_measured(pb, mc, shapes, {}).p.I * model::choose_measured(pb, mc, shapes, {}).p.J, 1);
  shapes[2].schedule = 0.8;  // G = 4 hides a fifth of its broadcasts
  const model::Choice four = model::choose_measured(pb, mc, shapes, {});
  EXPECT_EQ(four.p.I * four.p.J, 4);
  EXPECT_EQ(four.b, 256);
  EXPECT_EQ(four.M, 256);
  // A DGEMM rate that collapses at the widest b makes a narrower one win.
  const model::Choice narrow = model::choose_measured(pb, mc, shapes, {{128, 3.4e9}, {256, 1.0e9}});
  EXPECT_EQ(narrow.b, 128);
  EXPECT_EQ(narrow.M, 128);
  // Equal rates: fewer, wider panels win; M rounds up to a multiple of b.
  model::Problem fixed_M = pb;
  fixed_M.M = 300;
  const model::Choice wide = model::choose_measured(fixed_M, mc, shapes, {{128, 3.4e9}, {256, 3.4e9}});
  EXPECT_EQ(wide.b, 256);
  EXPECT_EQ(wide.M, 512);
  EXPECT_THROW(model::choose_measured(pb, mc, {}, {}), std::invalid_argument);
}
