! A plain ScaLAPACK program in complex*16: C = alpha * A * B**H + beta * C on a
! BLACS grid with PZGEMM (conjugate transpose, complex alpha and beta). Nothing
! in it knows about hympi; linking libhympi_scalapack before ScaLAPACK (or
! preloading it) makes hympi's engine run the PZGEMM. It checks C exactly (both
! parts of every entry are multiples of 1/8) and stops with an error if any is
! wrong.
program pzgemm_example
  implicit none
  integer, parameter :: n = 200, nb = 24
  complex(kind(1.0d0)), parameter :: alpha = (0.5d0, -1.0d0), beta = (2.0d0, 0.25d0)
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, info
  integer :: mloc, nloc, lld, i, j, gi, gj, p, wrong
  integer :: desca(9), descb(9), descc(9)
  complex(kind(1.0d0)), allocatable :: a(:, :), b(:, :), c(:, :)
  complex(kind(1.0d0)) :: want
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

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descc, n, n, nb, nb, 0, 0, ictxt, lld, info)
  allocate (a(lld, max(1, nloc)), b(lld, max(1, nloc)), c(lld, max(1, nloc)))
  do j = 1, nloc
    gj = indxl2g(j, nb, mycol, 0, npcol)
    do i = 1, mloc
      gi = indxl2g(i, nb, myrow, 0, nprow)
      a(i, j) = entry(0, gi, gj)
      b(i, j) = entry(1, gi, gj)
      c(i, j) = entry(2, gi, gj)
    end do
  end do

  call pzgemm('N', 'C', n, n, n, alpha, a, 1, 1, desca, b, 1, 1, descb, beta, c, 1, 1, descc)

  wrong = 0
  do j = 1, nloc
    gj = indxl2g(j, nb, mycol, 0, npcol)
    do i = 1, mloc
      gi = indxl2g(i, nb, myrow, 0, nprow)
      want = 0
      do p = 1, n
        want = want + entry(0, gi, p) * conjg(entry(1, gj, p))
      end do
      want = alpha * want + beta * entry(2, gi, gj)
      if (c(i, j) /= want) wrong = wrong + 1
    end do
  end do
  call igsum2d(ictxt, 'All', ' ', 1, 1, wrong, 1, -1, -1)
  if (iam == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0)') 'pzgemm example: n=', n, ' grid ', nprow, 'x', npcol, ' wrong entries: ', wrong
    flush (6)
  end if
  call blacs_gridexit(ictxt)
  if (wrong /= 0) error stop 'pzgemm example: wrong result'
  call blacs_exit(0)

contains

  ! Both parts multiples of 1/8 in [-1, 1]: every summation order gives the same bits.
  complex(kind(1.0d0)) function entry(which, i, j)
    integer, intent(in) :: which, i, j
    entry = cmplx(dble(mod(i * 7 + j * 13 + which * 5, 17) - 8) / 8, &
                  dble(mod(i * 11 + j * 3 + which * 7 + 4, 17) - 8) / 8, kind(1.0d0))
  end function entry

end program pzgemm_example
