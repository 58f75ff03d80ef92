#include "call_shape.hpp"

#include <cctype>

#include "hympi/blacs.h"

namespace hympi::hsumma::scalapack {

namespace {

char op_of(char t, const summa::Element& e) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(t)));
  return u == 'C' && !e.complex ? 'T' : u;  // conjugate transpose is transpose for real data
}

Op copy_op(char t) {
  return t == 'N' ? Op::none : t == 'C' ? Op::conj_transpose : Op::transpose;
}

}  // namespace

std::optional<CallShape> read_shape(const PdgemmCall& call) {
  const char ta = op_of(call.transa, call.elem), tb = op_of(call.transb, call.elem);
  const auto known = [](char t) { return t == 'N' || t == 'T' || t == 'C'; };
  if (!known(ta) || !known(tb)) return std::nullopt;
  if (call.m < 0 || call.n < 0 || call.k < 0) return std::nullopt;
  const auto da = read_descriptor(call.desca), db = read_descriptor(call.descb), dc = read_descriptor(call.descc);
  if (!da || !db || !dc || da->ctxt != db->ctxt || da->ctxt != dc->ctxt) return std::nullopt;
  CallShape shape{ta, tb, copy_op(ta), copy_op(tb), call.m, call.n, call.k, *da, *db, *dc, -1, -1, -1, -1};
  Cblacs_gridinfo(da->ctxt, &shape.nprow, &shape.npcol, &shape.myrow, &shape.mycol);
  if (shape.nprow < 1 || shape.npcol < 1 || shape.myrow < 0 || shape.mycol < 0) return std::nullopt;
  return shape;
}

}  // namespace hympi::hsumma::scalapack
