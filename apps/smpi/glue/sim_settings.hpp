// The fidelity settings the simulated MPI layer reads from the environment (set by the
// run scripts' fidelity_setup, apps/smpi/run-common.sh; apps/smpi/README.md "Fidelity
// settings"). Unset = the legacy behaviour, so a binary run without them keeps its
// committed results:
//   HYMPI_SIM_SHARING    fair | route (unset: route)  fair: the receiver of a layer message
//                        sleeps hops x hympi_hop_latency_us after it arrived (the platform's
//                        network links have latency 0, make_platform.py --sharing fair)
//   HYMPI_SIM_OVERHEADS  all | smpi (unset: smpi)     all: the layer charges the host
//                        properties' overheads on every message it sends or receives
//   HYMPI_SIM_BCAST      dcmf | mpich | smpi (unset: smpi)  the layer's own MPI_Bcast, or SMPI's
//   HYMPI_SIM_RING_MERGE S >= 1 (unset: 1)            ring allgather steps merged S at a time
// A bad value stops the run with a message naming the variable.
#pragma once

namespace hympi_sim {

enum class Bcast { smpi, mpich, dcmf };

struct Settings {
  bool fair_sharing = false;
  bool all_overheads = false;
  Bcast bcast = Bcast::smpi;
  int ring_merge = 1;
};

// Read once per rank (the values are the same for every rank of a run).
const Settings& settings();

}  // namespace hympi_sim
