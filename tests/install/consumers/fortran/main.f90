! Fortran consumer: a hybrid allgather request checked against the plain
! expectation, and hympi_version() against the version the build system found
! (first argument).
program consumer_f
  use mpi_f08
  use hympi_f08
  implicit none
  type(hympi_request) :: ag
  type(MPI_Info) :: info
  real(8), pointer :: mine(:), whole(:)
  character(len=64) :: expected
  integer :: rank, size, ierr, r, bad, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  bad = 0
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'policy', 'hybrid')
  call hympi_allgather_init(1, MPI_REAL8, MPI_COMM_WORLD, info, ag, ierr)
  if (ierr /= HYMPI_SUCCESS) then
    print '(2a)', 'consumer_f: ', hympi_last_error()
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Info_free(info)
  call hympi_slot(ag, mine)
  mine(1) = rank + 0.5d0
  call hympi_start(ag)
  call hympi_wait(ag)
  call hympi_result(ag, whole)
  do r = 0, size - 1
    if (whole(r + 1) /= r + 0.5d0) bad = bad + 1
  end do
  call hympi_request_free(ag)
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
