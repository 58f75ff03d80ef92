"""hympi-harness: sweeps one declarative experiment per figure through an MPI launcher."""
