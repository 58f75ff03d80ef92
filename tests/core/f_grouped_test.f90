! The grouped collectives from Fortran (module hympi_f08): info "groups" = 2 and
! "auto" on allreduce (real64 sum of integer values, exact) and bcast (int64),
! checked against MPI_Allreduce / the root's data over rounds; hympi_request_groups
! is the G asked capped at the ranks (pure); "0", and groups differing on one rank,
! are HYMPI_ERR_ARG through ierror.
program f_grouped
  use, intrinsic :: iso_fortran_env, only: real64, int64
  use mpi_f08
  use hympi_f08
  implicit none
  integer, parameter :: n = 50
  type(hympi_request) :: ar, bc, refused
  type(MPI_Info) :: info
  real(real64), pointer :: slot(:), got(:)
  integer(int64), pointer :: bslot(:), bgot(:)
  real(real64) :: own(n), expected(n)
  integer :: rank, size, it, i, bad, total, ierr, g
  character(len=8) :: groups(2) = [character(len=8) :: '2', 'auto']
  character(len=8) :: odd(3) = [character(len=8) :: 'auto', 'two', '1']
  character(len=8) :: usual(3) = [character(len=8) :: '2', 'auto', '2']

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  bad = 0
  do g = 1, 2
    call MPI_Info_create(info)
    call MPI_Info_set(info, 'groups', trim(groups(g)))
    call MPI_Info_set(info, 'policy', 'pure')
    call hympi_allreduce_init(n, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD, info, ar)
    call hympi_bcast_init(n, MPI_INTEGER8, size - 1, MPI_COMM_WORLD, info, bc)
    call MPI_Info_free(info)
    if (g == 1 .and. hympi_request_groups(ar) /= min(2, size)) then
      print *, 'rank', rank, ': hympi_request_groups =', hympi_request_groups(ar), ', expected', min(2, size)
      bad = bad + 1
    end if
    do it = 1, 3
      call hympi_slot(ar, slot)
      do i = 1, n
        own(i) = real(mod(rank * 37 + i * 11 + it, 101) - 50, real64)
      end do
      slot(:) = own(:)
      call hympi_slot(bc, bslot)
      if (rank == size - 1) bslot(:) = [(int(i * 1000 + it, int64), i = 1, n)]
      call hympi_start(ar)
      call hympi_start(bc)
      call hympi_wait(bc)
      call hympi_wait(ar)
      call MPI_Allreduce(own, expected, n, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD)
      call hympi_result(ar, got)
      if (any(got /= expected)) bad = bad + 1
      call hympi_result(bc, bgot)
      if (any(bgot /= [(int(i * 1000 + it, int64), i = 1, n)])) bad = bad + 1
    end do
    call hympi_request_free(ar)
    call hympi_request_free(bc)
  end do
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'groups', '0')
  call hympi_allreduce_init(n, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD, info, refused, ierr)
  call MPI_Info_free(info)
  if (ierr /= HYMPI_ERR_ARG) bad = bad + 1
  ! Issue 54: groups differing on the last rank ('auto' / 'two' / '1' there, '2' or 'auto'
  ! elsewhere): HYMPI_ERR_ARG through ierror on every rank, not an abort in MPI_Allreduce.
  if (size > 1) then
    do g = 1, 3
      call MPI_Info_create(info)
      if (rank == size - 1) then
        call MPI_Info_set(info, 'groups', trim(odd(g)))
      else
        call MPI_Info_set(info, 'groups', trim(usual(g)))
      end if
      call hympi_allreduce_init(n, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD, info, refused, ierr)
      if (ierr /= HYMPI_ERR_ARG) then
        print *, 'rank', rank, ': allreduce_init, groups ', trim(odd(g)), ' on one rank: ierror', ierr
        bad = bad + 1
      end if
      call hympi_bcast_init(n, MPI_INTEGER8, 0, MPI_COMM_WORLD, info, refused, ierr)
      if (ierr /= HYMPI_ERR_ARG) then
        print *, 'rank', rank, ': bcast_init, groups ', trim(odd(g)), ' on one rank: ierror', ierr
        bad = bad + 1
      end if
      call MPI_Info_free(info)
    end do
  end if
  call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, i0, a)', 'f_grouped_test: ', total, ' failed checks'
  call MPI_Finalize()
  if (total /= 0) error stop 1
end program
