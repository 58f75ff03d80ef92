! Leaving a grid is local for Fortran callers too (issue 42, item 1): the
! drop-in's blacs_gridexit (Fortran binding) only retires a grid's engines, and
! Fortran's MPI_FINALIZE reaches the intercepted MPI_Finalize that frees them.
! Two grids over all ranks, each multiplied on (checked exactly); rank 0 leaves
! them in creation order and then MPI_RECVs, the last rank MPI_SSENDs first and
! then leaves them in the other order. Before 2026-11-27 this hung (a barrier
! in blacs_gridexit); the ctest TIMEOUT turns a hang into a failure.
program grid_exit_fortran
  use mpi
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function hympi_pdgemm_retired_grids() bind(c)
      import :: c_int
    end function
  end interface
  integer :: iam, nprocs, ctxt(2), g, ierr, token, wrong, total
  integer, parameter :: left_first(2) = [1, 2], left_last(2) = [2, 1]

  call MPI_INIT(ierr)
  call blacs_pinfo(iam, nprocs)
  wrong = 0
  do g = 1, 2
    call blacs_get(-1, 0, ctxt(g))
    call blacs_gridinit(ctxt(g), 'Row-major', 1, nprocs)
    wrong = wrong + multiply_wrong(ctxt(g))
  end do
  token = 42
  if (iam == 0) then
    do g = 1, 2
      call blacs_gridexit(ctxt(left_first(g)))
    end do
    call MPI_RECV(token, 1, MPI_INTEGER, nprocs - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else
    if (iam == nprocs - 1) call MPI_SSEND(token, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
    do g = 1, 2
      call blacs_gridexit(ctxt(left_last(g)))
    end do
  end if
  if (hympi_pdgemm_retired_grids() /= 2) wrong = wrong + 1000  ! left, not yet freed
  call MPI_ALLREDUCE(wrong, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call blacs_exit(1)
  call MPI_FINALIZE(ierr)
  if (hympi_pdgemm_retired_grids() /= 0) total = total + 1  ! MPI_FINALIZE freed them
  if (iam == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'grid exit fortran: ', nprocs, ' ranks: ok'
    else
      print '(a,i0,a,i0)', 'grid exit fortran: FAIL, wrong: ', total, ' on ', nprocs
    end if
  end if

contains

  ! C = A * B (n x n, 1 x nprocs grid), compared exactly with the serial product.
  integer function multiply_wrong(ictxt)
    integer, intent(in) :: ictxt
    integer, parameter :: n = 12, nb = 2
    integer :: nprow, npcol, myrow, mycol, nloc, desc(9), info, i, j, p, gj
    double precision, allocatable :: a(:, :), b(:, :), c(:, :)
    double precision :: want
    integer, external :: numroc, indxl2g
    call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
    nloc = numroc(n, nb, mycol, 0, npcol)
    allocate (a(n, max(nloc, 1)), b(n, max(nloc, 1)), c(n, max(nloc, 1)))
    call descinit(desc, n, n, nb, nb, 0, 0, ictxt, n, info)
    do j = 1, nloc
      gj = indxl2g(j, nb, mycol, 0, npcol)
      do i = 1, n
        a(i, j) = mod(i + 2 * gj, 5) - 2
        b(i, j) = mod(3 * i + gj, 7) - 3
      end do
    end do
    c = -7
    call pdgemm('N', 'N', n, n, n, 1.0d0, a, 1, 1, desc, b, 1, 1, desc, 0.0d0, c, 1, 1, desc)
    multiply_wrong = 0
    do j = 1, nloc
      gj = indxl2g(j, nb, mycol, 0, npcol)
      do i = 1, n
        want = 0
        do p = 1, n
          want = want + (mod(i + 2 * p, 5) - 2) * (mod(3 * p + gj, 7) - 3)
        end do
        if (c(i, j) /= want) multiply_wrong = multiply_wrong + 1
      end do
    end do
  end function

end program
