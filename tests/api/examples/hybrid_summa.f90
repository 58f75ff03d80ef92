! Example: a small hybrid SUMMA (the paper's third code). C = A * B on a P x Q
! process grid, n x n matrices in blocks of (n/P) x (n/Q). At step k the owner
! column broadcasts its panel of A along each process row and the owner row its
! panel of B along each process column; the panels land once per node and every
! rank multiplies straight from the node copy. MPI_Bcast_init fixes the root, so
! there is one persistent request per root on each row and column communicator.
! Checked against the product computed whole on every rank (exact: small integers).
program hybrid_summa
  use mpi_f08
  use hympi_f08
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: n = 24, kb = 2
  type(MPI_Comm) :: row_comm, col_comm
  type(hympi_request), allocatable :: row_from(:), col_from(:)
  real(real64), allocatable :: a(:, :), b(:, :), c(:, :), full_a(:, :), full_b(:, :), full_c(:, :)
  real(real64), pointer :: panel(:, :), a_panel(:, :), b_panel(:, :)
  integer :: rank, nranks, dims(2), p, q, my_row, my_col, mb, nb, k, owner, i, j, failed

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  dims = 0
  call MPI_Dims_create(nranks, 2, dims)  ! the most square grid, dims(1) >= dims(2)
  p = dims(2)
  q = dims(1)
  if (mod(n, p * kb) /= 0 .or. mod(n, q * kb) /= 0) then
    if (rank == 0) print '(a, i0, a)', 'hybrid_summa: n = ', n, ' does not split over this grid'
    call MPI_Abort(MPI_COMM_WORLD, 2)
  end if
  my_row = rank / q
  my_col = mod(rank, q)
  mb = n / p
  nb = n / q
  call MPI_Comm_split(MPI_COMM_WORLD, my_row, my_col, row_comm)  ! rank in row_comm = my_col
  call MPI_Comm_split(MPI_COMM_WORLD, my_col, my_row, col_comm)  ! rank in col_comm = my_row

  allocate(full_a(n, n), full_b(n, n))
  do j = 1, n
    do i = 1, n
      full_a(i, j) = mod(i + 2 * j, 7) - 3
      full_b(i, j) = mod(3 * i + j, 5) - 2
    end do
  end do
  full_c = matmul(full_a, full_b)
  a = full_a(my_row * mb + 1:(my_row + 1) * mb, my_col * nb + 1:(my_col + 1) * nb)
  b = full_b(my_row * mb + 1:(my_row + 1) * mb, my_col * nb + 1:(my_col + 1) * nb)
  allocate(c(mb, nb))
  c = 0

  allocate(row_from(0:q - 1), col_from(0:p - 1))
  do owner = 0, q - 1
    call hympi_bcast_init(mb * kb, MPI_REAL8, owner, row_comm, MPI_INFO_NULL, row_from(owner))
  end do
  do owner = 0, p - 1
    call hympi_bcast_init(kb * nb, MPI_REAL8, owner, col_comm, MPI_INFO_NULL, col_from(owner))
  end do

  do k = 0, n - 1, kb
    ! A(:, k+1:k+kb) from process column k / nb, B(k+1:k+kb, :) from process row k / mb.
    associate (a_owner => k / nb, b_owner => k / mb)
      call hympi_slot(row_from(a_owner), panel, shape=[mb, kb])
      if (my_col == a_owner) panel = a(:, k - a_owner * nb + 1:k - a_owner * nb + kb)
      call hympi_slot(col_from(b_owner), panel, shape=[kb, nb])
      if (my_row == b_owner) panel = b(k - b_owner * mb + 1:k - b_owner * mb + kb, :)
      call hympi_start(row_from(a_owner))
      call hympi_start(col_from(b_owner))
      call hympi_wait(row_from(a_owner))
      call hympi_wait(col_from(b_owner))
      call hympi_result(row_from(a_owner), a_panel, shape=[mb, kb])
      call hympi_result(col_from(b_owner), b_panel, shape=[kb, nb])
      c = c + matmul(a_panel, b_panel)
    end associate
  end do

  failed = 0
  if (any(c /= full_c(my_row * mb + 1:(my_row + 1) * mb, my_col * nb + 1:(my_col + 1) * nb))) failed = 1
  do owner = 0, q - 1
    call hympi_request_free(row_from(owner))
  end do
  do owner = 0, p - 1
    call hympi_request_free(col_from(owner))
  end do
  call MPI_Comm_free(row_comm)
  call MPI_Comm_free(col_comm)
  call MPI_Allreduce(MPI_IN_PLACE, failed, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a, i0, a, i0, a, a)', 'hybrid_summa: ', p, ' x ', q, ' grid: ', &
    merge('passed', 'FAILED', failed == 0)
  call MPI_Finalize()
  if (failed /= 0) error stop 1
end program
