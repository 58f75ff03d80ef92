! Fortran consumer: a hybrid allgather checked against the plain expectation, and
! hympi_version() against the version the build system found (first argument).
program consumer_f
  use mpi_f08
  use hympi
  implicit none
  type(hympi_allgather_t) :: ag
  real(8), pointer :: mine(:), whole(:)
  character(len=64) :: expected
  integer :: rank, size, ierr, r, bad, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  bad = 0
  ierr = hympi_allgather_create(MPI_COMM_WORLD, 1, HYMPI_POLICY_HYBRID, HYMPI_SYNC_FLAGS, ag)
  if (ierr /= 0) then
    print '(2a)', 'consumer_f: ', hympi_last_error()
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  mine => hympi_allgather_slot(ag, 1)
  mine(1) = rank + 0.5d0
  ierr = hympi_allgather_run(ag)
  whole => hympi_allgather_result(ag)
  do r = 0, size - 1
    if (whole(r + 1) /= r + 0.5d0) bad = bad + 1
  end do
  ierr = hympi_allgather_free(ag)
  call get_command_argument(1, expected)
  if (hympi_version() /= trim(expected)) then
    print '(4a)', 'consumer_f: version ', hympi_version(), ', expected ', trim(expected)
    bad = bad + 1
  end if
  call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total == 0) then
    print '(a)', 'consumer_f: ok'
  else
    print '(a)', 'consumer_f: FAILED'
  end if
  call MPI_Finalize()
  if (total /= 0) error stop 1
end program
