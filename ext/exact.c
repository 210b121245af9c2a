/*
** exact.c: exact rational arithmetic for tiebreaker values.
**
** Two players whose tiebreakers are mathematically equal must tie, however
** the sums were formed: double-precision sums of 1/3 + 2/3 + 1/2 in different
** orders differ in the last bit and would split the tie.  Tiebreakers are
** therefore computed twice when needed: a fast double pass for every player,
** and an exact pass over 128-bit rationals for players whose doubles are too
** close to order (see rank.c).  Comparisons never overflow (Euclid-style);
** sums report overflow instead of wrapping.
*/
#include "tiebreak_int.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128 __attribute__((aligned(8)));

static u128 abs128(i128 x) {
  return x < 0 ? (u128)0 - (u128)x : (u128)x;
}

/* Binary GCD: no division, the hot path of exact sums. */
static sqlite3_uint64 gcd64(sqlite3_uint64 a, sqlite3_uint64 b) {
  int shift;
  if (a == 0) return b;
  if (b == 0) return a;
  shift = __builtin_ctzll(a | b);
  a >>= __builtin_ctzll(a);
  do {
    b >>= __builtin_ctzll(b);
    if (a > b) {
      sqlite3_uint64 t = b;
      b = a;
      a = t;
    }
    b -= a;
  } while (b);
  return a << shift;
}

