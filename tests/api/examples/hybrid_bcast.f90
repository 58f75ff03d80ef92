! Example: hybrid broadcast (Zhou et al.'s second code). The root builds a table
! (here the first `count` primes) and broadcasts it; every node holds one copy
! that all its ranks read in place. Each root in turn, one persistent request per
! root as with MPI_Bcast_init; checked by every rank against its own sieve.
program hybrid_bcast
  use mpi_f08
  use hympi_f08
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: count = 500
  type(hympi_request), allocatable :: from(:)
  integer(int64), pointer :: table(:), got(:)
  integer(int64) :: reference(count)
  integer :: rank, nranks, root, failed

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  allocate(from(0:nranks - 1))
  do root = 0, nranks - 1
    call hympi_bcast_init(count, MPI_INTEGER8, root, MPI_COMM_WORLD, MPI_INFO_NULL, from(root))
  end do
  call primes(reference)
  failed = 0
  do root = 0, nranks - 1
    call hympi_slot(from(root), table)    ! associated on the root only
    if (rank == root) then
      call primes(table)
      table = table + root                ! a different payload per root
    end if
    call hympi_start(from(root))
    call hympi_wait(from(root))
    call hympi_result(from(root), got)
    if (size(got) /= count) then
      failed = failed + 1
    else if (any(got /= reference + root)) then
      failed = failed + 1
    end if
  end do
  do root = 0, nranks - 1
    call hympi_request_free(from(root))
  end do
  call MPI_Allreduce(MPI_IN_PLACE, failed, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, a)', 'hybrid_bcast: ', merge('passed', 'FAILED', failed == 0)
  call MPI_Finalize()
  if (failed /= 0) error stop 1

contains

  subroutine primes(p)
    integer(int64), intent(out) :: p(:)
    integer(int64) :: candidate
    integer :: found, k
    found = 0
    candidate = 1
    do while (found < size(p))
      candidate = candidate + 1
      if (all([(mod(candidate, p(k)) /= 0, k = 1, found)])) then
        found = found + 1
        p(found) = candidate
      end if
    end do
  end subroutine

end program
