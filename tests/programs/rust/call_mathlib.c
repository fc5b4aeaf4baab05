/* C program calling the Rust staticlib mathlib.rs. */
#include <stdint.h>
#include <stdio.h>

int64_t rs_sum_squares(int n);
double rs_rms(const double *values, size_t len);
int rs_distinct_words(const char *text);
int64_t rs_parse_or_minus_one(const char *text);

int main(void) {
  double v[] = {3.0, 4.0, 12.0, 84.0};
  printf("sum_squares(10)=%lld\n", (long long)rs_sum_squares(10));
  printf("rms=%.6f\n", rs_rms(v, 4));
  printf("distinct=%d\n", rs_distinct_words("The cat and the Dog and THE bird"));
  printf("parse=%lld bad=%lld\n", (long long)rs_parse_or_minus_one(" 1234 "),
         (long long)rs_parse_or_minus_one("12x4"));
  return 0;
}
