! The Fortran module in a Fortran program: hybrid allgather and bcast checked
! against MPI_Allgather / known values.
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
  use mpi_f08
  use hympi
  use f_idle_counter
  implicit none
  integer, parameter :: count = 4
  type(hympi_allgather_t) :: ag
  type(hympi_bcast_t) :: bc
  real(8), pointer :: mine(:), whole(:), buf(:), got(:), prev(:)
  real(8), allocatable :: own(:), expected(:)
  real(8) :: t0
  integer :: rank, size, it, i, root, bad, ierr, policy, step
  integer :: node_rank, node_size, node_index, num_nodes
  character(len=32) :: nodes

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  bad = 0
  ierr = hympi_node_info(MPI_COMM_WORLD, node_rank, node_size, node_index, num_nodes)
  if (ierr /= HYMPI_SUCCESS) bad = bad + 1
  allocate(own(count), expected(count * size))

  do policy = HYMPI_POLICY_PURE, HYMPI_POLICY_HYBRID
    ierr = hympi_allgather_create(MPI_COMM_WORLD, count, policy, HYMPI_SYNC_FLAGS, ag)
    if (ierr /= HYMPI_SUCCESS) then
      print *, 'create failed: ', hympi_last_error()
      bad = bad + 1
    end if
    do it = 1, 10
      mine => hympi_allgather_slot(ag, count)
      do i = 1, count
        own(i) = rank * 100 + i + it * 0.5d0
      end do
      mine(:) = own(:)
      ierr = hympi_allgather_run(ag)
      call MPI_Allgather(own, count, MPI_DOUBLE_PRECISION, expected, count, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD)
      whole => hympi_allgather_result(ag)
      if (any(whole /= expected)) bad = bad + 1
    end do
    ierr = hympi_allgather_free(ag)

    ! Capacity 3, broadcasts of 2: the result pointer has the count's length.
    ierr = hympi_bcast_create(MPI_COMM_WORLD, 3, policy, HYMPI_SYNC_BARRIER, bc)
    do root = 0, size - 1
      if (rank == root) then
        buf => hympi_bcast_buffer(bc)
        buf(1) = root
        buf(2) = 2 * root + 1
      end if
      ierr = hympi_bcast_run(bc, root, 2)
      got => hympi_bcast_result(bc)
      if (ubound(got, 1) /= 2) bad = bad + 1
      if (got(1) /= root .or. got(2) /= 2 * root + 1) bad = bad + 1
    end do
    ! A bad root is reported, not fatal.
    ierr = hympi_bcast_run(bc, size, 1)
    if (ierr == HYMPI_SUCCESS .or. index(hympi_last_error(), 'outside') == 0) bad = bad + 1
    ierr = hympi_bcast_free(bc)

    ! Lookahead: broadcast s+1 flies while result s is read; s stays valid after it lands.
    ierr = hympi_bcast_create_overlap(MPI_COMM_WORLD, 2, policy, HYMPI_SYNC_FLAGS, bc)
    if (ierr /= HYMPI_SUCCESS) bad = bad + 1
    nullify (prev)
    do step = 0, 2 * size
      root = mod(step, size)
      if (rank == root) then
        buf => hympi_bcast_buffer(bc)
        buf(1) = step
        buf(2) = root
      end if
      ierr = hympi_bcast_start(bc, root, 2)
      if (associated(prev)) then
        if (prev(1) /= step - 1) bad = bad + 1
      end if
      ierr = hympi_bcast_wait(bc)
      if (associated(prev)) then
        if (prev(1) /= step - 1 .or. prev(2) /= mod(step - 1, size)) bad = bad + 1
      end if
      prev => hympi_bcast_result(bc)
      if (ubound(prev, 1) /= 2) bad = bad + 1
      if (prev(1) /= step .or. prev(2) /= root) bad = bad + 1
    end do
    ierr = hympi_bcast_free(bc)
  end do

  ! The idle function: node leaders arrive late at a hybrid flag bcast, so every
  ! other node rank waits long enough to call it; c_null_funptr restores the default.
  ierr = hympi_bcast_create(MPI_COMM_WORLD, 1, HYMPI_POLICY_HYBRID, HYMPI_SYNC_FLAGS, bc)
  call hympi_set_idle_function(c_funloc(count_idle))
  if (node_rank == 0) then
    t0 = MPI_Wtime()
    do while (MPI_Wtime() - t0 < 0.2d0)
    end do
  end if
  ierr = hympi_bcast_run(bc, 0, 1)
  call hympi_set_idle_function(c_null_funptr)
  if (node_rank > 0 .and. calls == 0) bad = bad + 1
  ierr = hympi_bcast_free(bc)

  write (nodes, '(" (", i0, " nodes)")') num_nodes
  call finish_test('f_allgather', bad, trim(nodes))

contains

  include "f_finish_test.inc"
end program
