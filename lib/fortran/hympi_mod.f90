! hympi Fortran 2008 module: the C API through iso_c_binding, with mpi_f08
! communicator handles. Results are exposed as Fortran pointers into the node copy.
! Lifetimes and errors as in hympi.h: a result pointer is valid until this rank's
! next run/start (or the free); errors are raised on every rank of the
! communicator; free hympi objects before freeing their communicator (afterwards
! their calls fail); hympi_node_info is collective the first time per communicator.
! Waits inside a collective drive MPI progress, so the program's own messages in
! flight keep moving.
module hympi
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm
  implicit none
  private

  integer, parameter, public :: HYMPI_SUCCESS = 0
  integer, parameter, public :: HYMPI_POLICY_PURE = 0, HYMPI_POLICY_HYBRID = 1
  integer, parameter, public :: HYMPI_SYNC_BARRIER = 0, HYMPI_SYNC_FLAGS = 1

  type, public :: hympi_allgather_t
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int64_t) :: total = 0
  end type
  type, public :: hympi_bcast_t
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int64_t) :: capacity = 0
    integer(c_int64_t) :: count = 0    ! elements of the latest completed broadcast (the result's length)
    integer(c_int64_t) :: pending = 0  ! elements of the broadcast in flight (start .. wait)
  end type

  public :: hympi_node_info, hympi_last_error, hympi_version
  public :: hympi_allgather_create, hympi_allgather_slot, hympi_allgather_run, hympi_allgather_result, &
            hympi_allgather_free
  public :: hympi_bcast_create, hympi_bcast_buffer, hympi_bcast_run, hympi_bcast_result, hympi_bcast_free
  public :: hympi_bcast_create_overlap, hympi_bcast_start, hympi_bcast_wait
  public :: hympi_set_idle_function

  interface
    integer(c_int) function c_node_info(comm, node_rank, node_size, node_index, num_nodes) &
        bind(C, name="hympi_node_info_f")
      import :: c_int
      integer(c_int), value :: comm
      integer(c_int), intent(out) :: node_rank, node_size, node_index, num_nodes
    end function
    ! What a flag wait does after spinning (default sched_yield); pass c_funloc of a
    ! bind(C) subroutine without arguments, or c_null_funptr for the default.
    subroutine hympi_set_idle_function(idle) bind(C, name="hympi_set_idle_function")
      import :: c_funptr
      type(c_funptr), value :: idle
    end subroutine
    type(c_ptr) function c_version() bind(C, name="hympi_version")
      import :: c_ptr
    end function
    subroutine c_last_error_copy(buf, len) bind(C, name="hympi_last_error_copy")
      import :: c_char, c_int
      character(kind=c_char), intent(out) :: buf(*)
      integer(c_int), value :: len
    end subroutine
  end interface
  include "hympi_handle_signatures.inc"
  abstract interface
    ! The creates: out = a handle over comm for `count` (capacity) elements of elem_size bytes.
    integer(c_int) function handle_create(comm, count, elem_size, policy, sync, out) bind(C)
      import :: c_int, c_int64_t, c_size_t, c_ptr
      integer(c_int), value :: comm, policy, sync
      integer(c_int64_t), value :: count
      integer(c_size_t), value :: elem_size
      type(c_ptr), intent(out) :: out
    end function
    ! A broadcast of count elements from root: run (blocking) or start.
    integer(c_int) function bcast_launch(h, root, count) bind(C)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: h
      integer(c_int), value :: root
      integer(c_int64_t), value :: count
    end function
  end interface
  procedure(handle_create), bind(C, name="hympi_allgather_create_f") :: c_allgather_create
  procedure(handle_address), bind(C, name="hympi_allgatherv_slot") :: c_allgather_slot
  procedure(handle_address), bind(C, name="hympi_allgatherv_result") :: c_allgather_result
  procedure(handle_call), bind(C, name="hympi_allgatherv_run") :: c_allgather_run
  procedure(handle_free), bind(C, name="hympi_allgatherv_free") :: c_allgather_free
  procedure(handle_create), bind(C, name="hympi_bcast_create_f") :: c_bcast_create
  procedure(handle_create), bind(C, name="hympi_bcast_create_overlap_f") :: c_bcast_create_overlap
  procedure(bcast_launch), bind(C, name="hympi_bcast_start") :: c_bcast_start
  procedure(bcast_launch), bind(C, name="hympi_bcast_run") :: c_bcast_run
  procedure(handle_call), bind(C, name="hympi_bcast_wait") :: c_bcast_wait
  procedure(handle_address), bind(C, name="hympi_bcast_buffer") :: c_bcast_buffer
  procedure(handle_address), bind(C, name="hympi_bcast_result") :: c_bcast_result
  procedure(handle_free), bind(C, name="hympi_bcast_free") :: c_bcast_free

contains

  ! The message of the last failed call, trimmed.
  function hympi_last_error() result(message)
    character(len=:), allocatable :: message
    character(kind=c_char) :: buf(512)
    integer :: i
    call c_last_error_copy(buf, 512_c_int)
    message = ''
    do i = 1, 512
      if (buf(i) == c_null_char) exit
      message = message // buf(i)
    end do
  end function

  ! The library's version, "major.minor.patch" (C: hympi_version()).
  function hympi_version() result(version)
    character(len=:), allocatable :: version
    character(kind=c_char), pointer :: text(:)
    integer :: n
    call c_f_pointer(c_version(), text, [32])
    n = 0
    do while (n < size(text))
      if (text(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate(character(len=n) :: version)
    version = transfer(text(1:n), version)
  end function

  integer function hympi_node_info(comm, node_rank, node_size, node_index, num_nodes) result(ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(out) :: node_rank, node_size, node_index, num_nodes
    ierr = c_node_info(comm%MPI_VAL, node_rank, node_size, node_index, num_nodes)
  end function

  ! Allgather of `count` doubles per rank.
  integer function hympi_allgather_create(comm, count, policy, sync, h) result(ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: count, policy, sync
    type(hympi_allgather_t), intent(out) :: h
    integer :: size
    ierr = create_of_doubles(c_allgather_create, comm, count, policy, sync, h%handle)
    if (ierr == HYMPI_SUCCESS) then
      call comm_size(comm, size)
      h%total = int(count, c_int64_t) * size
    end if
  end function

  subroutine comm_size(comm, size)
    use mpi_f08, only: MPI_Comm_size
    type(MPI_Comm), intent(in) :: comm
    integer, intent(out) :: size
    call MPI_Comm_size(comm, size)
  end subroutine

  ! This rank's part, to be written before hympi_allgather_run.
  function hympi_allgather_slot(h, count) result(p)
    type(hympi_allgather_t), intent(in) :: h
    integer, intent(in) :: count
    real(c_double), pointer :: p(:)
    call c_f_pointer(c_allgather_slot(h%handle), p, [count])
  end function

  integer function hympi_allgather_run(h) result(ierr)
    type(hympi_allgather_t), intent(in) :: h
    ierr = c_allgather_run(h%handle)
  end function

  ! The whole result (rank r's part at r*count+1 .. (r+1)*count), valid until the next run.
  function hympi_allgather_result(h) result(p)
    type(hympi_allgather_t), intent(in) :: h
    real(c_double), pointer :: p(:)
    call c_f_pointer(c_allgather_result(h%handle), p, [h%total])
  end function

  integer function hympi_allgather_free(h) result(ierr)
    type(hympi_allgather_t), intent(inout) :: h
    ierr = c_allgather_free(h%handle)
  end function

  integer function hympi_bcast_create(comm, capacity, policy, sync, h) result(ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: capacity, policy, sync
    type(hympi_bcast_t), intent(out) :: h
    ierr = create_of_doubles(c_bcast_create, comm, capacity, policy, sync, h%handle)
    h%capacity = capacity
  end function

  ! Lookahead (see hympi.h): a result stays readable until this rank's second start after it.
  integer function hympi_bcast_create_overlap(comm, capacity, policy, sync, h) result(ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: capacity, policy, sync
    type(hympi_bcast_t), intent(out) :: h
    ierr = create_of_doubles(c_bcast_create_overlap, comm, capacity, policy, sync, h%handle)
    h%capacity = capacity
  end function

  ! Every create of this module: a handle for `count` doubles through the C create.
  integer function create_of_doubles(c_create, comm, count, policy, sync, handle) result(ierr)
    procedure(handle_create) :: c_create
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: count, policy, sync
    type(c_ptr), intent(out) :: handle
    ierr = c_create(comm%MPI_VAL, int(count, c_int64_t), int(c_sizeof(0.0_c_double), c_size_t), policy, sync, handle)
  end function

  integer function hympi_bcast_start(h, root, count) result(ierr)
    type(hympi_bcast_t), intent(inout) :: h
    integer, intent(in) :: root, count
    ierr = c_bcast_start(h%handle, int(root, c_int), int(count, c_int64_t))
    if (ierr == HYMPI_SUCCESS) h%pending = count
  end function

  integer function hympi_bcast_wait(h) result(ierr)
    type(hympi_bcast_t), intent(inout) :: h
    ierr = c_bcast_wait(h%handle)
    if (ierr == HYMPI_SUCCESS) h%count = h%pending
  end function

  function hympi_bcast_buffer(h) result(p)
    type(hympi_bcast_t), intent(in) :: h
    real(c_double), pointer :: p(:)
    call c_f_pointer(c_bcast_buffer(h%handle), p, [h%capacity])
  end function

  integer function hympi_bcast_run(h, root, count) result(ierr)
    type(hympi_bcast_t), intent(inout) :: h
    integer, intent(in) :: root, count
    ierr = c_bcast_run(h%handle, int(root, c_int), int(count, c_int64_t))
    if (ierr == HYMPI_SUCCESS) h%count = count
  end function

  ! The latest completed broadcast: its count elements (not the capacity).
  function hympi_bcast_result(h) result(p)
    type(hympi_bcast_t), intent(in) :: h
    real(c_double), pointer :: p(:)
    call c_f_pointer(c_bcast_result(h%handle), p, [h%count])
  end function

  integer function hympi_bcast_free(h) result(ierr)
    type(hympi_bcast_t), intent(inout) :: h
    ierr = c_bcast_free(h%handle)
  end function

end module hympi
