! hympi persistent collectives in mpi_f08 style (module hympi_f08): the C API's
! "Persistent collectives" (hympi.h) as subroutines with an optional ierror.
!
!   call hympi_allgather_init(count, MPI_REAL8, comm, MPI_INFO_NULL, request)
!   call hympi_slot(request, mine)        ! real(real64), pointer :: mine(:)
!   mine = ...
!   call hympi_start(request)
!   call hympi_wait(request)
!   call hympi_result(request, all)       ! all(:) or all(:, :) = [count, nranks]
!
! Inits are generic over mpi_f08 handles (type(MPI_Comm), ...) and the integer
! handles of `use mpi`. hympi_slot / hympi_result are generic over real64, real32,
! int32, int64 and complex128 pointers of rank 1 (length: the count, never a
! capacity) or rank 2 (shape: `shape`, default [count per rank, ranks] for an
! allgather result, else [count, 1]); a pointer whose element size differs from
! the request's datatype is an error. hympi_slot gives a disassociated pointer
! where the rank sends nothing (bcast, scatter: all but the root). Without ierror an error
! prints its message and stops the program (MPI's default, errors are fatal).
! Lifetimes and collectiveness as in hympi.h. Also the process-wide calls:
! hympi_last_error(), hympi_version(), hympi_node_info and hympi_set_idle_function.
module hympi_f08
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32, int64, error_unit
  use mpi_f08, only: MPI_Comm, MPI_Datatype, MPI_Info, MPI_Op
  implicit none
  private

  integer, parameter, public :: HYMPI_SUCCESS = 0, HYMPI_ERR_ARG = 1, HYMPI_ERR_MPI = 2, HYMPI_ERR_NOMEM = 3, &
                                HYMPI_ERR_UNSUPPORTED = 4, HYMPI_ERR_INTERNAL = 5
  public :: hympi_last_error, hympi_version, hympi_node_info, hympi_set_idle_function

  type, public :: hympi_request
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int64_t) :: rows = 0  ! leading dimension of a rank-2 result by default
  end type

  public :: hympi_allgather_init, hympi_allgatherv_init, hympi_bcast_init, hympi_allreduce_init, &
            hympi_reduce_init, hympi_gather_init, hympi_scatter_init
  public :: hympi_start, hympi_test, hympi_wait, hympi_request_free, hympi_slot, hympi_result
  public :: hympi_request_groups

  interface hympi_allgather_init
    module procedure allgather_init_f08, allgather_init_int
  end interface
  interface hympi_allgatherv_init
    module procedure allgatherv_init_f08, allgatherv_init_int
  end interface
  interface hympi_bcast_init
    module procedure bcast_init_f08, bcast_init_int
  end interface
  interface hympi_allreduce_init
    module procedure allreduce_init_f08, allreduce_init_int
  end interface
  interface hympi_reduce_init
    module procedure reduce_init_f08, reduce_init_int
  end interface
  interface hympi_gather_init
    module procedure gather_init_f08, gather_init_int
  end interface
  interface hympi_scatter_init
    module procedure scatter_init_f08, scatter_init_int
  end interface
  interface hympi_slot
    module procedure slot_real64_1, slot_real64_2, slot_real32_1, slot_real32_2, slot_int32_1, slot_int32_2, &
                     slot_int64_1, slot_int64_2, slot_complex128_1, slot_complex128_2
  end interface
  interface hympi_result
    module procedure result_real64_1, result_real64_2, result_real32_1, result_real32_2, result_int32_1, &
                     result_int32_2, result_int64_1, result_int64_2, result_complex128_1, result_complex128_2
  end interface

  interface
    integer(c_int) function c_allgather_init(count, type, comm, info, request) bind(C, name="hympi_allgather_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_allgatherv_init(counts, ncounts, type, comm, info, request) &
        bind(C, name="hympi_allgatherv_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), intent(in) :: counts(*)
      integer(c_int64_t), value :: ncounts
      integer(c_int), value :: type, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_bcast_init(count, type, root, comm, info, request) bind(C, name="hympi_bcast_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, root, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_allreduce_init(count, type, op, comm, info, request) &
        bind(C, name="hympi_allreduce_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, op, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_reduce_init(count, type, op, root, comm, info, request) &
        bind(C, name="hympi_reduce_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, op, root, comm, info
      type(c_ptr), intent(out) :: request
    end function
    ! The rooted collectives' bridges (lib/src/rooted.hpp): one C signature each.
    integer(c_int) function c_gather_init(count, type, root, comm, info, request) bind(C, name="hympi_gather_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, root, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_scatter_init(count, type, root, comm, info, request) &
        bind(C, name="hympi_scatter_init_f")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: count
      integer(c_int), value :: type, root, comm, info
      type(c_ptr), intent(out) :: request
    end function
    integer(c_int) function c_test(request, flag) bind(C, name="hympi_test")
      import :: c_int, c_ptr
      type(c_ptr), value :: request
      integer(c_int), intent(out) :: flag
    end function
    integer(c_size_t) function c_elem_size(request) bind(C, name="hympi_request_elem_size")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: request
    end function
    integer(c_int) function c_node_info(comm, node_rank, node_size, node_index, num_nodes) &
        bind(C, name="hympi_node_info_f")
      import :: c_int
      integer(c_int), value :: comm
      integer(c_int), intent(out) :: node_rank, node_size, node_index, num_nodes
    end function
    ! What a flag wait does after spinning (default progress + sched_yield): c_funloc
    ! of a bind(C) subroutine without arguments, or c_null_funptr for the default.
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
  procedure(handle_call), bind(C, name="hympi_start") :: c_start
  procedure(handle_call), bind(C, name="hympi_wait") :: c_wait
  procedure(handle_free), bind(C, name="hympi_request_free") :: c_request_free
  procedure(handle_address), bind(C, name="hympi_request_slot") :: c_slot
  procedure(handle_address), bind(C, name="hympi_request_result") :: c_result
  ! The element counts of a request's slot and result.
  abstract interface
    integer(c_int64_t) function handle_count(request) bind(C)
      import :: c_int64_t, c_ptr
      type(c_ptr), value :: request
    end function
  end interface
  procedure(handle_count), bind(C, name="hympi_request_slot_count") :: c_slot_count
  procedure(handle_count), bind(C, name="hympi_request_result_count") :: c_result_count

contains

  ! ierror if the caller passed one; otherwise a failure is fatal, like MPI's default handler.
  subroutine finish(rc, ierror, message)
    integer, intent(in) :: rc
    integer, optional, intent(out) :: ierror
    character(len=*), optional, intent(in) :: message
    if (present(ierror)) then
      ierror = rc
      return
    end if
    if (rc == HYMPI_SUCCESS) return
    if (present(message)) then
      write (error_unit, '(a)') message
    else
      write (error_unit, '(a)') hympi_last_error()
    end if
    error stop 1
  end subroutine

  ! ---- process-wide calls ----

  ! The message of this thread's last failed call, trimmed ("" after a success).
  function hympi_last_error() result(message)
    character(len=:), allocatable :: message
    character(kind=c_char) :: buf(512)
    call c_last_error_copy(buf, 512_c_int)
    message = fortran_string(buf)
  end function

  ! The library's version, "major.minor.patch" (C: hympi_version()).
  function hympi_version() result(version)
    character(len=:), allocatable :: version
    character(kind=c_char), pointer :: text(:)
    call c_f_pointer(c_version(), text, [32])
    version = fortran_string(text)
  end function

  ! The characters of a C string before its NUL (all of them without one).
  function fortran_string(chars) result(text)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=:), allocatable :: text
    integer :: n
    n = 0
    do while (n < size(chars))
      if (chars(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate(character(len=n) :: text)
    text = transfer(chars(1:n), text)
  end function

  ! Node layout of comm; collective the first time per communicator (C: hympi_node_info).
  subroutine hympi_node_info(comm, node_rank, node_size, node_index, num_nodes, ierror)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(out) :: node_rank, node_size, node_index, num_nodes
    integer, optional, intent(out) :: ierror
    call finish(c_node_info(comm%MPI_VAL, node_rank, node_size, node_index, num_nodes), ierror)
  end subroutine

  ! ---- inits: one text (hympi_f08_inits.inc) for both kinds of handle ----

#define ALLGATHER_INIT allgather_init_f08
#define ALLGATHERV_INIT allgatherv_init_f08
#define BCAST_INIT bcast_init_f08
#define ALLREDUCE_INIT allreduce_init_f08
#define REDUCE_INIT reduce_init_f08
#define GATHER_INIT gather_init_f08
#define SCATTER_INIT scatter_init_f08
#define HANDLE(T) type(T)
#define VAL(h) h%MPI_VAL
#include "hympi_f08_inits.inc"
#define ALLGATHER_INIT allgather_init_int
#define ALLGATHERV_INIT allgatherv_init_int
#define BCAST_INIT bcast_init_int
#define ALLREDUCE_INIT allreduce_init_int
#define REDUCE_INIT reduce_init_int
#define GATHER_INIT gather_init_int
#define SCATTER_INIT scatter_init_int
#define HANDLE(T) integer
#define VAL(h) h
#include "hympi_f08_inits.inc"

  ! ---- completion ----

  subroutine hympi_start(request, ierror)
    type(hympi_request), intent(in) :: request
    integer, optional, intent(out) :: ierror
    call finish(c_start(request%handle), ierror)
  end subroutine

  subroutine hympi_test(request, flag, ierror)
    type(hympi_request), intent(in) :: request
    logical, intent(out) :: flag
    integer, optional, intent(out) :: ierror
    integer(c_int) :: done
    done = 0
    call finish(c_test(request%handle, done), ierror)
    flag = done /= 0
  end subroutine

  subroutine hympi_wait(request, ierror)
    type(hympi_request), intent(in) :: request
    integer, optional, intent(out) :: ierror
    call finish(c_wait(request%handle), ierror)
  end subroutine

  subroutine hympi_request_free(request, ierror)
    type(hympi_request), intent(inout) :: request
    integer, optional, intent(out) :: ierror
    call finish(c_request_free(request%handle), ierror)
  end subroutine

  ! ---- typed views (the specifics come from hympi_f08_access.inc) ----

  ! Checks one view and finds its base address and shape: `bits` per element of the
  ! pointer against the request's datatype; rank 2 takes `shape` (or the default)
  ! whose product must be the count. False (after finish) when the view is refused.
  logical function view(request, bits, of_slot, rank, base, dims, call, shape, ierror) result(ok)
    type(hympi_request), intent(in) :: request
    integer, intent(in) :: bits, rank
    logical, intent(in) :: of_slot
    type(c_ptr), intent(out) :: base
    integer(c_int64_t), intent(out) :: dims(2)
    character(len=*), intent(in) :: call
    integer, optional, intent(in) :: shape(2)
    integer, optional, intent(out) :: ierror
    integer(c_int64_t) :: n, elem
    character(len=200) :: message
    ok = .false.
    base = c_null_ptr
    dims = 0
    if (.not. c_associated(request%handle)) then
      call finish(HYMPI_ERR_ARG, ierror, "hympi: " // call // ": the request is not initialised (or freed)")
      return
    end if
    elem = int(c_elem_size(request%handle), c_int64_t)
    if (int(bits, c_int64_t) /= 8 * elem) then
      write (message, '(a, ": a pointer of ", i0, "-byte elements for a request of ", i0, "-byte elements")') &
        "hympi: " // call, bits / 8, elem
      call finish(HYMPI_ERR_ARG, ierror, trim(message))
      return
    end if
    if (of_slot) then
      base = c_slot(request%handle)
      n = c_slot_count(request%handle)
    else
      base = c_result(request%handle)
      n = c_result_count(request%handle)
    end if
    if (.not. c_associated(base)) then  ! nothing to write here (bcast: not the root)
      call finish(HYMPI_SUCCESS, ierror)
      return
    end if
    dims = [n, 1_c_int64_t]
    if (rank == 2 .and. present(shape)) then
      dims = int(shape, c_int64_t)
    else if (rank == 2 .and. .not. of_slot .and. request%rows > 0) then
      if (mod(n, request%rows) == 0) dims = [request%rows, n / request%rows]
    end if
    if (dims(1) * dims(2) /= n .or. any(dims < 0)) then
      write (message, '(a, ": shape [", i0, ", ", i0, "] does not hold the ", i0, " elements")') &
        "hympi: " // call, dims(1), dims(2), n
      call finish(HYMPI_ERR_ARG, ierror, trim(message))
      return
    end if
    call finish(HYMPI_SUCCESS, ierror)
    ok = .true.
  end function

#define FTYPE real(real64)
#define SLOT1 slot_real64_1
#define SLOT2 slot_real64_2
#define RESULT1 result_real64_1
#define RESULT2 result_real64_2
#include "hympi_f08_access.inc"
#define FTYPE real(real32)
#define SLOT1 slot_real32_1
#define SLOT2 slot_real32_2
#define RESULT1 result_real32_1
#define RESULT2 result_real32_2
#include "hympi_f08_access.inc"
#define FTYPE integer(int32)
#define SLOT1 slot_int32_1
#define SLOT2 slot_int32_2
#define RESULT1 result_int32_1
#define RESULT2 result_int32_2
#include "hympi_f08_access.inc"
#define FTYPE integer(int64)
#define SLOT1 slot_int64_1
#define SLOT2 slot_int64_2
#define RESULT1 result_int64_1
#define RESULT2 result_int64_2
#include "hympi_f08_access.inc"
#define FTYPE complex(real64)
#define SLOT1 slot_complex128_1
#define SLOT2 slot_complex128_2
#define RESULT1 result_complex128_1
#define RESULT2 result_complex128_2
#include "hympi_f08_access.inc"

  include "hympi_f08_groups.inc"

end module hympi_f08
