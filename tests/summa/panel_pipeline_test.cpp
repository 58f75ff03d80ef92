// Unit tests of SUMMA's step loop (summa/panel_pipeline.hpp) on one rank: a
// panel source that reads panels in place and records when the pipeline posts
// them. The order of posts and updates is the lookahead contract; the product
// must not depend on it.
#include "hympi/summa/panel_pipeline.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using hympi::summa::Operand;
using hympi::summa::Panel;
using hympi::summa::PanelFlight;

// k = 7 in outer steps of widths 3, 3, 1, cut into inner steps of at most 2.
// A is 3 x 7, B is 7 x 2, both column-major and dense.
class InPlaceSource : public hympi::summa::PanelSource {
 public:
  static constexpr std::int64_t m = 3, n = 2, k = 7;
  InPlaceSource(const std::vector<double>& a, const std::vector<double>& b, std::string& log)
      : a_(a), b_(b), log_(log) {}

  std::size_t outer_steps() const override { return first_.size(); }
  std::size_t inner_steps(std::size_t o) const override { return o + 1 < first_.size() ? 2 : 1; }
  std::int64_t width(std::size_t o, std::size_t s) const override {
    const std::int64_t outer = (o + 1 < first_.size() ? first_[o + 1] : k) - first_[o];
    return s == 0 ? std::min<std::int64_t>(2, outer) : outer - 2;
  }
  PanelFlight post_outer(Operand op, std::size_t o) override {
    if (op == hympi::summa::kA) log_ += "O" + std::to_string(o) + " ";
    return {nullptr, at(op, first_[o]), true};
  }
  PanelFlight post_inner(Operand op, std::size_t o, std::size_t s, Panel outer) override {
    if (op == hympi::summa::kA) log_ += "I" + std::to_string(o) + "." + std::to_string(s) + " ";
    const std::int64_t dk = s == 0 ? 0 : 2;
    return {nullptr, {static_cast<const double*>(outer.data) + (op == hympi::summa::kA ? dk * m : dk), outer.ld}, true};
  }

 private:
  Panel at(Operand op, std::int64_t k0) const {
    return op == hympi::summa::kA ? Panel{a_.data() + k0 * m, m} : Panel{b_.data() + k0, k};
  }
  const std::vector<int> first_{0, 3, 6};  // first k of each outer step
  const std::vector<double>& a_;
  const std::vector<double>& b_;
  std::string& log_;
};

struct Outcome {
  std::string log;
  std::vector<double> c;
  hympi::summa::PostCounts posts;
};

Outcome run(int lookahead) {
  std::vector<double> a(InPlaceSource::m * InPlaceSource::k), b(InPlaceSource::k * InPlaceSource::n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.1 * static_cast<double>(i) - 0.7;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0 / static_cast<double>(i + 3);
  Outcome r;
  r.c.assign(InPlaceSource::m * InPlaceSource::n, 1.0);
  InPlaceSource source(a, b, r.log);
  const double two = 2.0;
  r.posts = hympi::summa::run_steps(source, lookahead, hympi::summa::element<double>(), &two,
                                    {r.c.data(), InPlaceSource::m, InPlaceSource::m, InPlaceSource::n},
                                    [&](hympi::summa::Phase p) {
                                      if (p == hympi::summa::Phase::updated) r.log += "U ";
                                    });
  // C = 1 + 2 * A * B, summed in k order.
  for (std::int64_t j = 0; j < InPlaceSource::n; ++j)
    for (std::int64_t i = 0; i < InPlaceSource::m; ++i) {
      double sum = 0;
      for (std::int64_t t = 0; t < InPlaceSource::k; ++t)
        sum += a[static_cast<std::size_t>(i + t * InPlaceSource::m)] *
               b[static_cast<std::size_t>(t + j * InPlaceSource::k)];
      EXPECT_NEAR(r.c[static_cast<std::size_t>(i + j * InPlaceSource::m)], 1.0 + 2.0 * sum, 1e-12);
    }
  return r;
}

TEST(PanelPipeline, WithoutLookaheadEachUpdatePostsItsOwnPanels) {
  const Outcome r = run(0);
  EXPECT_EQ(r.log, "O0 I0.0 U I0.1 U O1 I1.0 U I1.1 U O2 I2.0 U ");
  EXPECT_EQ(r.posts.outer, 6);
  EXPECT_EQ(r.posts.inner, 10);
}

TEST(PanelPipeline, LookaheadPostsTheNextPanelsBeforeTheUpdate) {
  // The next inner panels before every update; outer step o + 1 when step o begins.
  const Outcome r = run(1);
  EXPECT_EQ(r.log, "O0 I0.0 O1 I0.1 U I1.0 U O2 I1.1 U I2.0 U U ");
  EXPECT_EQ(r.posts.outer, 6);
  EXPECT_EQ(r.posts.inner, 10);
}

TEST(PanelPipeline, LookaheadLeavesTheProductBitIdentical) {
  EXPECT_EQ(run(0).c, run(1).c);
}

}  // namespace
