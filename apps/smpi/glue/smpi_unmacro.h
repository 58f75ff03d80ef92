// Force-included (after smpicxx's own smpi_helpers.h) into every SMPI-built source.
// smpi_helpers.h turns exit(x) into a function-like macro, which also rewrites
// member calls such as CLI11's app.exit(e); SMPI needs no exit() interception here.
#pragma once
#ifdef exit
#undef exit
#endif
