! libkepler: Kepler's equation E - e sin(E) = M solved by Newton's method, and the orbit radius
! r = a (1 - e cos(E)), exported to C with bind(c).
!
! kepler_solve iterates to convergence; its exact derivative comes from the implicit function
! theorem (dE/dM = 1 / (1 - e cos E), dE/de = sin E / (1 - e cos E)), written by hand below as an
! augmented forward and a reverse with Enzyme's conventions. Fortran cannot hold an Enzyme
! registration, so derivatives.toml names the pair and `gradlink fat build --derivatives` puts it
! in the library's manifest. orbit_radius's derivatives are compiled when the library is built
! (--export-derivatives orbit_radius:reverse).
module kepler
  use iso_c_binding
  implicit none

  ! The adjoints of kepler_solve's two arguments, as its reverse returns them: a C struct
  ! {double d_mean_anomaly, d_eccentricity}.
  type, bind(c) :: kepler_adjoint
    real(c_double) :: d_mean_anomaly, d_eccentricity
  end type

contains

  ! The eccentric anomaly E of the mean anomaly m on an orbit of eccentricity e (0 <= e < 1).
  function kepler_solve(m, e) bind(c, name="kepler_solve") result(ea)
    real(c_double), value :: m, e
    real(c_double) :: ea, step
    integer :: it
    ea = m
    if (e > 0.8_c_double) ea = 3.141592653589793_c_double
    do it = 1, 50
      step = (ea - e * sin(ea) - m) / (1 - e * cos(ea))
      ea = ea - step
      if (abs(step) < 1e-15_c_double) exit
    end do
  end function

  ! Augmented forward: kepler_solve's arguments; returns the tape, here E itself (a scalar
  ! tape: the link computes the primal result by calling kepler_solve).
  function kepler_solve_aug(m, e) bind(c, name="kepler_solve_aug") result(tape)
    real(c_double), value :: m, e
    real(c_double) :: tape
    tape = kepler_solve(m, e)
  end function

  ! Reverse: the arguments, the differential of E, then the tape; returns the adjoints of m, e.
  function kepler_solve_rev(m, e, d_ea, ea) bind(c, name="kepler_solve_rev") result(adj)
    real(c_double), value :: m, e, d_ea, ea
    type(kepler_adjoint) :: adj
    real(c_double) :: w
    w = d_ea / (1 - e * cos(ea))
    adj%d_mean_anomaly = w
    adj%d_eccentricity = w * sin(ea)
  end function

  ! Distance from the focus at mean anomaly m on an orbit of semi-major axis a, eccentricity e.
  function orbit_radius(m, a, e) bind(c, name="orbit_radius") result(r)
    real(c_double), value :: m, a, e
    real(c_double) :: r
    r = a * (1 - e * cos(kepler_solve(m, e)))
  end function

end module
