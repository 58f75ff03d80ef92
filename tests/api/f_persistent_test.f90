! The persistent API from Fortran (module hympi_f08, mpi_f08 handles): every init,
! start/test/wait with data changing every round, the typed rank-1 and rank-2
! views for every element type, checked against MPI's own collectives; then bad
! arguments must fail on every rank with ierror set.
program f_persistent_test
  use mpi_f08
  use hympi_f08
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32, int64
  implicit none
  integer, parameter :: rounds = 4
  integer :: rank, nranks, failures
  type(MPI_Info) :: info

  call start_test(rank, nranks, failures)

  call MPI_Info_create(info)
  call MPI_Info_set(info, "policy", "hybrid")
  call allgather_real64(info)
  call allgatherv_int32(info)
  call bcast_real64(info)
  call MPI_Info_set(info, "policy", "pure")
  call allgather_real64(info)
  call allgatherv_int32(info)
  call bcast_real64(info)
  call MPI_Info_free(info)
  call every_kind()
  call allreduce_kinds()
  call allreduce_complex(MPI_DOUBLE_COMPLEX, 'MPI_DOUBLE_COMPLEX')
  call allreduce_complex(MPI_COMPLEX16, 'MPI_COMPLEX16')
  call bad_arguments()

  call finish_test('f_persistent', failures)

