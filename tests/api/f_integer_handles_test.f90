! The persistent API from a code still on `use mpi` (integer handles): the same
! generic inits of module hympi_f08 accept MPI_COMM_WORLD, MPI_DOUBLE_PRECISION
! and MPI_INFO_NULL as integers.
program f_integer_handles_test
  use mpi
  use hympi_f08, only: hympi_request, hympi_allgather_init, hympi_bcast_init, hympi_start, hympi_wait, &
                       hympi_slot, hympi_result, hympi_request_free, HYMPI_SUCCESS, HYMPI_ERR_ARG
  implicit none
  integer :: rank, nranks, ierr, bad, r, info
  type(hympi_request) :: request
  double precision, pointer :: mine(:), whole(:)
  double precision :: expected(2 * 64)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  bad = 0

  call hympi_allgather_init(2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, MPI_INFO_NULL, request, ierr)
  if (ierr /= HYMPI_SUCCESS) bad = bad + 1
  call hympi_slot(request, mine)
  mine = [dble(rank), -dble(rank)]
  call hympi_start(request)
  call hympi_wait(request)
  call hympi_result(request, whole)
  expected(1:2 * nranks) = [(dble(r / 2) * merge(1, -1, mod(r, 2) == 0), r = 0, 2 * nranks - 1)]
  if (size(whole) /= 2 * nranks) then
    bad = bad + 1
  else if (any(whole /= expected(1:2 * nranks))) then
    bad = bad + 1
  end if
  call hympi_request_free(request)

  ! A bad info value through an integer info handle fails on every rank.
  call MPI_Info_create(info, ierr)
  if (rank == 0) call MPI_Info_set(info, 'policy', 'fastest', ierr)
  call hympi_bcast_init(1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, info, request, ierr)
  if (ierr /= HYMPI_ERR_ARG) bad = bad + 1
  call MPI_Info_free(info, ierr)

  call finish_test('f_integer_handles', bad)

contains

  include "f_test_frame.inc"
end program
