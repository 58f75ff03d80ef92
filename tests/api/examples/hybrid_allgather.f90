! Example: hybrid allgather (Zhou et al.'s first code). Every rank computes its
! block of a vector x(i) = i for i = 1..n, the persistent allgather assembles x
! once per node, and every rank reads it in place to form sum(x*x), checked
! against the closed form n(n+1)(2n+1)/6. Iterated, as a solver would, with the
! same request started again on new data.
program hybrid_allgather
  use mpi_f08
  use hympi_f08
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: block = 1000, iterations = 4
  type(hympi_request) :: request
  real(real64), pointer :: mine(:), x(:)
  integer :: rank, nranks, i, it, failed
  real(real64) :: n, expected

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  call hympi_allgather_init(block, MPI_REAL8, MPI_COMM_WORLD, MPI_INFO_NULL, request)
  failed = 0
  do it = 1, iterations
    call hympi_slot(request, mine)
    mine = [(real(rank * block + i, real64) * it, i = 1, block)]  ! x scaled by the iteration
    call hympi_start(request)
    call hympi_wait(request)
    call hympi_result(request, x)                                  ! the node's one copy
    n = real(block, real64) * nranks
    expected = n * (n + 1) * (2 * n + 1) / 6 * it * it
    if (abs(sum(x * x) - expected) > 1e-9_real64 * expected .or. size(x) /= block * nranks) failed = failed + 1
  end do
  call hympi_request_free(request)
  call MPI_Allreduce(MPI_IN_PLACE, failed, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, a)', 'hybrid_allgather: ', merge('passed', 'FAILED', failed == 0)
  call MPI_Finalize()
  if (failed /= 0) error stop 1
end program
