/*
** model/exact.c: exact rational arithmetic for tiebreaker values.
**
** Two players whose tiebreakers are mathematically equal must tie, however
** the sums were formed: double-precision sums of 1/3 + 2/3 + 1/2 in different
** orders differ in the last bit and would split the tie.  Tiebreakers are
** therefore computed twice when needed: a fast double-double pass for every
** player (tiebreak_int.h), and an exact pass over rationals for players whose
** doubles are too close to order or to round (see rank.c).
**
** The exact pass works in 128-bit rationals, which hold the values of most
** events.  A long event can outgrow them: a sum of fractions has the least
** common multiple of their denominators as its own, and OMW% over 43 rounds
** already needs lcm(3, 6, ..., 129), past 2^64.  A sum that would overflow
** moves to a rational of any size (TbBigQ, limbs in sqlite3_malloc64 memory),
** so no event is too long or too fine to rank exactly; out of memory is then
** the only failure.  Sizes stay bounded: adding a term divides the
** denominators by their GCD first, so a sum's denominator is the LCM of its
** terms', and a mean divides out what it shares with the count.  Every step
** costs a polynomial in the sizes, which are linear in the rows summed.
**
** Comparisons of 128-bit values never overflow (Euclid-style); a value is
** turned into the correctly rounded double of its exact value by a long
** division (tb_q_double).
*/
#include "../tiebreak_int.h"

