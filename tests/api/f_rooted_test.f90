! hympi_gather_init and hympi_scatter_init from Fortran (module hympi_f08): both
! policies, info groups 1, 2 and auto, roots 0 and p - 1, int64 data against
! MPI_Gather / MPI_Scatter over rounds (start/wait); the gather's root result as
! [count, ranks]; a root out of range and a root differing on one rank are
! HYMPI_ERR_ARG through ierror on every rank, and the next init works.
program f_rooted
  use, intrinsic :: iso_fortran_env, only: int64
  use mpi_f08
  use hympi_f08
  implicit none
  integer, parameter :: n = 40
  type(hympi_request) :: ga, sc, refused
  type(MPI_Info) :: info
  integer(int64), pointer :: slot(:), got(:), got2(:, :)
  integer(int64), allocatable :: whole(:), ref(:)
  integer(int64) :: own(n), part(n)
  integer :: rank, size, it, i, bad, total, ierr, g, p, k, root
  character(len=8) :: groups(3) = [character(len=8) :: '1', '2', 'auto']
  character(len=8) :: policies(2) = [character(len=8) :: 'pure', 'hybrid']

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  allocate(whole(n * size), ref(n * size))
  bad = 0
  do p = 1, 2
    do g = 1, 3
      do k = 0, 1
        root = k * (size - 1)
        call MPI_Info_create(info)
        call MPI_Info_set(info, 'groups', trim(groups(g)))
        call MPI_Info_set(info, 'policy', trim(policies(p)))
        call hympi_gather_init(n, MPI_INTEGER8, root, MPI_COMM_WORLD, info, ga)
        call hympi_scatter_init(n, MPI_INTEGER8, root, MPI_COMM_WORLD, info, sc)
        call MPI_Info_free(info)
        do it = 1, 3
          own = [(int(rank, int64) * 100000 + i * 7 + it, i = 1, n)]
          whole = [(int(i, int64) * 13 + it * 1000 + rank, i = 1, n * size)]
          call hympi_slot(ga, slot)
          slot(:) = own(:)
          call hympi_slot(sc, slot)
          if (rank == root) then
            slot(:) = whole(:)
          else if (associated(slot)) then
            bad = bad + 1
          end if
          call hympi_start(ga)
          call hympi_start(sc)
          call hympi_wait(sc)
          call hympi_wait(ga)
          call MPI_Gather(own, n, MPI_INTEGER8, ref, n, MPI_INTEGER8, root, MPI_COMM_WORLD)
          call hympi_result(ga, got2)
          if (rank == root) then
            if (any(shape(got2) /= [n, size])) bad = bad + 1
            if (any(reshape(got2, [n * size]) /= ref)) bad = bad + 1
          else if (associated(got2)) then
            bad = bad + 1
          end if
          call MPI_Scatter(whole, n, MPI_INTEGER8, part, n, MPI_INTEGER8, root, MPI_COMM_WORLD)
          call hympi_result(sc, got)
          if (any(got /= part)) bad = bad + 1
        end do
        call hympi_request_free(ga)
        call hympi_request_free(sc)
      end do
    end do
  end do
  call hympi_gather_init(n, MPI_INTEGER8, size, MPI_COMM_WORLD, MPI_INFO_NULL, refused, ierr)
  if (ierr /= HYMPI_ERR_ARG) bad = bad + 1
  if (index(hympi_last_error(), 'root') == 0) bad = bad + 1
  call hympi_scatter_init(n, MPI_INTEGER8, merge(1, 0, rank == size - 1 .and. size > 1), MPI_COMM_WORLD, &
                          MPI_INFO_NULL, refused, ierr)
  if (size > 1 .and. ierr /= HYMPI_ERR_ARG) bad = bad + 1
  if (size > 1 .and. index(hympi_last_error(), 'differs between ranks') == 0) bad = bad + 1
  call hympi_scatter_init(n, MPI_INTEGER8, 0, MPI_COMM_WORLD, MPI_INFO_NULL, refused, ierr)
  if (ierr /= HYMPI_SUCCESS) bad = bad + 1
  call hympi_request_free(refused)
  call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, i0, a)', 'f_rooted_test: ', total, ' failed checks'
  call MPI_Finalize()
  if (total /= 0) error stop 1
end program
