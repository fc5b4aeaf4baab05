! BLAS-1 style kernels callable from C through bind(c).
module kernels
  use iso_c_binding, only: c_int, c_double
  implicit none
contains

  ! y := a*x + y
  subroutine saxpy(n, a, x, y) bind(c, name="f_saxpy")
    integer(c_int), value, intent(in) :: n
    real(c_double), value, intent(in) :: a
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(inout) :: y(n)
    y = a * x + y
  end subroutine saxpy

  ! Dot product x . y, via the dot_product intrinsic.
  function dot(n, x, y) result(d) bind(c, name="f_dot")
    integer(c_int), value, intent(in) :: n
    real(c_double), intent(in) :: x(n), y(n)
    real(c_double) :: d
    d = dot_product(x, y)
  end function dot

  ! Euclidean norm via the norm2 intrinsic, plus the index of the largest |x(i)| (1-based).
  subroutine norm_and_peak(n, x, nrm, peak) bind(c, name="f_norm_and_peak")
    integer(c_int), value, intent(in) :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(out) :: nrm
    integer(c_int), intent(out) :: peak
    nrm = norm2(x)
    peak = maxloc(abs(x), dim=1)
  end subroutine norm_and_peak

end module kernels
