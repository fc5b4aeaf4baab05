! Fortran routines with C bindings, called from call_fortran.c.
module c_api
  use iso_c_binding, only: c_int, c_double
  implicit none
contains

  subroutine f_axpy(n, a, x, y) bind(C, name='f_axpy')
    integer(c_int), value :: n
    real(c_double), value :: a
    real(c_double), intent(in) :: x(n)
    real(c_double), intent(inout) :: y(n)
    y = a * x + y
  end subroutine f_axpy

  real(c_double) function f_norm(n, x) bind(C, name='f_norm')
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    f_norm = norm2(x)
  end function f_norm

  ! Uses the Fortran runtime's formatted I/O when called from C.
  subroutine f_report(n, x) bind(C, name='f_report')
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), allocatable :: sorted(:)
    integer :: i, j
    real(c_double) :: t
    sorted = x
    do i = 2, n
      t = sorted(i)
      j = i - 1
      do while (j >= 1)
        if (sorted(j) <= t) exit
        sorted(j + 1) = sorted(j)
        j = j - 1
      end do
      sorted(j + 1) = t
    end do
    print '(A, *(F8.3))', 'fortran sorted:', sorted
    flush(6)
  end subroutine f_report

end module c_api
