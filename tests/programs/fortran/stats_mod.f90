! Module of the Fortran link test: derived type, allocatable arrays, intrinsic maths.
module stats_mod
  implicit none
  private
  public :: series_t, make_series, series_mean, series_stddev, poly_eval, trapezoid

  type :: series_t
    character(len=16) :: label
    real(8), allocatable :: values(:)
  end type series_t

contains

  function make_series(label, n) result(s)
    character(len=*), intent(in) :: label
    integer, intent(in) :: n
    type(series_t) :: s
    integer :: i
    s%label = label
    allocate(s%values(n))
    do i = 1, n
      s%values(i) = sin(real(i, 8) * 0.5d0) * exp(-real(i, 8) / real(n, 8)) + sqrt(real(i, 8))
    end do
  end function make_series

  pure real(8) function series_mean(s)
    type(series_t), intent(in) :: s
    series_mean = sum(s%values) / size(s%values)
  end function series_mean

  pure real(8) function series_stddev(s)
    type(series_t), intent(in) :: s
    real(8) :: m
    m = series_mean(s)
    series_stddev = sqrt(sum((s%values - m)**2) / (size(s%values) - 1))
  end function series_stddev

  pure real(8) function poly_eval(coeffs, x)
    real(8), intent(in) :: coeffs(:), x
    integer :: i
    poly_eval = 0d0
    do i = size(coeffs), 1, -1
      poly_eval = poly_eval * x + coeffs(i)
    end do
  end function poly_eval

  real(8) function trapezoid(a, b, n)
    real(8), intent(in) :: a, b
    integer, intent(in) :: n
    real(8), allocatable :: x(:), y(:)
    integer :: i
    allocate(x(0:n), y(0:n))
    x = [(a + (b - a) * i / n, i = 0, n)]
    y = cos(x) * x**2
    trapezoid = (b - a) / n * (sum(y) - 0.5d0 * (y(0) + y(n)))
    deallocate(x, y)
  end function trapezoid

end module stats_mod