static u128 gcd128(u128 a, u128 b) {
  while (b) {
    u128 t;
    if ((a >> 64) == 0 && (b >> 64) == 0) {
      return gcd64((sqlite3_uint64)a, (sqlite3_uint64)b);
    }
    t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* x / y for y > 0, using 64-bit division when both fit. */
static i128 div128(i128 x, i128 y) {
  if (x >= 0 && x <= INT64_MAX && y <= INT64_MAX) {
    return (i128)((sqlite3_uint64)x / (sqlite3_uint64)y);
  }
  return x / y;
}

static TbFrac frac_reduce(i128 num, i128 den) {
  TbFrac f;
  u128 g;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  g = gcd128(abs128(num), (u128)den);
  if (g > 1) {
    num = num < 0 ? -div128(-num, (i128)g) : div128(num, (i128)g);
    den = div128(den, (i128)g);
  }
  f.num = num;
  f.den = den;
  return f;
}

TbFrac tb_frac(i64 num, i64 den) {
  return frac_reduce(num, den);
}

double tb_frac_double(const TbFrac *a) {
  /* Split so that large numerators keep their precision. */
  i128 q = a->num / a->den;
  i128 r = a->num % a->den;
  return (double)q + (double)r / (double)a->den;
}

/* floor division for den > 0 */
static i128 floordiv(i128 num, i128 den, i128 *pRem) {
  i128 q = num / den;
  i128 r = num % den;
  if (r < 0) {
    q -= 1;
    r += den;
  }
  *pRem = r;
  return q;
}

/*
** Compare a/b with c/d (b, d > 0) without multiplying: compare the integer
** parts, then the reciprocals of the fractional parts (continued fractions).
*/
int tb_frac_cmp(const TbFrac *pA, const TbFrac *pB) {
  i128 a = pA->num, b = pA->den, c = pB->num, d = pB->den;
  int sign = 1;
  if (a >= INT64_MIN && a <= INT64_MAX && c >= INT64_MIN && c <= INT64_MAX &&
      b <= INT64_MAX && d <= INT64_MAX) {
    i128 x = a * d, y = c * b; /* 64 x 64 bits: cannot overflow */
    return x < y ? -1 : x > y;
  }
  for (;;) {
    i128 ra, rc;
    i128 qa = floordiv(a, b, &ra);
    i128 qc = floordiv(c, d, &rc);
    if (qa != qc) return qa < qc ? -sign : sign;
    if (ra == 0 || rc == 0) {
      if (ra == rc) return 0;
      return ra == 0 ? -sign : sign;
    }
    /* ra/b < rc/d  <=>  b/ra > d/rc */
    a = b; b = ra;
    c = d; d = rc;
    sign = -sign;
  }
}

/*
** a + b, or 1 on overflow.  Terms of one sum mostly share a denominator
** (3 x rounds, or the floor's), so that case skips the GCD; the result is
** reduced only when it grows large.
*/
static int frac_add(TbFrac *pOut, const TbFrac *pA, const TbFrac *pB) {
  i128 num, den;
  if (pA->den == pB->den) {
    den = pA->den;
    if (__builtin_add_overflow(pA->num, pB->num, &num)) return 1;
  } else {
    i128 g = (i128)gcd128((u128)pA->den, (u128)pB->den);
    i128 x, y;
    if (__builtin_mul_overflow(div128(pA->den, g), pB->den, &den)) return 1;
    if (__builtin_mul_overflow(pA->num, div128(pB->den, g), &x)) return 1;
    if (__builtin_mul_overflow(pB->num, div128(pA->den, g), &y)) return 1;
    if (__builtin_add_overflow(x, y, &num)) return 1;
  }
  if (den > ((i128)1 << 62) || abs128(num) > ((u128)1 << 62)) {
    *pOut = frac_reduce(num, den);
  } else {
    pOut->num = num;
    pOut->den = den;
  }
  return 0;
}

/*
** Parse a floor or other parameter: "1/3", "33/100", "0.33", "1", ".5".
** Returns 0 on success, 1 when the text is not such a number.
*/
int tb_frac_parse(const char *z, TbFrac *pOut) {
  i64 num = 0, den = 1;
  int nDigit = 0;
  if (z == 0) return 1;
  while (*z == ' ') z++;
  while (*z >= '0' && *z <= '9') {
    if (num > 100000000000000LL) return 1;
    num = num * 10 + (*z++ - '0');
    nDigit++;
  }
  if (*z == '.') {
    z++;
    while (*z >= '0' && *z <= '9') {
      if (den > 100000000000000LL || num > 100000000000000LL) return 1;
      num = num * 10 + (*z++ - '0');
      den *= 10;
      nDigit++;
    }
    if (nDigit == 0) return 1;
  } else if (*z == '/') {
    i64 d = 0;
    int nDen = 0;
    if (nDigit == 0) return 1;
    z++;
    while (*z >= '0' && *z <= '9') {
      if (d > 100000000000000LL) return 1;
      d = d * 10 + (*z++ - '0');
      nDen++;
    }
    if (nDen == 0 || d == 0) return 1;
    den = d;
  }
  if (nDigit == 0) return 1;
  while (*z == ' ') z++;
  if (*z) return 1;
  *pOut = frac_reduce(num, den);
  return 0;
}

/* ------------------------------------------------------------ accumulator */

static void acc_add_frac(TbAcc *p, const TbFrac *pF) {
  if (p->bOverflow) return;
  if (frac_add(&p->q, &p->q, pF)) p->bOverflow = 1;
}

/* value += num/den in exact mode (the fast mode is inline, tiebreak_int.h) */
void tb_acc_add_exact(TbAcc *p, i64 num, i64 den) {
  TbFrac f;
  f.num = num;
  f.den = den;
  acc_add_frac(p, &f);
}

/* value += the value of a nested accumulator (e.g. an opponent's OMW) */
void tb_acc_add_acc(TbAcc *p, const TbAcc *pChild) {
  if (pChild->bOverflow) p->bOverflow = 1;
  if (pChild->bNull) return;
  if (p->bExact) {
    acc_add_frac(p, &pChild->q);
  } else if (p->bInexact || pChild->bInexact) {
    p->bInexact = 1;
    p->r += pChild->r;
  } else {
    p->r = tb_exact_sum(p->r, pChild->r, &p->bInexact);
  }
}

/* value /= n in exact mode, n > 0 (the rest is inline, tiebreak_int.h) */
void tb_acc_mean_exact(TbAcc *p, i64 n) {
  i128 den;
  if (p->bOverflow) return;
  if (__builtin_mul_overflow(p->q.den, (i128)n, &den)) {
    p->bOverflow = 1;
    return;
  }
  p->q = frac_reduce(p->q.num, den);
}