#include <math.h>
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
** Returns 0 on success, 1 when the text is not such a number.  Each term
** holds up to 18 digits (the shortest form of any double from 1e-2 up has at
** most 17 significant digits, 18 decimal places): 64-bit terms.
*/
#define FRAC_TERM_MAX 99999999999999999LL /* 10^17 - 1: one more digit fits */
#define FRAC_DEN_MAX 100000000000000000LL /* 10^17: one more decimal place */
int tb_frac_parse(const char *z, TbFrac *pOut) {
  i64 num = 0, den = 1;
  int nDigit = 0;
  if (z == 0) return 1;
  while (*z == ' ') z++;
  while (*z >= '0' && *z <= '9') {
    if (num > FRAC_TERM_MAX) return 1;
    num = num * 10 + (*z++ - '0');
    nDigit++;
  }
  if (*z == '.') {
    z++;
    while (*z >= '0' && *z <= '9') {
      if (den > FRAC_DEN_MAX || num > FRAC_TERM_MAX) return 1;
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
      if (d > FRAC_TERM_MAX) return 1;
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

/* ---------------------------------------------------------------- bignum */

/*
** A natural number of any size: n limbs of 32 bits, least significant
** first, a[n-1] != 0 (zero has n == 0).  Plain schoolbook arithmetic: the
** numbers met here have hundreds or thousands of bits, not millions.
*/
typedef unsigned int u32;
typedef sqlite3_uint64 u64;

typedef struct Big {
  int n, nAlloc;
  u32 *a;
} Big;

struct TbBigQ {
  int bNeg;                   /* the value is -num/den */
  Big num, den;               /* den > 0 */
};

static void big_free(Big *x) {
  sqlite3_free(x->a);
  memset(x, 0, sizeof(*x));
}

static int big_reserve(Big *x, int n) {
  if (n > x->nAlloc) {
    int nNew = n + n / 2 + 4;
    u32 *a = sqlite3_realloc64(x->a, sizeof(u32) * (u64)nNew);
    if (a == 0) return SQLITE_NOMEM;
    x->a = a;
    x->nAlloc = nNew;
  }
  return SQLITE_OK;
}

static void big_trim(Big *x) {
  while (x->n > 0 && x->a[x->n - 1] == 0) x->n--;
}

static int big_set_u128(Big *x, u128 v) {
  if (big_reserve(x, 4)) return SQLITE_NOMEM;
  x->n = 0;
  while (v) {
    x->a[x->n++] = (u32)v;
    v >>= 32;
  }
  return SQLITE_OK;
}

static int big_copy(Big *x, const Big *y) {
  if (big_reserve(x, y->n)) return SQLITE_NOMEM;
  if (y->n) memcpy(x->a, y->a, sizeof(u32) * (size_t)y->n);
  x->n = y->n;
  return SQLITE_OK;
}

static int big_cmp(const Big *x, const Big *y) {
  int i;
  if (x->n != y->n) return x->n < y->n ? -1 : 1;
  for (i = x->n - 1; i >= 0; i--) {
    if (x->a[i] != y->a[i]) return x->a[i] < y->a[i] ? -1 : 1;
  }
  return 0;
}

static int big_bits(const Big *x) {
  if (x->n == 0) return 0;
  return 32 * x->n - __builtin_clz(x->a[x->n - 1]);
}

static int big_is_one(const Big *x) {
  return x->n == 1 && x->a[0] == 1;
}

/* x += y */
static int big_add(Big *x, const Big *y) {
  int n = x->n > y->n ? x->n : y->n, i;
  u64 c = 0;
  if (big_reserve(x, n + 1)) return SQLITE_NOMEM;
  for (i = x->n; i < n; i++) x->a[i] = 0;
  for (i = 0; i < n; i++) {
    c += (u64)x->a[i] + (i < y->n ? y->a[i] : 0);
    x->a[i] = (u32)c;
    c >>= 32;
  }
  x->a[n] = (u32)c;
  x->n = n + 1;
  big_trim(x);
  return SQLITE_OK;
}

/* x -= y, x >= y */
static void big_sub(Big *x, const Big *y) {
  int i;
  u64 b = 0;
  for (i = 0; i < x->n; i++) {
    u64 d = (u64)x->a[i] - (i < y->n ? y->a[i] : 0) - b;
    x->a[i] = (u32)d;
    b = (d >> 32) & 1;
  }
  big_trim(x);
}

/*
** Products are the cost of long exact sums: a sum of k terms of distinct
** denominators has a denominator of O(k) limbs (balanced sums, below).  So
** long products are done in 64-bit limbs, and operands of KARATSUBA_MIN such
** limbs or more are split in halves (three products of half the size
** instead of four); short ones are multiplied limb by limb.  Long products
** poll the probe, so that an interrupt stops them: one unit of work is
** LIMB_WORK products of 64-bit limbs, about the cost of a seat.
*/
#define KARATSUBA_MIN 24
#define LIMB_WORK 32

/* r[0, na + nb) = a * b, 32-bit limbs, limb by limb; r overlaps neither. */
static void mul_base(u32 *r, const u32 *a, int na, const u32 *b, int nb) {
  int i, j;
  memset(r, 0, sizeof(u32) * (size_t)(na + nb));
  for (i = 0; i < na; i++) {
    u64 c = 0;
    for (j = 0; j < nb; j++) {
      c += (u64)a[i] * b[j] + r[i + j];
      r[i + j] = (u32)c;
      c >>= 32;
    }
    r[i + nb] = (u32)c;
  }
}

/* r[0, na + nb) = a * b, 64-bit limbs, limb by limb. */
static void mul_base64(u64 *r, const u64 *a, int na, const u64 *b, int nb) {
  int i, j;
  memset(r, 0, sizeof(u64) * (size_t)(na + nb));
  for (i = 0; i < na; i++) {
    u128 c = 0;
    for (j = 0; j < nb; j++) {
      c += (u128)a[i] * b[j] + r[i + j];
      r[i + j] = (u64)c;
      c >>= 64;
    }
    r[i + nb] = (u64)c;
  }
}

/* r[0, n) += a[0, na), na <= n; the carry out of r is dropped (the callers
** know the sum fits) */
static void limbs_add(u64 *r, int n, const u64 *a, int na) {
  u128 c = 0;
  int i;
  for (i = 0; i < na; i++) {
    c += (u128)r[i] + a[i];
    r[i] = (u64)c;
    c >>= 64;
  }
  for (; c && i < n; i++) c = ++r[i] == 0;
}

/* r[0, n) -= a[0, na), na <= n, r >= a */
static void limbs_sub(u64 *r, int n, const u64 *a, int na) {
  u128 d = 0;
  int i;
  for (i = 0; i < na; i++) {
    d = (u128)r[i] - a[i] - (u64)(d >> 127);
    r[i] = (u64)d;
  }
  for (; (d >> 127) && i < n; i++) d = (u128)(r[i]-- == 0) << 127;
}

/*
** Products past NTT_MIN limbs a side: Karatsuba's cost grows 3x when the
** size doubles, which makes the top merges of a long balanced sum
** super-linear in the terms.  A number-theoretic transform over the prime
** P = 2^64 - 2^32 + 1 costs O(n log n) instead: the operands are cut in
** digits of 16 to 24 bits, as many as keep the convolution's sums below P
** (ntt_size), so each digit of the product is exact with no second prime.
** P's reduction needs no division (2^64 = 2^32 - 1 and 2^96 = -1 mod P),
** and 7 generates its multiplicative group, whose order 2^32 x 3 x 5 x 17
** x 257 x 65537 has the roots of unity of every power of two needed.
** Below NTT_MIN, Karatsuba is faster (1,024 x 1,024 limbs: 0.24 ms, one
** transform's product 0.57 ms).  Each stage of a transform polls the probe,
** n/2 butterflies counted as limb products.
*/
#define NTT_MIN 1024
#define NTT_P 0xffffffff00000001ull
#define NTT_MAX_LOG 30 /* 2^30 points: int indices */

/* all ones when c, else 0 */
static u64 ntt_mask(int c) {
  return (u64)0 - (u64)c;
}

/* x mod P, for any x < 2^128; masks instead of branches, which the
** transforms' random data would mispredict half the time */
static inline u64 ntt_reduce(u128 x) {
  u64 lo = (u64)x, hi = (u64)(x >> 64);
  u64 h0 = hi & 0xffffffffu, h1 = hi >> 32;
  u64 t = lo - h1, r;
  t -= ntt_mask(lo < h1) & 0xffffffffu; /* borrowed 2^64 = 2^32 - 1 */
  r = t + ((h0 << 32) - h0);                  /* h0 2^64 = h0 (2^32 - 1) */
  r += ntt_mask(r < t) & 0xffffffffu;  /* carried 2^64 */
  return r - (ntt_mask(r >= NTT_P) & NTT_P);
}

static inline u64 ntt_mul(u64 a, u64 b) {
  return ntt_reduce((u128)a * b);
}

/* a + b and a - b mod P, both below P */
static u64 ntt_add(u64 a, u64 b) {
  u64 s = a + b;
  /* wrapping past 2^64 subtracts P as well */
  return s - (ntt_mask((s < a) | (s >= NTT_P)) & NTT_P);
}

static u64 ntt_sub(u64 a, u64 b) {
  return a - b + (ntt_mask(a < b) & NTT_P);
}

static u64 ntt_pow(u64 b, u64 e) {
  u64 r = 1;
  for (; e; e >>= 1, b = ntt_mul(b, b)) {
    if (e & 1) r = ntt_mul(r, b);
  }
  return r;
}

/*
** Every pass over a transform's arrays polls as it goes, once per
** NTT_SLICE points: at 2^22 points an array is 32 MiB of fresh pages, whose
** faults alone took over 100 ms between two polls on a loaded machine.
** *pnDone counts the points since the last poll.
*/
#define NTT_SLICE 32768

static int ntt_poll(TbProbe *pProbe, int *pnDone, int nPoints) {
  int n = *pnDone + nPoints;
  if (n < NTT_SLICE) {
    *pnDone = n;
    return SQLITE_OK;
  }
  *pnDone = 0;
  return tb_poll(pProbe, 1 + n / LIMB_WORK);
}

/* The roots of every stage, contiguous: w[len + j] = (root^(n / 2len))^j
** for j < len, len = 1, 2, 4, ..., n/2; root of order n.  w[0] unused. */
static int ntt_roots(u64 *w, int n, u64 root, TbProbe *pProbe) {
  int i, nDone = 0, rc = SQLITE_OK;
  w[n / 2] = 1;
  for (i = n / 2 + 1; i < n && rc == SQLITE_OK; i++) {
    w[i] = ntt_mul(w[i - 1], root);
    rc = ntt_poll(pProbe, &nDone, 1);
  }
  for (i = n / 2 - 1; i >= 1 && rc == SQLITE_OK; i--) {
    w[i] = w[2 * i]; /* squares */
    rc = ntt_poll(pProbe, &nDone, 1);
  }
  return rc;
}

/* Forward transform of a[0, n) in place, natural order in, bit-reversed
** out (Gentleman-Sande); w from ntt_roots. */
static int ntt_forward(u64 *a, int n, const u64 *w, TbProbe *pProbe) {
  int len, s, j, j0, m, rc, nDone = 0;
  for (len = n / 2; len >= 1; len /= 2) {
    for (s = 0; s < n; s += 2 * len) {
      for (j0 = 0; j0 < len; j0 += m) {
        u64 *x = a + s + j0, *y = x + len;
        const u64 *wl = w + len + j0;
        m = len - j0 < NTT_SLICE ? len - j0 : NTT_SLICE;
        for (j = 0; j < m; j++) {
          u64 u = x[j], v = y[j];
          x[j] = ntt_add(u, v);
          y[j] = ntt_mul(ntt_sub(u, v), wl[j]);
        }
        if ((rc = ntt_poll(pProbe, &nDone, m)) != SQLITE_OK) return rc;
      }
    }
  }
  return SQLITE_OK;
}

/* Inverse of ntt_forward() but for the factor n: bit-reversed order in,
** natural out (Cooley-Tukey); w from ntt_roots of the inverse root. */
static int ntt_inverse(u64 *a, int n, const u64 *w, TbProbe *pProbe) {
  int len, s, j, j0, m, rc, nDone = 0;
  for (len = 1; len < n; len *= 2) {
    for (s = 0; s < n; s += 2 * len) {
      for (j0 = 0; j0 < len; j0 += m) {
        u64 *x = a + s + j0, *y = x + len;
        const u64 *wl = w + len + j0;
        m = len - j0 < NTT_SLICE ? len - j0 : NTT_SLICE;
        for (j = 0; j < m; j++) {
          u64 u = x[j], v = ntt_mul(y[j], wl[j]);
          x[j] = ntt_add(u, v);
          y[j] = ntt_sub(u, v);
        }
        if ((rc = ntt_poll(pProbe, &nDone, m)) != SQLITE_OK) return rc;
      }
    }
  }
  return SQLITE_OK;
}

/* Digits of b bits of a[0, na) into d[0, n), zeros after */
static int ntt_digits(u64 *d, int n, int b, const u64 *a, int na,
                      TbProbe *pProbe) {
  u64 mask = ((u64)1 << b) - 1;
  int i, rc, nDone = 0;
  for (i = 0; i < n; i++) {
    i64 pos = (i64)i * b;
    int k = (int)(pos / 64), off = (int)(pos % 64);
    u64 v = 0;
    if (k < na) v = a[k] >> off;
    if (off + b > 64 && k + 1 < na) v |= a[k + 1] << (64 - off);
    d[i] = v & mask;
    if ((rc = ntt_poll(pProbe, &nDone, 1)) != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

/*
** The transform for products of up to nLimb limbs, nSum of them added
** (1 or 2): digits of *pB bits, and 2^lg points, the largest digits
** (fewest points) whose convolution sums, up to nSum 2^lg (2^b - 1)^2, stay
** below P.  0: none (no such long product).
*/
static int ntt_size(i64 nLimb, int nSum, int *pB) {
  int b, lg;
  for (b = 24; b >= 16; b--) {
    i64 nDigit = (64 * nLimb + b - 1) / b;
    for (lg = 1; ((i64)1 << lg) < nDigit; lg++) {}
    if (lg <= NTT_MAX_LOG && lg + 2 * b + (nSum > 1) <= 63) {
      *pB = b;
      return lg;
    }
  }
  return 0;
}

/* r[0, nr) = the convolution f (transformed back, times n = 2^lg) of
** digits of nBit bits: scaled by 1/n, the carries propagated. */
static int ntt_carry(u64 *r, int nr, const u64 *f, int lg, int nBit,
                     TbProbe *pProbe) {
  i64 nOut = (64 * (i64)nr + nBit - 1) / nBit, i;
  u64 nInv = NTT_P - ((NTT_P - 1) >> lg); /* n (P - (P-1)/n) = 1 mod P */
  u128 carry = 0;
  int rc, nDone = 0;
  for (i = 0; i < nr; i++) {
    r[i] = 0;
    if ((rc = ntt_poll(pProbe, &nDone, 1)) != SQLITE_OK) return rc;
  }
  for (i = 0; i < nOut; i++) {
    i64 pos = i * nBit;
    int k = (int)(pos / 64), off = (int)(pos % 64);
    u64 v;
    carry += i < ((i64)1 << lg) ? ntt_mul(f[i], nInv) : 0;
    v = (u64)carry & (((u64)1 << nBit) - 1);
    carry >>= nBit;
    r[k] |= v << off;
    if (off + nBit > 64 && k + 1 < nr) r[k + 1] |= v >> (64 - off);
    if ((rc = ntt_poll(pProbe, &nDone, 1)) != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

/* The digits of a[0, na) transformed, into f[0, 2^lg) */
static int ntt_of(u64 *f, int lg, int nBit, const u64 *a, int na,
                  const u64 *w, TbProbe *pProbe) {
  int rc = ntt_digits(f, 1 << lg, nBit, a, na, pProbe);
  return rc == SQLITE_OK ? ntt_forward(f, 1 << lg, w, pProbe) : rc;
}

/* w for the transforms of 2^lg points: bInverse 0, forward, 1, back */
static int ntt_table(u64 *w, int lg, int bInverse, TbProbe *pProbe) {
  u64 e = (NTT_P - 1) >> lg;
  return ntt_roots(w, 1 << lg, ntt_pow(7, bInverse ? (NTT_P - 1) - e : e),
                   pProbe);
}

/*
** r[0, na + nb) = a * b by transforms, 2^lg points of nBit-bit digits
** (ntt_size): both operands transformed, multiplied pointwise, and the
** product transformed back.
*/
static int mul_ntt(u64 *r, const u64 *a, int na, const u64 *b, int nb,
                   int lg, int nBit, TbProbe *pProbe) {
  int n = 1 << lg, i, rc, nDone = 0;
  u64 *fa = sqlite3_malloc64(sizeof(u64) * 3 * (u64)n), *fb, *w;
  if (fa == 0) return SQLITE_NOMEM;
  fb = fa + n;
  w = fb + n;
  if ((rc = ntt_table(w, lg, 0, pProbe)) == SQLITE_OK &&
      (rc = ntt_of(fa, lg, nBit, a, na, w, pProbe)) == SQLITE_OK &&
      (rc = ntt_of(fb, lg, nBit, b, nb, w, pProbe)) == SQLITE_OK) {
    for (i = 0; i < n && rc == SQLITE_OK; i++) {
      fa[i] = ntt_mul(fa[i], fb[i]);
      rc = ntt_poll(pProbe, &nDone, 1);
    }
    if (rc == SQLITE_OK) rc = ntt_table(w, lg, 1, pProbe);
    if (rc == SQLITE_OK) rc = ntt_inverse(fa, n, w, pProbe);
  }
  if (rc == SQLITE_OK) rc = ntt_carry(r, na + nb, fa, lg, nBit, pProbe);
  sqlite3_free(fa);
  return rc;
}

static int mul_limbs(u64 *r, const u64 *a, int na, const u64 *b, int nb,
                     TbProbe *pProbe);

/* mul_limbs() for nb <= na / 2 (about): a in slices of nb limbs, each
** product added in place, so that Karatsuba's halves stay balanced. */
static int mul_sliced(u64 *r, const u64 *a, int na, const u64 *b, int nb,
                      TbProbe *pProbe) {
  u64 *t = sqlite3_malloc64(sizeof(u64) * (u64)(2 * nb));
  int i, rc = SQLITE_OK;
  if (t == 0) return SQLITE_NOMEM;
  memset(r, 0, sizeof(u64) * (size_t)(na + nb));
  for (i = 0; i < na && rc == SQLITE_OK; i += nb) {
    int m = na - i < nb ? na - i : nb;
    rc = mul_limbs(t, b, nb, a + i, m, pProbe);
    if (rc == SQLITE_OK) limbs_add(r + i, na + nb - i, t, m + nb);
  }
  sqlite3_free(t);
  return rc;
}

/* a0 + a1 (a0 of h limbs, a1 of n1 <= h) into s[0, h + 1) */
static void limbs_halves(u64 *s, const u64 *a, int h, int n1) {
  memcpy(s, a, sizeof(u64) * (size_t)h);
  s[h] = 0;
  limbs_add(s, h + 1, a + h, n1);
}

/*
** r[0, na + nb) = a * b, na >= nb > 0, r overlapping neither.  Karatsuba:
** with a = a1 B^h + a0 and b = b1 B^h + b0, a b = z2 B^2h + z1 B^h + z0
** where z1 = (a0 + a1)(b0 + b1) - z0 - z2.
*/
static int mul_limbs(u64 *r, const u64 *a, int na, const u64 *b, int nb,
                     TbProbe *pProbe) {
  int h = (na + 1) / 2, rc, lg, nBit;
  u64 *sa, *sb, *z1;
  if (nb >= NTT_MIN && (lg = ntt_size((i64)na + nb, 1, &nBit)) != 0) {
    return mul_ntt(r, a, na, b, nb, lg, nBit, pProbe);
  }
  if (nb < KARATSUBA_MIN) {
    mul_base64(r, a, na, b, nb);
    return tb_poll(pProbe, 1 + (i64)na * nb / LIMB_WORK);
  }
  if (nb <= h) return mul_sliced(r, a, na, b, nb, pProbe);
  sa = sqlite3_malloc64(sizeof(u64) * (u64)(4 * h + 4));
  if (sa == 0) return SQLITE_NOMEM;
  sb = sa + h + 1;
  z1 = sb + h + 1;
  limbs_halves(sa, a, h, na - h);
  limbs_halves(sb, b, h, nb - h);
  if ((rc = mul_limbs(r, a, h, b, h, pProbe)) == SQLITE_OK &&
      (rc = mul_limbs(r + 2 * h, a + h, na - h, b + h, nb - h, pProbe)) ==
          SQLITE_OK &&
      (rc = mul_limbs(z1, sa, h + 1, sb, h + 1, pProbe)) == SQLITE_OK) {
    limbs_sub(z1, 2 * h + 2, r, 2 * h);
    limbs_sub(z1, 2 * h + 2, r + 2 * h, na + nb - 2 * h);
    limbs_add(r + h, na + nb - h, z1,
              2 * h + 2 < na + nb - h ? 2 * h + 2 : na + nb - h);
  }
  sqlite3_free(sa);
  return rc;
}

/* x's limbs in pairs, as n64 64-bit limbs */
static void limbs_pack(u64 *r, int n64, const Big *x) {
  int i;
  for (i = 0; i < n64; i++) {
    r[i] = (2 * i < x->n ? x->a[2 * i] : 0) |
           (2 * i + 1 < x->n ? (u64)x->a[2 * i + 1] << 32 : 0);
  }
}

/* x = y * z, y->n >= z->n > 0, in 64-bit limbs */
static int big_mul_long(Big *x, const Big *y, const Big *z, TbProbe *pProbe) {
  int ny = (y->n + 1) / 2, nz = (z->n + 1) / 2, i, rc;
  u64 *a = sqlite3_malloc64(sizeof(u64) * (u64)(2 * (ny + nz)));
  if (a == 0) return SQLITE_NOMEM;
  limbs_pack(a, ny, y);
  limbs_pack(a + ny, nz, z);
  rc = mul_limbs(a + ny + nz, a, ny, a + ny, nz, pProbe);
  if (rc == SQLITE_OK) {
    for (i = 0; i < ny + nz; i++) {
      x->a[2 * i] = (u32)a[ny + nz + i];
      x->a[2 * i + 1] = (u32)(a[ny + nz + i] >> 32);
    }
  }
  sqlite3_free(a);
  return rc;
}

/* x = y * z; x is neither.  pProbe may be NULL (short products). */
static int big_mul_polled(Big *x, const Big *y, const Big *z, TbProbe *pProbe) {
  const Big *pLong = y->n >= z->n ? y : z, *pShort = y->n >= z->n ? z : y;
  int rc = SQLITE_OK;
  if (y->n == 0 || z->n == 0) {
    x->n = 0;
    return SQLITE_OK;
  }
  /* room for the 64-bit limbs of the product too */
  if (big_reserve(x, y->n + z->n + 2)) return SQLITE_NOMEM;
  if (pShort->n < 8) {
    mul_base(x->a, pLong->a, pLong->n, pShort->a, pShort->n);
  } else {
    rc = big_mul_long(x, pLong, pShort, pProbe);
  }
  if (rc != SQLITE_OK) return rc;
  x->n = y->n + z->n;
  big_trim(x);
  return SQLITE_OK;
}

static int big_mul(Big *x, const Big *y, const Big *z) {
  return big_mul_polled(x, y, z, 0);
}

/* x *= m */
static int big_mul_small(Big *x, u64 m) {
  Big t, y;
  u32 a[2];
  int rc;
  y.a = a;
  y.nAlloc = 2;
  y.n = 0;
  while (m) {
    a[y.n++] = (u32)m;
    m >>= 32;
  }
  memset(&t, 0, sizeof(t));
  rc = big_mul(&t, x, &y);
  big_free(x);
  *x = t;
  return rc;
}

/* x mod m, m > 0 */
static u64 big_mod_small(const Big *x, u64 m) {
  u128 r = 0;
  int i;
  for (i = x->n - 1; i >= 0; i--) r = ((r << 32) | x->a[i]) % m;
  return (u64)r;
}

/* x /= m, exactly or not, m > 0 */
static void big_div_small(Big *x, u64 m) {
  u128 r = 0;
  int i;
  for (i = x->n - 1; i >= 0; i--) {
    r = (r << 32) | x->a[i];
    x->a[i] = (u32)(r / m);
    r %= m;
  }
  big_trim(x);
}

/* x <<= k */
static int big_shl(Big *x, int k) {
  int w = k / 32, b = k % 32, i;
  if (x->n == 0) return SQLITE_OK;
  if (big_reserve(x, x->n + w + 1)) return SQLITE_NOMEM;
  x->a[x->n + w] = 0;
  for (i = x->n - 1; i >= 0; i--) {
    u64 v = (u64)x->a[i] << b;
    x->a[i + w + 1] |= (u32)(v >> 32);
    x->a[i + w] = (u32)v;
  }
  for (i = 0; i < w; i++) x->a[i] = 0;
  x->n += w + 1;
  big_trim(x);
  return SQLITE_OK;
}

/* x >>= k */
static void big_shr(Big *x, int k) {
  int w = k / 32, b = k % 32, i;
  if (w >= x->n) {
    x->n = 0;
    return;
  }
  for (i = 0; i + w < x->n; i++) {
    u64 v = x->a[i + w];
    if (i + w + 1 < x->n) v |= (u64)x->a[i + w + 1] << 32;
    x->a[i] = (u32)(v >> b);
  }
  x->n -= w;
  big_trim(x);
}

static int big_ctz(const Big *x) {
  int i = 0;
  while (x->a[i] == 0) i++;
  return 32 * i + __builtin_ctz(x->a[i]);
}

/*
** q = floor(r / d), r = r mod d (d > 0), one quotient bit at a time: the
** quotients met are short (a double's bits) or exact divisions by a GCD.
** q may be NULL.
*/
static int big_divmod(Big *q, Big *r, const Big *d, TbProbe *pProbe) {
  Big t;
  int k = big_bits(r) - big_bits(d), rc = SQLITE_OK;
  if (q) q->n = 0;
  if (k < 0) return SQLITE_OK;
  memset(&t, 0, sizeof(t));
  if (q && big_reserve(q, k / 32 + 1)) return SQLITE_NOMEM;
  if (q) {
    memset(q->a, 0, sizeof(u32) * (size_t)(k / 32 + 1));
    q->n = k / 32 + 1;
  }
  if ((rc = big_copy(&t, d)) == SQLITE_OK && (rc = big_shl(&t, k)) == SQLITE_OK) {
    for (; k >= 0 && rc == SQLITE_OK; k--) {
      /* a bit of the quotient costs a pass over r: polled */
      rc = tb_poll(pProbe, 1 + r->n / LIMB_WORK);
      if (big_cmp(r, &t) >= 0) {
        big_sub(r, &t);
        if (q) q->a[k / 32] |= (u32)1 << (k % 32);
      }
      big_shr(&t, 1);
    }
  }
  if (q) big_trim(q);
  big_free(&t);
  return rc;
}

/* g = gcd(x, y), binary: shifts and subtractions only */
static int big_gcd(Big *g, const Big *x, const Big *y) {
  Big u, v;
  int k, rc;
  memset(&u, 0, sizeof(u));
  memset(&v, 0, sizeof(v));
  if (x->n == 0 || y->n == 0) return big_copy(g, x->n ? x : y);
  if ((rc = big_copy(&u, x)) || (rc = big_copy(&v, y))) goto done;
  k = big_ctz(&u) < big_ctz(&v) ? big_ctz(&u) : big_ctz(&v);
  big_shr(&u, big_ctz(&u));
  do {
    big_shr(&v, big_ctz(&v));
    if (big_cmp(&u, &v) > 0) {
      Big t = u;
      u = v;
      v = t;
    }
    big_sub(&v, &u);
  } while (v.n);
  if ((rc = big_shl(&u, k)) == SQLITE_OK) rc = big_copy(g, &u);
done:
  big_free(&u);
  big_free(&v);
  return rc;
}

/* --------------------------------------------------- rationals of any size */

static void bigq_free(TbBigQ *p) {
  if (p == 0) return;
  big_free(&p->num);
  big_free(&p->den);
  sqlite3_free(p);
}

/* A new TbBigQ of value f, or NULL (out of memory). */
static TbBigQ *bigq_new(const TbFrac *f) {
  TbBigQ *p = sqlite3_malloc64(sizeof(*p));
  if (p == 0) return 0;
  memset(p, 0, sizeof(*p));
  p->bNeg = f->num < 0;
  if (big_set_u128(&p->num, abs128(f->num)) ||
      big_set_u128(&p->den, (u128)f->den)) {
    bigq_free(p);
    return 0;
  }
  return p;
}

/* num += (bNeg ? -1 : 1) * y, num signed by p->bNeg */
static void bigq_add_num(TbBigQ *p, Big *y, int bNeg, int *pRc) {
  if (*pRc) return;
  if (p->bNeg == bNeg || p->num.n == 0) {
    if (p->num.n == 0) p->bNeg = bNeg;
    *pRc = big_add(&p->num, y);
  } else if (big_cmp(&p->num, y) >= 0) {
    big_sub(&p->num, y);
  } else {
    Big t;
    big_sub(y, &p->num);
    t = p->num;
    p->num = *y;
    *y = t;
    p->bNeg = bNeg;
  }
}

/*
** p += num/den, den > 0 of 64 bits: the GCD of the denominators is one of
** 64 bits, taken from p->den mod den, so the common case costs a few
** passes over p.
*/
static int bigq_add_small(TbBigQ *p, i128 num, u64 den) {
  u64 g = gcd64(big_mod_small(&p->den, den), den);
  Big t;
  int rc = SQLITE_OK;
  memset(&t, 0, sizeof(t));
  /* num/den = num (den/g) ... over p->den (den/g) */
  if ((rc = big_copy(&t, &p->den)) == SQLITE_OK) {
    big_div_small(&t, g);
    rc = big_mul_small(&t, (u64)(abs128(num) >> 64));
  }
  if (rc == SQLITE_OK) {
    /* t * |num|, in two halves of 64 bits */
    Big lo;
    memset(&lo, 0, sizeof(lo));
    rc = big_copy(&lo, &p->den);
    if (rc == SQLITE_OK) {
      big_div_small(&lo, g);
      rc = big_mul_small(&lo, (u64)abs128(num));
    }
    if (rc == SQLITE_OK) rc = big_shl(&t, 64);
    if (rc == SQLITE_OK) rc = big_add(&t, &lo);
    big_free(&lo);
  }
  if (rc == SQLITE_OK && den / g != 1) {
    if ((rc = big_mul_small(&p->num, den / g)) == SQLITE_OK) {
      rc = big_mul_small(&p->den, den / g);
    }
  }
  bigq_add_num(p, &t, num < 0, &rc);
  big_free(&t);
  return rc;
}

/* p += y, both of any size */
static int bigq_add(TbBigQ *p, const TbBigQ *y) {
  Big g, a, b, t;
  int rc;
  memset(&g, 0, sizeof(g));
  memset(&a, 0, sizeof(a));
  memset(&b, 0, sizeof(b));
  memset(&t, 0, sizeof(t));
  /* a = p.den / g, b = y.den / g: the sum is (p.num b + y.num a) / (p.den b) */
  if ((rc = big_gcd(&g, &p->den, &y->den)) || (rc = big_copy(&a, &p->den)) ||
      (rc = big_copy(&b, &y->den))) {
    goto done;
  }
  if (!big_is_one(&g)) {
    Big r;
    memset(&r, 0, sizeof(r));
    if ((rc = big_copy(&r, &a)) == SQLITE_OK) rc = big_divmod(&a, &r, &g, 0);
    if (rc == SQLITE_OK && (rc = big_copy(&r, &b)) == SQLITE_OK) {
      rc = big_divmod(&b, &r, &g, 0);
    }
    big_free(&r);
    if (rc) goto done;
  }
  if ((rc = big_mul(&t, &y->num, &a))) goto done;
  if (!big_is_one(&b)) {
    big_free(&a); /* reused for the products */
    if ((rc = big_mul(&a, &p->num, &b))) goto done;
    big_free(&p->num);
    p->num = a;
    memset(&a, 0, sizeof(a));
    if ((rc = big_mul(&a, &p->den, &b))) goto done;
    big_free(&p->den);
    p->den = a;
    memset(&a, 0, sizeof(a));
  }
  bigq_add_num(p, &t, y->bNeg, &rc);
done:
  big_free(&g);
  big_free(&a);
  big_free(&b);
  big_free(&t);
  return rc;
}

/* p /= n, n > 0: what n shares with the numerator is divided out */
static int bigq_div_small(TbBigQ *p, u64 n) {
  u64 g = p->num.n ? gcd64(big_mod_small(&p->num, n), n) : n;
  big_div_small(&p->num, g);
  if (p->num.n == 0) return big_set_u128(&p->den, 1);
  return n / g == 1 ? SQLITE_OK : big_mul_small(&p->den, n / g);
}

/* Compare x and y, either of any size. */
static int bigq_cmp(const TbBigQ *x, const TbBigQ *y, TbProbe *pProbe,
                    int *pRc) {
  Big a, b;
  int cmp = 0;
  int sx = x->num.n == 0 ? 0 : x->bNeg ? -1 : 1;
  int sy = y->num.n == 0 ? 0 : y->bNeg ? -1 : 1;
  if (sx != sy) return sx < sy ? -1 : 1;
  if (sx == 0) return 0;
  /* sums of the same terms in the same order share their denominator */
  if (big_cmp(&x->den, &y->den) == 0) return big_cmp(&x->num, &y->num) * sx;
  memset(&a, 0, sizeof(a));
  memset(&b, 0, sizeof(b));
  if ((*pRc = big_mul_polled(&a, &x->num, &y->den, pProbe)) == SQLITE_OK &&
      (*pRc = big_mul_polled(&b, &y->num, &x->den, pProbe)) == SQLITE_OK) {
    cmp = big_cmp(&a, &b) * sx;
  }
  big_free(&a);
  big_free(&b);
  return cmp;
}

/*
** The double nearest to x (ties to even): 55 quotient bits of num/den,
** scaled, and whether a remainder is left, decide the rounding.  Values
** of tiebreakers are never so small as to be subnormal.
*/
static double bigq_double(const TbBigQ *x, TbProbe *pProbe, int *pRc) {
  Big r, d, q;
  int k, e;
  double v = 0.0;
  u64 m;
  if (x->num.n == 0) return 0.0;
  memset(&r, 0, sizeof(r));
  memset(&d, 0, sizeof(d));
  memset(&q, 0, sizeof(q));
  /* r / d = num/den x 2^k, in [2^54, 2^56) */
  k = 55 - (big_bits(&x->num) - big_bits(&x->den));
  if ((*pRc = big_copy(&r, &x->num)) || (*pRc = big_copy(&d, &x->den)) ||
      (*pRc = (k > 0 ? big_shl(&r, k) : big_shl(&d, -k))) ||
      (*pRc = big_divmod(&q, &r, &d, pProbe))) {
    goto done;
  }
  m = q.a[0] | (q.n > 1 ? (u64)q.a[1] << 32 : 0);
  /* keep 54 bits: 53 and the rounding bit; the rest, and r, are sticky */
  e = -k;
  {
    int bSticky = r.n != 0;
    while (m >> 54) {
      bSticky |= (int)(m & 1);
      m >>= 1;
      e++;
    }
    /* m has 54 bits: round off the last */
    if ((m & 1) && (bSticky || (m & 2))) m += 2;
    m >>= 1;
    e++;
    v = ldexp((double)m, e);
  }
  if (x->bNeg) v = -v;
done:
  big_free(&r);
  big_free(&d);
  big_free(&q);
  return v;
}

/* ---------------------------------------------------------- balanced sums */

/*
** A long sum.  Adding a term to a rational of n limbs costs O(n), and a sum
** of k terms of distinct denominators (OGW% over k opponents of distinct
** game counts) grows to O(k) limbs: added one by one, O(k^2).  So once a
** sum's denominator passes SUM_LIMBS limbs, further terms wait in a TbSum:
** runs of them are summed in 128 bits while that holds (the chunk), the
** runs kept in a stack where a part is merged with the one below it as soon
** as that one is no larger: a balanced tree, whose merges of one level cost
** about one product of the sum's size.  Merged parts are not reduced (a GCD
** of numbers that large would cost more than the sum): the denominator is
** then the product of the runs' denominators, O(k) limbs still, and the
** value is the same.
*/
#define SUM_LIMBS 16

struct TbSum {
  int n, nAlloc;
  TbBigQ *a;                  /* parts, each smaller than the one below */
  int bChunk;                 /* 1: chunk holds a run of terms */
  TbFrac chunk;
};

static void bigq_clear(TbBigQ *p) {
  big_free(&p->num);
  big_free(&p->den);
}

/* x = r[0, n64), limbs of 64 bits */
static int big_unpack(Big *x, const u64 *r, int n64) {
  int i;
  if (big_reserve(x, 2 * n64)) return SQLITE_NOMEM;
  for (i = 0; i < n64; i++) {
    x->a[2 * i] = (u32)r[i];
    x->a[2 * i + 1] = (u32)(r[i] >> 32);
  }
  x->n = 2 * n64;
  big_trim(x);
  return SQLITE_OK;
}

static int limbs64(const Big *x) {
  return (x->n + 1) / 2;
}

/*
** bigq_add_cross() for parts of one sign whose three products are long
** enough for transforms (else 0, p untouched): each of the four operands
** is transformed once, and p.num y.den + y.num p.den is summed before it is
** transformed back: six transforms where three products take nine.
*/
static int bigq_add_cross_ntt(TbBigQ *p, const TbBigQ *y, TbProbe *pProbe,
                              int *pRc) {
  const Big *aIn[4];
  int aN[4], nNum, nDen, lg, nBit, n, i, rc = SQLITE_OK;
  i64 nPacked;
  u64 *aPacked, *f, *w, *pNum, *pDen;
  aIn[0] = &p->num;
  aIn[1] = &p->den;
  aIn[2] = &y->num;
  aIn[3] = &y->den;
  for (i = 0; i < 4; i++) {
    aN[i] = limbs64(aIn[i]);
    if (aN[i] < NTT_MIN) return 0;
  }
  if (p->bNeg != y->bNeg) return 0;
  nNum = 1 + (aN[0] + aN[3] > aN[2] + aN[1] ? aN[0] + aN[3] : aN[2] + aN[1]);
  nDen = aN[1] + aN[3];
  if ((lg = ntt_size(nNum > nDen ? nNum : nDen, 2, &nBit)) == 0) return 0;
  n = 1 << lg;
  nPacked = (i64)aN[0] + aN[1] + aN[2] + aN[3] + nNum + nDen;
  aPacked = sqlite3_malloc64(sizeof(u64) * (u64)nPacked);
  f = sqlite3_malloc64(sizeof(u64) * 5 * (u64)n);
  if (aPacked == 0 || f == 0) {
    rc = SQLITE_NOMEM;
    goto done;
  }
  w = f + 4 * (i64)n;
  rc = ntt_table(w, lg, 0, pProbe);
  {
    u64 *a = aPacked;
    for (i = 0; i < 4 && rc == SQLITE_OK; i++) {
      limbs_pack(a, aN[i], aIn[i]);
      rc = ntt_of(f + (i64)i * n, lg, nBit, a, aN[i], w, pProbe);
      a += aN[i];
    }
    pNum = a;
    pDen = a + nNum;
  }
  if (rc == SQLITE_OK) {
    u64 *pn = f, *pd = f + n, *yn = f + 2 * (i64)n, *yd = f + 3 * (i64)n;
    int nDone = 0;
    for (i = 0; i < n && rc == SQLITE_OK; i++) {
      pn[i] = ntt_add(ntt_mul(pn[i], yd[i]), ntt_mul(yn[i], pd[i]));
      pd[i] = ntt_mul(pd[i], yd[i]);
      rc = ntt_poll(pProbe, &nDone, 2);
    }
    if (rc == SQLITE_OK &&
        (rc = ntt_table(w, lg, 1, pProbe)) == SQLITE_OK &&
        (rc = ntt_inverse(pn, n, w, pProbe)) == SQLITE_OK &&
        (rc = ntt_inverse(pd, n, w, pProbe)) == SQLITE_OK &&
        (rc = ntt_carry(pNum, nNum, pn, lg, nBit, pProbe)) == SQLITE_OK &&
        (rc = ntt_carry(pDen, nDen, pd, lg, nBit, pProbe)) == SQLITE_OK) {
      if ((rc = big_unpack(&p->num, pNum, nNum)) == SQLITE_OK) {
        rc = big_unpack(&p->den, pDen, nDen);
      }
    }
  }
done:
  sqlite3_free(aPacked);
  sqlite3_free(f);
  *pRc = rc;
  return 1;
}

/* p += y, neither reduced nor divided by a GCD: for parts of a long sum. */
static int bigq_add_cross(TbBigQ *p, const TbBigQ *y, TbProbe *pProbe) {
  Big t, u;
  int rc;
  memset(&t, 0, sizeof(t));
  memset(&u, 0, sizeof(u));
  if (big_cmp(&p->den, &y->den) == 0) {
    rc = big_copy(&t, &y->num);
  } else if (bigq_add_cross_ntt(p, y, pProbe, &rc)) {
    return rc;
  } else if ((rc = big_mul_polled(&t, &y->num, &p->den, pProbe)) == SQLITE_OK &&
             (rc = big_mul_polled(&u, &p->num, &y->den, pProbe)) == SQLITE_OK) {
    big_free(&p->num);
    p->num = u;
    memset(&u, 0, sizeof(u));
    if ((rc = big_mul_polled(&u, &p->den, &y->den, pProbe)) == SQLITE_OK) {
      big_free(&p->den);
      p->den = u;
      memset(&u, 0, sizeof(u));
    }
  }
  bigq_add_num(p, &t, y->bNeg, &rc);
  big_free(&t);
  big_free(&u);
  return rc;
}

static void sum_free(TbSum *s) {
  int i;
  if (s == 0) return;
  for (i = 0; i < s->n; i++) bigq_clear(&s->a[i]);
  sqlite3_free(s->a);
  sqlite3_free(s);
}

static int bigq_limbs(const TbBigQ *p) {
  return p->num.n + p->den.n;
}

/* Push part *q (moved: *q is left empty), merging the parts no larger. */
static int sum_push(TbSum *s, TbBigQ *q, TbProbe *pProbe) {
  int rc = SQLITE_OK;
  if (s->n == s->nAlloc) {
    int nNew = s->nAlloc * 2 + 8;
    TbBigQ *a = sqlite3_realloc64(s->a, sizeof(TbBigQ) * (u64)nNew);
    if (a == 0) {
      bigq_clear(q);
      return SQLITE_NOMEM;
    }
    s->a = a;
    s->nAlloc = nNew;
  }
  s->a[s->n++] = *q;
  memset(q, 0, sizeof(*q));
  while (rc == SQLITE_OK && s->n >= 2 &&
         bigq_limbs(&s->a[s->n - 2]) <= bigq_limbs(&s->a[s->n - 1])) {
    rc = bigq_add_cross(&s->a[s->n - 2], &s->a[s->n - 1], pProbe);
    bigq_clear(&s->a[--s->n]);
  }
  return rc;
}

/* Push the value f as a part. */
static int sum_push_frac(TbSum *s, const TbFrac *f, TbProbe *pProbe) {
  TbBigQ q;
  memset(&q, 0, sizeof(q));
  q.bNeg = f->num < 0;
  if (big_set_u128(&q.num, abs128(f->num)) ||
      big_set_u128(&q.den, (u128)f->den)) {
    bigq_clear(&q);
    return SQLITE_NOMEM;
  }
  return sum_push(s, &q, pProbe);
}

/* s += f: to the chunk while 128 bits hold the run. */
static int sum_add_frac(TbSum *s, const TbFrac *f, TbProbe *pProbe) {
  int rc = SQLITE_OK;
  if (s->bChunk && frac_add(&s->chunk, &s->chunk, f) == 0) return SQLITE_OK;
  if (s->bChunk) rc = sum_push_frac(s, &s->chunk, pProbe);
  s->chunk = *f;
  s->bChunk = 1;
  return rc;
}

/* s += y, a copy of y as a part */
static int sum_add_big(TbSum *s, const TbBigQ *y, TbProbe *pProbe) {
  TbBigQ q;
  memset(&q, 0, sizeof(q));
  q.bNeg = y->bNeg;
  if (big_copy(&q.num, &y->num) || big_copy(&q.den, &y->den)) {
    bigq_clear(&q);
    return SQLITE_NOMEM;
  }
  return sum_push(s, &q, pProbe);
}

/* p += the terms of s, which is freed. */
static int sum_into(TbBigQ *p, TbSum *s, TbProbe *pProbe) {
  int rc = SQLITE_OK;
  if (s->bChunk) rc = sum_push_frac(s, &s->chunk, pProbe);
  while (rc == SQLITE_OK && s->n >= 2) {
    rc = bigq_add_cross(&s->a[s->n - 2], &s->a[s->n - 1], pProbe);
    bigq_clear(&s->a[--s->n]);
  }
  if (rc == SQLITE_OK && s->n == 1) rc = bigq_add_cross(p, &s->a[0], pProbe);
  sum_free(s);
  return rc;
}

/* ------------------------------------------------------------ exact values */

/* *a as a TbBigQ: *ppTmp is a new one to free, or NULL (a->pBig's). */
static const TbBigQ *q_big(const TbQ *a, TbBigQ **ppTmp, int *pRc) {
  *ppTmp = 0;
  if (a->pBig) return a->pBig;
  if ((*ppTmp = bigq_new(&a->q)) == 0) *pRc = SQLITE_NOMEM;
  return *ppTmp;
}

/* Compare two exact values; *pRc is set if out of memory, or if pProbe
** (NULL: none) stops a long comparison. */
int tb_q_cmp_polled(const TbQ *a, const TbQ *b, TbProbe *pProbe, int *pRc) {
  TbBigQ *pA, *pB;
  const TbBigQ *x, *y;
  int cmp = 0;
  if (a->pBig == 0 && b->pBig == 0) return tb_frac_cmp(&a->q, &b->q);
  x = q_big(a, &pA, pRc);
  y = q_big(b, &pB, pRc);
  if (x && y) cmp = bigq_cmp(x, y, pProbe, pRc);
  bigq_free(pA);
  bigq_free(pB);
  return cmp;
}

/* Compare two exact values; *pRc is set if out of memory. */
int tb_q_cmp(const TbQ *a, const TbQ *b, int *pRc) {
  return tb_q_cmp_polled(a, b, 0, pRc);
}

/* The correctly rounded double of an exact value (README: REAL columns);
** its division, of numbers as long as the sum, polls pProbe (may be NULL). */
double tb_q_double_polled(const TbQ *a, TbProbe *pProbe, int *pRc) {
  TbBigQ *pTmp;
  const TbBigQ *x;
  double v = 0.0;
  if (a->pBig == 0) {
    i128 n = a->q.num, d = a->q.den;
    /* both exactly doubles: IEEE division rounds correctly */
    if (n >= -((i128)1 << 53) && n <= ((i128)1 << 53) && d <= ((i128)1 << 53)) {
      return (double)n / (double)d;
    }
  }
  if ((x = q_big(a, &pTmp, pRc)) != 0) v = bigq_double(x, pProbe, pRc);
  bigq_free(pTmp);
  return v;
}

double tb_q_double(const TbQ *a, int *pRc) {
  return tb_q_double_polled(a, 0, pRc);
}

/*
** floor(nMul x a), or floor(nMul x a + 1/2) if bHalfUp, for a >= 0, 0 < nMul
** < 2^31; a result past 2^62 is returned as 2^62.
*/
i64 tb_q_floor(const TbQ *a, i64 nMul, int bHalfUp, int *pRc) {
  TbBigQ *pTmp;
  const TbBigQ *x;
  Big r, d, q;
  i64 v = 0;
  i128 num, den;
  /* 128 bits if they hold (2 nMul num + den) / (2 den) */
  if (a->pBig == 0 &&
      !__builtin_mul_overflow(a->q.num, (i128)(2 * nMul), &num) &&
      !__builtin_add_overflow(num, bHalfUp ? a->q.den : 0, &num) &&
      !__builtin_mul_overflow(a->q.den, (i128)2, &den)) {
    i128 rem, f = floordiv(num, den, &rem);
    if (f < 0) return -1;
    return f > ((i128)1 << 62) ? (i64)1 << 62 : (i64)f;
  }
  if ((x = q_big(a, &pTmp, pRc)) == 0) return 0;
  memset(&r, 0, sizeof(r));
  memset(&d, 0, sizeof(d));
  memset(&q, 0, sizeof(q));
  /* (2 nMul num + den) / (2 den) */
  if ((*pRc = big_copy(&r, &x->num)) == SQLITE_OK &&
      (*pRc = big_mul_small(&r, 2 * (u64)nMul)) == SQLITE_OK &&
      (*pRc = (bHalfUp ? big_add(&r, &x->den) : 0)) == SQLITE_OK &&
      (*pRc = big_copy(&d, &x->den)) == SQLITE_OK &&
      (*pRc = big_mul_small(&d, 2)) == SQLITE_OK &&
      (*pRc = big_divmod(&q, &r, &d, 0)) == SQLITE_OK) {
    if (x->bNeg && x->num.n) {
      v = -1; /* a < 0: below anything the callers keep */
    } else if (q.n == 0) {
      v = 0;
    } else if (q.n > 2 || (q.n == 2 && q.a[1] >= 0x40000000u)) {
      v = (i64)1 << 62;
    } else {
      v = (i64)(q.a[0] | (q.n > 1 ? (u64)q.a[1] << 32 : 0));
    }
  }
  big_free(&r);
  big_free(&d);
  big_free(&q);
  bigq_free(pTmp);
  return v;
}

void tb_q_free(TbQ *a) {
  bigq_free(a->pBig);
  a->pBig = 0;
}

/* ------------------------------------------------------------ accumulator */

/* Move p to a TbBigQ, to go on past 128 bits. */
static int acc_promote(TbAcc *p) {
  if (p->pBig) return SQLITE_OK;
  if ((p->pBig = bigq_new(&p->q)) == 0) p->bNoMem = 1;
  return p->bNoMem ? SQLITE_NOMEM : SQLITE_OK;
}

/* The TbSum that further terms go to, once p is long (or y is); NULL: add
** them to p->pBig one by one. */
static TbSum *acc_sum(TbAcc *p, const TbBigQ *y) {
  if (p->pSum == 0 && (p->pBig->den.n > SUM_LIMBS ||
                       (y && y->den.n > SUM_LIMBS))) {
    if ((p->pSum = sqlite3_malloc64(sizeof(TbSum))) == 0) {
      p->bNoMem = 1;
      return 0;
    }
    memset(p->pSum, 0, sizeof(TbSum));
  }
  return p->pSum;
}

static void acc_add_frac(TbAcc *p, const TbFrac *pF) {
  TbSum *s;
  if (p->bNoMem) return;
  if (p->pBig == 0 && frac_add(&p->q, &p->q, pF) == 0) return;
  if (acc_promote(p)) return;
  if ((s = acc_sum(p, 0)) != 0) {
    if (sum_add_frac(s, pF, p->pProbe)) p->bNoMem = 1;
  } else if (p->bNoMem) {
    return;
  } else if (pF->den <= (i128)UINT64_MAX && pF->num >= -((i128)1 << 126)) {
    if (bigq_add_small(p->pBig, pF->num, (u64)pF->den)) p->bNoMem = 1;
  } else {
    TbBigQ *y = bigq_new(pF);
    if (y == 0 || bigq_add(p->pBig, y)) p->bNoMem = 1;
    bigq_free(y);
  }
}

/* p += y, y of any size */
static void acc_add_big(TbAcc *p, const TbBigQ *y) {
  TbSum *s;
  if (p->bNoMem || acc_promote(p)) return;
  if ((s = acc_sum(p, y)) != 0) {
    if (sum_add_big(s, y, p->pProbe)) p->bNoMem = 1;
  } else if (!p->bNoMem && bigq_add(p->pBig, y)) {
    p->bNoMem = 1;
  }
}

/* value += num/den in exact mode (the fast mode is inline, tiebreak_int.h) */
void tb_acc_add_exact(TbAcc *p, i64 num, i64 den) {
  TbFrac f;
  f.num = num;
  f.den = den;
  acc_add_frac(p, &f);
}

/* value += a fraction of 128-bit parts in exact mode (tb_acc_add_frac) */
void tb_acc_add_frac_exact(TbAcc *p, const TbFrac *f) {
  acc_add_frac(p, f);
}

/* value += an exact value, in exact mode */
void tb_acc_add_q(TbAcc *p, const TbQ *a) {
  if (a->pBig == 0) {
    acc_add_frac(p, &a->q);
  } else {
    acc_add_big(p, a->pBig);
  }
}

/* The terms still waiting in p->pSum added to its value. */
void tb_acc_settle(TbAcc *p) {
  TbSum *s = p->pSum;
  if (s == 0) return;
  p->pSum = 0;
  if (p->bNoMem) {
    sum_free(s);
  } else if (sum_into(p->pBig, s, p->pProbe)) {
    p->bNoMem = 1;
  }
}

/* value += the value of a nested accumulator (e.g. an opponent's OMW) */
void tb_acc_add_acc(TbAcc *p, const TbAcc *pChild) {
  if (pChild->bNoMem) p->bNoMem = 1;
  if (pChild->bNull) return;
  if (!p->bExact) {
    tb_acc_add_dd(p, pChild->r, pChild->lo, pChild->err);
    return;
  }
  /* settling changes how the child holds its value, not the value */
  tb_acc_settle((TbAcc *)pChild);
  if (pChild->bNoMem) {
    p->bNoMem = 1;
  } else if (pChild->pBig == 0) {
    acc_add_frac(p, &pChild->q);
  } else {
    acc_add_big(p, pChild->pBig);
  }
}

/* value /= n in exact mode, n > 0 (the rest is inline, tiebreak_int.h) */
void tb_acc_mean_exact(TbAcc *p, i64 n) {
  i128 den;
  tb_acc_settle(p);
  if (p->bNoMem) return;
  if (p->pBig == 0) {
    if (!__builtin_mul_overflow(p->q.den, (i128)n, &den)) {
      p->q = frac_reduce(p->q.num, den);
      return;
    }
    if (acc_promote(p)) return;
  }
  if (bigq_div_small(p->pBig, (u64)n)) p->bNoMem = 1;
}

/* Free what an exact accumulator holds. */
void tb_acc_clear(TbAcc *p) {
  sum_free(p->pSum);
  p->pSum = 0;
  bigq_free(p->pBig);
  p->pBig = 0;
}

/* Move an exact accumulator's value to *pOut (which then owns it). */
void tb_acc_take(TbAcc *p, TbQ *pOut) {
  tb_acc_settle(p);
  pOut->q = p->q;
  pOut->pBig = p->pBig;
  p->pBig = 0;
}

/*
** Fast mode: 1 when r is certainly the double nearest to the value, that
** is when r + lo +- err stays strictly within the half-spacings of the
** doubles around r (ties would need the exact value); 0 otherwise.  Runs
** for every value shown: the spacings come from r's exponent bits.
*/
int tb_acc_rounded(const TbAcc *p) {
  double a = p->r < 0 ? -p->r : p->r, up, dn;
  u64 u, e;
  if (!tb_acc_inexact(p)) return 1;
  memcpy(&u, &a, sizeof(u));
  e = u >> 52; /* biased exponent */
  /* tiny, huge or not finite: left to the exact value */
  if (e < 54 || e > 2000 || !(p->err < 1e300)) return 0;
  u = (e - 53) << 52; /* half the spacing above |r|: 2^(exponent - 53) */
  memcpy(&up, &u, sizeof(up));
  dn = up;
  /* a power of two: the doubles below |r| are twice as close */
  if ((memcpy(&u, &a, sizeof(u)), u & (((u64)1 << 52) - 1)) == 0) {
    if (p->r > 0) dn *= 0.5; else up *= 0.5;
  }
  /* up - lo and lo + dn: exact, or far larger than err (Sterbenz) */
  return up - p->lo > 2.0 * p->err && p->lo + dn > 2.0 * p->err;
}
