// Umbrella header of the hympi C++ API.
#pragma once
#include "hympi/collectives.hpp"
#include "hympi/enums.hpp"
#include "hympi/error.hpp"
#include "hympi/grid.hpp"
#include "hympi/layout.hpp"
#include "hympi/node_buffer.hpp"
#include "hympi/node_shared_array.hpp"
#include "hympi/node_sync.hpp"
#include "hympi/rank_map.hpp"
#include "hympi/reduce.hpp"
#include "hympi/topology.hpp"
#include "hympi/version.hpp"
