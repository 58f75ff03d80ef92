! A plain ScaLAPACK program: C = A * B^T with PDGEMM and, in complex*16,
! Z = alpha * X * Y**H + beta * Z with PZGEMM (conjugate transpose, complex alpha
! and beta), on one BLACS grid. Nothing in it knows about hympi; linking
! libhympi_scalapack before ScaLAPACK (or preloading it) makes hympi's engine run
! both calls. It checks both results exactly (every part of every entry is a
! multiple of 1/8) and stops with an error if any entry is wrong.
program pdgemm_example
  implicit none
  integer, parameter :: n = 300, nb = 32
  complex(kind(1.0d0)), parameter :: alpha = (0.5d0, -1.0d0), beta = (2.0d0, 0.25d0)
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, info
  integer :: mloc, nloc, lld, i, j, gi, gj, p, wrong, zwrong
  integer :: desc(9)
  double precision, allocatable :: a(:, :), b(:, :), c(:, :)
  complex(kind(1.0d0)), allocatable :: x(:, :), y(:, :), z(:, :)
  double precision :: want
  complex(kind(1.0d0)) :: zwant
  integer, external :: numroc, indxl2g

  call blacs_pinfo(iam, nprocs)
  nprow = int(sqrt(dble(nprocs)))
  do while (mod(nprocs, nprow) /= 0)
    nprow = nprow - 1
  end do
  npcol = nprocs / nprow
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)

  ! Every matrix is n x n with nb x nb blocks from process (0, 0): one descriptor.
  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desc, n, n, nb, nb, 0, 0, ictxt, lld, info)
  allocate (a(lld, max(1, nloc)), b(lld, max(1, nloc)), c(lld, max(1, nloc)))
  allocate (x(lld, max(1, nloc)), y(lld, max(1, nloc)), z(lld, max(1, nloc)))
  do j = 1, nloc
    gj = indxl2g(j, nb, mycol, 0, npcol)
    do i = 1, mloc
      gi = indxl2g(i, nb, myrow, 0, nprow)
      a(i, j) = entry(0, gi, gj)
      b(i, j) = entry(1, gi, gj)
      x(i, j) = zentry(0, gi, gj)
      y(i, j) = zentry(1, gi, gj)
      z(i, j) = zentry(2, gi, gj)
    end do
  end do

  call pdgemm('N', 'T', n, n, n, 1.0d0, a, 1, 1, desc, b, 1, 1, desc, 0.0d0, c, 1, 1, desc)
  call pzgemm('N', 'C', n, n, n, alpha, x, 1, 1, desc, y, 1, 1, desc, beta, z, 1, 1, desc)

  wrong = 0
  zwrong = 0
  do j = 1, nloc
    gj = indxl2g(j, nb, mycol, 0, npcol)
    do i = 1, mloc
      gi = indxl2g(i, nb, myrow, 0, nprow)
      want = 0
      zwant = 0
      do p = 1, n
        want = want + entry(0, gi, p) * entry(1, gj, p)
        zwant = zwant + zentry(0, gi, p) * conjg(zentry(1, gj, p))
      end do
      if (c(i, j) /= want) wrong = wrong + 1
      if (z(i, j) /= alpha * zwant + beta * zentry(2, gi, gj)) zwrong = zwrong + 1
    end do
  end do
  call igsum2d(ictxt, 'All', ' ', 1, 1, wrong, 1, -1, -1)
  call igsum2d(ictxt, 'All', ' ', 1, 1, zwrong, 1, -1, -1)
  if (iam == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0)') 'pdgemm example: n=', n, ' grid ', nprow, 'x', npcol, ' wrong entries: ', wrong
    write (*, '(a,i0,a,i0,a,i0,a,i0)') 'pzgemm example: n=', n, ' grid ', nprow, 'x', npcol, ' wrong entries: ', zwrong
    flush (6)
  end if
  call blacs_gridexit(ictxt)
  if (wrong /= 0 .or. zwrong /= 0) error stop 'pdgemm example: wrong result'
  call blacs_exit(0)

contains

  ! Multiples of 1/8 in [-1, 1]: every summation order gives the same bits.
  double precision function entry(which, i, j)
    integer, intent(in) :: which, i, j
    entry = dble(mod(i * 7 + j * 13 + which * 5, 17) - 8) / 8
  end function entry

  ! Both parts multiples of 1/8 in [-1, 1]; most imaginary parts nonzero, so conjugation shows.
  complex(kind(1.0d0)) function zentry(which, i, j)
    integer, intent(in) :: which, i, j
    zentry = cmplx(entry(which, i, j), dble(mod(i * 11 + j * 3 + which * 7 + 4, 17) - 8) / 8, kind(1.0d0))
  end function zentry

end program pdgemm_example
