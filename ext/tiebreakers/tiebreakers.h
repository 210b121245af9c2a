/*
** tiebreakers/tiebreakers.h: tiebreaker functions defined outside tiebreakers.c, for
** its table tb_aTiebreaker[].  Each family of rules has its own file; each
** function has the signature of TbValueFn or TbGroupFn (tiebreak_int.h).
*/
#ifndef TIEBREAKERS_H
#define TIEBREAKERS_H

#include "../tiebreak_int.h"

/* tiebreakers.c: terms shared by the families */
typedef void (*TbTermFn)(TbAcc*, const TbEvent*, const TbParams*, int);
void tb_add_mwp(TbAcc*, const TbEvent*, const TbParams*, int);
void tb_opponents_mean(TbAcc*, const TbEvent*, const TbParams*, int, TbTermFn);
void tb_opponents_mean_played(TbAcc*, const TbEvent*, const TbParams*, int,
                              TbTermFn);
/* A term kept per player: r + lo within err; err < 0: NULL.  The three
** sit together: a mean over opponents reads them at random, one line each. */
typedef struct TbTermValue {
  double r, lo, err;
} TbTermValue;
i64 tb_term_int(const TbEvent*, TbTermFn, const TbParams*, int);
const TbTermValue *tb_term_ints(const TbEvent*, TbTermFn, const TbParams*);
void tb_term_add(TbAcc*, const TbEvent*, TbTermFn, const TbParams*, int);
void *tb_terms_extra(const TbEvent*, const void *pKey);
int tb_terms_set_extra(const TbEvent*, const void *pKey, void*, void (*)(void*));

/* tcg.c: Battlefy "Default" and Yu-Gi-Oh! (KTS) */
void tb_tcg_oomwp(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_yugioh_kts(const TbEvent*, const TbParams*, int, TbAcc*);

/* hct.c: Battlefy "HCT" (Hearthstone Championship Tour) */
void tb_hct_match_wins(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_hct_t1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_hct_t2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_hct_t3(const TbEvent*, const TbParams*, int, TbAcc*);

/* pokemon.c: Play! Pokemon (TOM) */
void tb_pokemon_win_pct(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_pokemon_active(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_registration_order(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_pokemon_owp(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_pokemon_oowp(const TbEvent*, const TbParams*, int, TbAcc*);
int tb_pokemon_head_to_head(const TbEvent*, const TbParams*, const int*, int,
                             TbFrac*);

/* fide.c: chess, FIDE C.07 */
void tb_fide_points(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_buchholz(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_buchholz_cut1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_buchholz_cut2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_buchholz_median1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_buchholz_median2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_sonneborn_berger(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_sonneborn_berger_cut1(const TbEvent*, const TbParams*, int,
                                   TbAcc*);
void tb_fide_sonneborn_berger_cut2(const TbEvent*, const TbParams*, int,
                                   TbAcc*);
void tb_fide_sonneborn_berger_median1(const TbEvent*, const TbParams*, int,
                                      TbAcc*);
void tb_fide_sonneborn_berger_median2(const TbEvent*, const TbParams*, int,
                                      TbAcc*);
void tb_fide_progressive(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_progressive_cut1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_progressive_cut2(const TbEvent*, const TbParams*, int, TbAcc*);
int tb_fide_direct_encounter(const TbEvent*, const TbParams*, const int*, int,
                              TbFrac*);
void tb_fide_rounds_won(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_games_won(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_black_games(const TbEvent*, const TbParams*, int, TbAcc*);

/* fide.c: Article 16 and the Buchholz family's cuts for the other chess
** files.  A cut sums one value per round (xSeat: a seat's, and whether the
** round is a VUR; nAbsentValue: each round without a row's). */
i64 tb_fide_adjusted_score(const TbEvent*, const TbParams*, int);
i64 tb_fide_buchholz_units(const TbEvent*, const TbParams*, int);
const TbTermValue *tb_fide_buchholz_column(const TbEvent*, const TbParams*);
typedef struct TbFideCut TbFideCut;
struct TbFideCut {
  const TbEvent *e;
  const TbParams *p;
  int i;                      /* the player */
  i64 (*xSeat)(const TbFideCut*, const TbSeat*, int *pbVur);
  i64 nOwn;                   /* the player's own score, as xSeat counts it */
  const TbTermValue *aScore;  /* for xSeat: scores from the term cache, or 0 */
  i64 nAbsentValue;           /* value of a round without a row ... */
  int bAbsentVur;             /* ... and whether it is a VUR */
};
/* the sums of tb_fide_cut_sums(): with no cut, Cut-1, Cut-2, Median-1, -2 */
enum { TB_FIDE_ALL, TB_FIDE_CUT1, TB_FIDE_CUT2, TB_FIDE_MEDIAN1,
       TB_FIDE_MEDIAN2, TB_FIDE_CUTS };
void tb_fide_cut_sums(const TbFideCut*, i64 *aOut);

/* fide_rating.c: chess, FIDE C.07 Article 10 */
void tb_fide_aro(const TbEvent*, const TbParams*, int, TbAcc*);

void tb_fide_aro_cut1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_aro_cut2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_aro_median1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_aro_median2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_tpr(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_ptp(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_apro(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_appo(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_rating(const TbEvent*, const TbParams*, int, TbAcc*);

/* fide_games.c: chess, FIDE C.07, more */
void tb_fide_black_wins(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_rounds_elected(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_aob(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_aob_fore(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_koya(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_fore_buchholz(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_fore_buchholz_cut1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_fore_buchholz_cut2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_fore_buchholz_median1(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_fore_buchholz_median2(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_pairing_number(const TbEvent*, const TbParams*, int, TbAcc*);
void tb_fide_standard_points(const TbEvent*, const TbParams*, int, TbAcc*);

#endif /* TIEBREAKERS_H */
