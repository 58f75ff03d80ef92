! Module hympi_f08 in a Fortran program: allgather and bcast requests under both
! policies checked against MPI_Allgather / known values, hympi_node_info, and the
! idle function.
module f_idle_counter
  implicit none
  integer :: calls = 0
contains
  subroutine count_idle() bind(C)
    calls = calls + 1
  end subroutine
end module

program f_allgather
  use, intrinsic :: iso_c_binding, only: c_funloc, c_null_funptr
  use, intrinsic :: iso_fortran_env, only: real64
  use mpi_f08
  use hympi_f08
  use f_idle_counter
  implicit none
  integer, parameter :: count = 4
  character(len=6), parameter :: policies(2) = [character(len=6) :: 'pure', 'hybrid']
  type(hympi_request) :: ag, bc
  type(MPI_Info) :: info
  real(real64), pointer :: mine(:), whole(:), buf(:), got(:), prev(:)
  real(real64), allocatable :: own(:), expected(:)
  real(real64) :: t0
  integer :: rank, size, it, i, root, bad, ierr, p, step, calls_before
  integer :: node_rank, node_size, node_index, num_nodes, in_node, of_node
  type(MPI_Comm) :: node
  character(len=32) :: nodes

  call start_test(rank, size, bad)
  call hympi_node_info(MPI_COMM_WORLD, node_rank, node_size, node_index, num_nodes, ierr)
  if (ierr /= HYMPI_SUCCESS) bad = bad + 1
  ! The ranks that share a node index are node_size ranks numbered by node_rank.
  call MPI_Comm_split(MPI_COMM_WORLD, node_index, node_rank, node)
  call MPI_Comm_rank(node, in_node)
  call MPI_Comm_size(node, of_node)
  call MPI_Comm_free(node)
  if (node_index < 0 .or. node_index >= num_nodes .or. in_node /= node_rank .or. of_node /= node_size) bad = bad + 1
  allocate(own(count), expected(count * size))

  do p = 1, 2
    call options(policies(p), 'flags', 'false')
    call hympi_allgather_init(count, MPI_REAL8, MPI_COMM_WORLD, info, ag, ierr)
    if (ierr /= HYMPI_SUCCESS) then
      print *, 'init failed: ', hympi_last_error()
      bad = bad + 1
    end if
    call MPI_Info_free(info)
    do it = 1, 10
      call hympi_slot(ag, mine)
      do i = 1, count
        own(i) = rank * 100 + i + it * 0.5d0
      end do
      mine(:) = own(:)
      call hympi_start(ag)
      call hympi_wait(ag)
      call MPI_Allgather(own, count, MPI_DOUBLE_PRECISION, expected, count, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD)
      call hympi_result(ag, whole)
      if (any(whole /= expected)) bad = bad + 1
    end do
    call hympi_request_free(ag)

    ! Broadcasts of 2 from every root (a request per root): the result has the count's length.
    call options(policies(p), 'barrier', 'false')
    do root = 0, size - 1
      call hympi_bcast_init(2, MPI_REAL8, root, MPI_COMM_WORLD, info, bc)
      call hympi_slot(bc, buf)
      if (rank == root) then
        buf(1) = root
        buf(2) = 2 * root + 1
      else if (associated(buf)) then
        bad = bad + 1
      end if
      call hympi_start(bc)
      call hympi_wait(bc)
      call hympi_result(bc, got)
      if (ubound(got, 1) /= 2) bad = bad + 1
      if (got(1) /= root .or. got(2) /= 2 * root + 1) bad = bad + 1
      call hympi_request_free(bc)
    end do
    ! A bad root is reported, not fatal.
    call hympi_bcast_init(1, MPI_REAL8, size, MPI_COMM_WORLD, info, bc, ierr)
    if (ierr == HYMPI_SUCCESS .or. index(hympi_last_error(), 'is not a rank') == 0) bad = bad + 1
    call MPI_Info_free(info)

    ! Lookahead (info overlap): from every root, broadcast s+1 flies while result s
    ! is read; s stays valid after it lands.
    call options(policies(p), 'flags', 'true')
    do root = 0, size - 1
      call hympi_bcast_init(2, MPI_REAL8, root, MPI_COMM_WORLD, info, bc, ierr)
      if (ierr /= HYMPI_SUCCESS) bad = bad + 1
      nullify (prev)
      do step = 0, 2
        call hympi_slot(bc, buf)
        if (rank == root) buf = [real(step, real64), real(root, real64)]
        call hympi_start(bc)
        if (associated(prev)) then
          if (prev(1) /= step - 1) bad = bad + 1
        end if
        call hympi_wait(bc)
        if (associated(prev)) then
          if (prev(1) /= step - 1 .or. prev(2) /= root) bad = bad + 1
        end if
        call hympi_result(bc, prev)
        if (ubound(prev, 1) /= 2) bad = bad + 1
        if (prev(1) /= step .or. prev(2) /= root) bad = bad + 1
      end do
      call hympi_request_free(bc)
    end do
    call MPI_Info_free(info)
  end do

  ! The idle function: node leaders arrive late at a hybrid flag bcast, so every
  ! other node rank waits long enough to call it; c_null_funptr restores the default.
  call options('hybrid', 'flags', 'false')
  call hympi_bcast_init(1, MPI_REAL8, 0, MPI_COMM_WORLD, info, bc)
  call MPI_Info_free(info)
  call hympi_set_idle_function(c_funloc(count_idle))
  if (node_rank == 0) then
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < 0.2d0)
    end do
  end if
  call hympi_start(bc)
  call hympi_wait(bc)
  call hympi_set_idle_function(c_null_funptr)
  if (node_rank > 0 .and. calls == 0) bad = bad + 1
  calls_before = calls
  call hympi_start(bc)
  call hympi_wait(bc)
  if (calls /= calls_before) bad = bad + 1
  call hympi_request_free(bc)

  write (nodes, '(" (", i0, " nodes)")') num_nodes
  call finish_test('f_allgather', bad, trim(nodes))

contains

  ! info = the request's policy, sync and (bcast) overlap.
  subroutine options(policy, sync, overlap)
    character(len=*), intent(in) :: policy, sync, overlap
    call MPI_Info_create(info)
    call MPI_Info_set(info, 'policy', trim(policy))
    call MPI_Info_set(info, 'sync', sync)
    call MPI_Info_set(info, 'overlap', overlap)
  end subroutine

  include "f_test_frame.inc"
end program