contains

  include "f_test_frame.inc"

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    failures = failures + 1
    if (failures <= 20) write (*, '(a, i0, a, a, a, a)') '[rank ', rank, '] FAILED: ', what, ' -- ', &
      hympi_last_error()
  end subroutine

  ! Completes by polling hympi_test on odd rounds, hympi_wait on even ones.
  subroutine complete(request, round)
    type(hympi_request), intent(in) :: request
    integer, intent(in) :: round
    logical :: done
    integer :: ierr
    double precision :: give_up
    if (mod(round, 2) == 0) then
      call hympi_wait(request, ierr)
      call check(ierr == HYMPI_SUCCESS, 'wait')
      return
    end if
    ! A time bound, not a poll count: oversubscribed ranks can be descheduled.
    give_up = MPI_Wtime() + 30d0
    done = .false.
    do while (.not. done .and. MPI_Wtime() < give_up)
      call hympi_test(request, done, ierr)
    end do
    call check(done, 'test completes within 30 s')
  end subroutine

  subroutine allgather_real64(info)
    type(MPI_Info), intent(in) :: info
    integer, parameter :: count = 3
    type(hympi_request) :: request
    real(real64), pointer :: mine(:), whole(:), grid(:, :)
    real(real64) :: own(count), expected(count * nranks)
    integer :: round, ierr, i
    logical :: done
    call hympi_allgather_init(count, MPI_REAL8, MPI_COMM_WORLD, info, request, ierr)
    call check(ierr == HYMPI_SUCCESS, 'allgather init')
    do round = 1, rounds
      call hympi_slot(request, mine)
      call check(size(mine) == count, 'slot length is the count')
      own = [(rank * 100.0_real64 + i + round * 0.25_real64, i = 1, count)]
      mine = own
      call hympi_start(request)
      call MPI_Allgather(own, count, MPI_REAL8, expected, count, MPI_REAL8, MPI_COMM_WORLD)
      call complete(request, round)
      call hympi_result(request, whole)
      call check(size(whole) == count * nranks, 'allgather result length')
      if (size(whole) == size(expected)) call check(all(whole == expected), 'allgather result')
      call hympi_result(request, grid)
      call check(all_equal_2(grid, reshape(expected, [count, nranks])), 'allgather rank-2 [count, ranks]')
    end do
    call hympi_test(request, done)
    call check(done, 'test of an inactive request')
    call hympi_request_free(request)
  end subroutine

  logical function all_equal_2(a, b)
    real(real64), intent(in) :: a(:, :), b(:, :)
    all_equal_2 = all(shape(a) == shape(b))
    if (all_equal_2) all_equal_2 = all(a == b)
  end function

  subroutine allgatherv_int32(info)
    type(MPI_Info), intent(in) :: info
    type(hympi_request) :: request
    integer(int32), pointer :: mine(:), whole(:)
    integer :: counts(nranks), displs(nranks), round, r
    integer(int32), allocatable :: own(:), expected(:)
    counts = [(r, r = 1, nranks)]
    displs = [(r * (r - 1) / 2, r = 1, nranks)]
    allocate(own(rank + 1), expected(sum(counts)))
    call hympi_allgatherv_init(counts, MPI_INTEGER4, MPI_COMM_WORLD, info, request)
    do round = 1, rounds
      call hympi_slot(request, mine)
      call check(size(mine) == rank + 1, 'allgatherv slot length')
      own = [(rank * 1000 + r - round, r = 1, rank + 1)]
      mine = own
      call hympi_start(request)
      call MPI_Allgatherv(own, rank + 1, MPI_INTEGER4, expected, counts, displs, MPI_INTEGER4, MPI_COMM_WORLD)
      call complete(request, round)
      call hympi_result(request, whole)
      call check(size(whole) == sum(counts), 'allgatherv result length')
      if (size(whole) == size(expected)) call check(all(whole == expected), 'allgatherv result')
    end do
    call hympi_request_free(request)
  end subroutine

  ! Root writes a 2 x 3 panel; every rank reads it as a rank-1 view of 6 (the count).
  subroutine bcast_real64(info)
    type(MPI_Info), intent(in) :: info
    type(hympi_request) :: request
    real(real64), pointer :: panel(:, :), got(:)
    integer :: root, round, i
    do root = 0, nranks - 1
      call hympi_bcast_init(6, MPI_REAL8, root, MPI_COMM_WORLD, info, request)
      do round = 1, rounds
        call hympi_slot(request, panel, shape=[2, 3])
        call check(associated(panel) .eqv. (rank == root), 'bcast slot only on the root')
        if (rank == root) panel = reshape([(root * 10.0_real64 + i + round, i = 1, 6)], [2, 3])
        call hympi_start(request)
        call complete(request, round)
        call hympi_result(request, got)
        call check(size(got) == 6, 'bcast result length is the count')
        call check(all(got == [(root * 10.0_real64 + i + round, i = 1, 6)]), 'bcast result')
      end do
      call hympi_request_free(request)
    end do
  end subroutine

  ! One round of allgather for real32, int64 and complex128 (real64 and int32 above).
  subroutine every_kind()
    type(hympi_request) :: request
    real(real32), pointer :: r4(:), r4all(:)
    integer(int64), pointer :: i8(:), i8all(:, :)
    complex(real64), pointer :: z(:), zall(:)
    integer :: r
    call hympi_allgather_init(2, MPI_REAL4, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    call hympi_slot(request, r4)
    r4 = [rank + 0.5_real32, -rank - 0.5_real32]
    call hympi_start(request)
    call hympi_wait(request)
    call hympi_result(request, r4all)
    call check(all(r4all == [(real([r + 0.5, -r - 0.5], real32), r = 0, nranks - 1)]), 'real32 allgather')
    call hympi_request_free(request)

    call hympi_allgather_init(1, MPI_INTEGER8, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    call hympi_slot(request, i8)
    i8 = int(rank, int64) * 2_int64**40
    call hympi_start(request)
    call hympi_wait(request)
    call hympi_result(request, i8all)
    call check(all(shape(i8all) == [1, nranks]), 'int64 rank-2 shape')
    call check(all(i8all(1, :) == [(int(r, int64) * 2_int64**40, r = 0, nranks - 1)]), 'int64 allgather')
    call hympi_request_free(request)

    call hympi_allgather_init(1, MPI_COMPLEX16, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    call hympi_slot(request, z)
    z = cmplx(rank, -rank, real64)
    call hympi_start(request)
    call hympi_wait(request)
    call hympi_result(request, zall)
    call check(all(zall == [(cmplx(r, -r, real64), r = 0, nranks - 1)]), 'complex128 allgather')
    call hympi_request_free(request)
  end subroutine

  ! Allreduce for real64 (rounds), int32, int64 and real32, against MPI_Allreduce.
  subroutine allreduce_kinds()
    type(hympi_request) :: request, kinds(3)
    real(real64), pointer :: d(:), dsum(:)
    integer(int32), pointer :: i4(:), i4max(:)
    integer(int64), pointer :: i8(:), i8sum(:)
    real(real32), pointer :: r4(:), r4min(:)
    real(real64) :: own(4), expected(4)
    integer(int32) :: i4ref(3)
    integer(int64) :: i8ref(2)
    real(real32) :: r4ref(2)
    integer :: round, i
    call hympi_allreduce_init(4, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    do round = 1, rounds
      call hympi_slot(request, d)
      own = [(rank * 0.5_real64 + i - round, i = 1, 4)]
      d = own
      call hympi_start(request)
      call MPI_Allreduce(own, expected, 4, MPI_REAL8, MPI_SUM, MPI_COMM_WORLD)
      call complete(request, round)
      call hympi_result(request, dsum)
      call check(size(dsum) == 4, 'allreduce result length is the count')
      if (size(dsum) == 4) call check(all(dsum == expected), 'real64 allreduce sum')
    end do
    call hympi_request_free(request)

    ! One request per kind, each run once to completion in turn.
    call hympi_allreduce_init(3, MPI_INTEGER4, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, kinds(1))
    call hympi_allreduce_init(2, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, kinds(2))
    call hympi_allreduce_init(2, MPI_REAL4, MPI_MIN, MPI_COMM_WORLD, MPI_INFO_NULL, kinds(3))
    call hympi_slot(kinds(1), i4)
    call hympi_slot(kinds(2), i8)
    call hympi_slot(kinds(3), r4)
    i4 = [rank, -rank, mod(rank * 7, 3)]
    i8 = [int(rank, int64) * 2_int64**35, 1_int64]
    r4 = [real(rank, real32), -real(rank, real32)]
    call MPI_Allreduce(i4, i4ref, 3, MPI_INTEGER4, MPI_MAX, MPI_COMM_WORLD)
    call MPI_Allreduce(i8, i8ref, 2, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Allreduce(r4, r4ref, 2, MPI_REAL4, MPI_MIN, MPI_COMM_WORLD)
    do i = 1, size(kinds)
      call hympi_start(kinds(i))
      call hympi_wait(kinds(i))
    end do
    call hympi_result(kinds(1), i4max)
    call hympi_result(kinds(2), i8sum)
    call hympi_result(kinds(3), r4min)
    call check(all(i4max == i4ref), 'int32 allreduce max')
    call check(all(i8sum == i8ref), 'int64 allreduce sum')
    call check(all(r4min == r4ref), 'real32 allreduce min')
    do i = 1, size(kinds)
      call hympi_request_free(kinds(i))
    end do
    call reduce_to_last()
  end subroutine

  ! complex(real64) sums (and a product) under both policies, against MPI_Allreduce:
  ! the complex types are in MPI's table for MPI_SUM and MPI_PROD (issue #27).
  subroutine allreduce_complex(datatype, name)
    type(MPI_Datatype), intent(in) :: datatype
    character(len=*), intent(in) :: name
    integer, parameter :: count = 5
    character(len=6), parameter :: policies(2) = ['pure  ', 'hybrid']
    type(hympi_request) :: request
    type(MPI_Info) :: info
    type(MPI_Op) :: op
    complex(real64), pointer :: z(:), zsum(:)
    complex(real64) :: own(count), expected(count)
    integer :: i, k, ierr
    call MPI_Info_create(info)
    do k = 1, 4
      call MPI_Info_set(info, 'policy', trim(policies(mod(k - 1, 2) + 1)))
      op = MPI_SUM
      if (k > 2) op = MPI_PROD
      call hympi_allreduce_init(count, datatype, op, MPI_COMM_WORLD, info, request, ierr)
      call check(ierr == HYMPI_SUCCESS, name // ' allreduce init')
      if (ierr /= HYMPI_SUCCESS) cycle
      call hympi_slot(request, z)
      own = [(cmplx(mod(rank + i, 2) + 1, mod(rank * i, 3) - 1, real64), i = 1, count)]
      z = own
      call hympi_start(request)
      call MPI_Allreduce(own, expected, count, datatype, op, MPI_COMM_WORLD)
      call hympi_wait(request)
      call hympi_result(request, zsum)
      call check(size(zsum) == count, name // ' allreduce result length')
      if (size(zsum) == count) call check(all(zsum == expected), name // ' allreduce (' // &
                                          trim(policies(mod(k - 1, 2) + 1)) // ')')
      call hympi_request_free(request)
    end do
    call MPI_Info_free(info)
  end subroutine

  ! Reduce (int64 sum) to the last rank, two rounds: only the root has a result
  ! (elsewhere the pointer is disassociated, as a bcast slot off the root).
  subroutine reduce_to_last()
    type(hympi_request) :: request
    integer(int64), pointer :: i8(:), i8sum(:)
    integer(int64) :: own(3), i8ref(3)
    integer :: round, root
    root = nranks - 1
    call hympi_reduce_init(3, MPI_INTEGER8, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    do round = 1, 2
      call hympi_slot(request, i8)
      own = [int(rank + round, int64), -int(rank, int64) * 2_int64**33, int(round, int64)]
      i8 = own
      i8ref = 0
      call MPI_Reduce(own, i8ref, 3, MPI_INTEGER8, MPI_SUM, root, MPI_COMM_WORLD)
      call hympi_start(request)
      call hympi_wait(request)
      call hympi_result(request, i8sum)
      if (rank == root) then
        call check(size(i8sum) == 3, 'reduce result length is the count on the root')
        if (size(i8sum) == 3) call check(all(i8sum == i8ref), 'int64 reduce sum on the root')
      else
        call check(.not. associated(i8sum), 'reduce result not associated off the root')
      end if
    end do
    call hympi_request_free(request)
  end subroutine

  subroutine bad_arguments()
    type(hympi_request) :: request
    type(MPI_Info) :: bad
    integer(int32), pointer :: wrong(:)
    real(real64), pointer :: grid(:, :)
    integer :: ierr
    integer, allocatable :: counts(:)
    ! A pointer of the wrong element type: local, the request stays usable.
    call hympi_allgather_init(2, MPI_REAL8, MPI_COMM_WORLD, MPI_INFO_NULL, request)
    call hympi_result(request, wrong, ierr)
    call check(ierr == HYMPI_ERR_ARG .and. .not. associated(wrong), 'int32 pointer on a real64 request')
    call hympi_result(request, grid, shape=[3, 3], ierror=ierr)
    call check(ierr == HYMPI_ERR_ARG, 'rank-2 shape that does not hold the count')
    call hympi_request_free(request)
    call hympi_result(request, grid, ierror=ierr)
    call check(ierr == HYMPI_ERR_ARG, 'view of a freed request')
    ! Collective errors: every rank must see them.
    call MPI_Info_create(bad)
    if (rank == nranks - 1) call MPI_Info_set(bad, "sync", "spin")
    call hympi_allgather_init(2, MPI_REAL8, MPI_COMM_WORLD, bad, request, ierr)
    call check(ierr == HYMPI_ERR_ARG .and. index(hympi_last_error(), "'sync' has value 'spin'") > 0, 'bad info value')
    call MPI_Info_free(bad)
    call hympi_bcast_init(2, MPI_REAL8, nranks, MPI_COMM_WORLD, MPI_INFO_NULL, request, ierr)
    call check(ierr == HYMPI_ERR_ARG .and. index(hympi_last_error(), 'root') > 0, 'root out of range')
    allocate(counts(merge(nranks + 1, nranks, rank == 0)))
    counts = 1
    call hympi_allgatherv_init(counts, MPI_REAL8, MPI_COMM_WORLD, MPI_INFO_NULL, request, ierr)
    call check(ierr == HYMPI_ERR_ARG .and. index(hympi_last_error(), 'entries') > 0, 'counts of the wrong length')
    call hympi_allgather_init(merge(2, 1, rank == 0), MPI_REAL8, MPI_COMM_WORLD, MPI_INFO_NULL, request, ierr)
    call check((ierr == HYMPI_ERR_ARG) .eqv. (nranks > 1), 'count mismatch')
    if (ierr == HYMPI_SUCCESS) call hympi_request_free(request)
  end subroutine

end program
