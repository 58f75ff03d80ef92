// The apps' problem options (apps/common/problem_options.hpp): one meaning of each
// letter, -N over -m -n -k, M = b by default, and every bad value named.
#include "problem_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hympi/error.hpp"

namespace {

using hympi::apps::GridRanks;
using hympi::apps::ProblemOptions;

ProblemOptions parse(std::vector<std::string> args, unsigned parts = hympi::apps::kProblemAll) {
  CLI::App app;
  ProblemOptions o;
  hympi::apps::add_problem_options(app, o, parts);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments in reverse
  app.parse(args);
  return o;
}

std::string error_of(const ProblemOptions& o, int ranks, GridRanks grid = GridRanks::must_match) {
  try {
    hympi::apps::check_problem_options(o, ranks, grid);
  } catch (const hympi::Error& e) {
    EXPECT_EQ(e.code(), hympi::ErrorCode::invalid_argument);
    return e.what();
  }
  return "";
}

TEST(ProblemOptions, EachLetterOneDimension) {
  const auto pb = check_problem_options(parse({"-m", "5", "-n", "7", "-k", "9", "-b", "3", "-g", "2x3"}), 6,
                                        GridRanks::must_match);
  EXPECT_EQ(pb.m, 5);
  EXPECT_EQ(pb.n, 7);
  EXPECT_EQ(pb.k, 9);
  EXPECT_EQ(pb.b, 3);
  EXPECT_EQ(pb.M, 3);  // M = b when not given
  EXPECT_EQ(pb.P, 2);
  EXPECT_EQ(pb.Q, 3);
  const auto only_n = check_problem_options(parse({"-n", "7"}), 1, GridRanks::must_match);
  EXPECT_EQ(only_n.m, 1024);  // -n is n alone, never m = n = k
  EXPECT_EQ(only_n.k, 1024);
}

TEST(ProblemOptions, SizeSetsAllThreeAndWins) {
  const auto pb = check_problem_options(parse({"-n", "3", "--size", "11", "-M", "128"}), 4, GridRanks::must_match);
  EXPECT_EQ(pb.m, 11);
  EXPECT_EQ(pb.n, 11);
  EXPECT_EQ(pb.k, 11);
  EXPECT_EQ(pb.M, 128);
  EXPECT_EQ(pb.P, 2);  // the most square grid of 4 ranks
  EXPECT_EQ(pb.Q, 2);
}

TEST(ProblemOptions, PartsLeaveOtherLettersOut) {
  EXPECT_THROW(parse({"-n", "3"}, hympi::apps::kProblemSize | hympi::apps::kProblemGrid), CLI::ParseError);
  EXPECT_THROW(parse({"-b", "3"}, hympi::apps::kProblemShape), CLI::ParseError);
  EXPECT_EQ(parse({"-N", "3"}, hympi::apps::kProblemSize).size, 3);
}

TEST(ProblemOptions, BadValuesAreNamed) {
  EXPECT_NE(error_of(parse({"-k", "0"}), 1).find("matrix sizes must be positive (m=1024, n=1024, k=0)"),
            std::string::npos);
  EXPECT_NE(error_of(parse({"-b", "0"}), 1).find("the inner block size b must be >= 1"), std::string::npos);
  EXPECT_NE(error_of(parse({"-b", "4", "-M", "6"}), 1).find("M=6 must be a multiple of the inner block size b=4"),
            std::string::npos);
  EXPECT_NE(error_of(parse({"-b", "8", "-M", "4"}), 1).find("b=8 exceeds the outer block size M=4"),
            std::string::npos);
  EXPECT_NE(error_of(parse({"--grid", "2x2"}), 2).find("the grid 2x2 has 4 ranks but the communicator has 2"),
            std::string::npos);
  EXPECT_EQ(error_of(parse({"--grid", "2x2"}), 2, GridRanks::any), "");  // a model input
  EXPECT_NE(error_of(parse({"--grid", "2by2"}), 4).find("--grid must be PxQ"), std::string::npos);
}

}  // namespace
