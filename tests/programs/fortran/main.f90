! Main program of the Fortran link test (uses stats_mod from another file).
program fortran_link_test
  use stats_mod
  implicit none
  type(series_t) :: s
  real(8), allocatable :: grid(:, :), tmp(:)
  integer :: i, j, n

  s = make_series('damped', 40)
  print '(A, A, I4)', 'series ', trim(s%label), size(s%values)
  print '(A, F12.6, A, F12.6)', 'mean ', series_mean(s), ' stddev ', series_stddev(s)
  print '(A, F12.6, F12.6)', 'min/max ', minval(s%values), maxval(s%values)
  print '(A, I3)', 'argmax ', maxloc(s%values, 1)

  n = 5
  allocate(grid(n, n))
  do j = 1, n
    do i = 1, n
      grid(i, j) = real(i * j, 8) / real(i + j, 8)
    end do
  end do
  grid = transpose(grid) + 1d0
  print '(A, 5F9.4)', 'row 2 ', grid(2, :)
  print '(A, F12.6)', 'matmul trace ', sum([(dot_product(grid(i, :), grid(:, i)), i = 1, n)])
  tmp = [s%values(1:3), 99d0]
  call move_alloc(tmp, s%values)
  print '(A, I0, L2, F8.3)', 'moved ', size(s%values), allocated(tmp), s%values(4)
  print '(A, F12.8)', 'poly(1.5) ', poly_eval([1d0, -2d0, 0.5d0, 0.25d0], 1.5d0)
  print '(A, F12.8)', 'integral ', trapezoid(0d0, acos(-1d0), 2000)
  print '(A, ES14.6, 2X, F10.6)', 'gamma/bessel ', gamma(5.5d0), bessel_j0(2.0d0)
  print '(A, I0, 1X, I0)', 'ints ', popcnt(255), ishft(1, 20)
end program fortran_link_test
