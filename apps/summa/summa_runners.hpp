// The timed runs of hympi-summa: one variant of the engine (SUMMA / HSUMMA) or of
// ScaLAPACK PDGEMM, its repetitions and its correctness checks. Each returns
// whether the checks passed.
#pragma once
#include "summa_report.hpp"
#include "summa_setup.hpp"

namespace hympi::apps {

bool run_engine(const Setup& s, Reporter& out, Variant v);
bool run_pdgemm(const Setup& s, Reporter& out, const Variant& v);

}  // namespace hympi::apps
