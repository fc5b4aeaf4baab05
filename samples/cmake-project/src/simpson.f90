! Composite Simpson rule, callable from C.
module quadrature
  use iso_c_binding, only: c_int, c_double
  implicit none
contains
  function simpson(n, h, y) result(s) bind(c, name="f_simpson")
    integer(c_int), value, intent(in) :: n
    real(c_double), value, intent(in) :: h
    real(c_double), intent(in) :: y(0:n)
    real(c_double) :: s
    s = y(0) + y(n) + 4.0_c_double * sum(y(1:n-1:2)) + 2.0_c_double * sum(y(2:n-2:2))
    s = s * h / 3.0_c_double
  end function simpson
end module quadrature
