/*
** dutch_matching.h: maximum-weight matching on a dense graph whose weights
** are unsigned integers of nW 64-bit words (little-endian), as wide as the
** Dutch system's criteria need.  Used by dutch.c only.
*/
#ifndef TIEBREAK_DUTCH_MATCHING_H
#define TIEBREAK_DUTCH_MATCHING_H

#include "pairing.h"

typedef sqlite3_uint64 DmWord;

/* A maximum-weight matching of the complete graph on n vertices whose edge
** {i,j} weighs aWeight[(i*n + j)*nW ...] (symmetric; zero: no edge), kept
** with its optimal duals between solves so that a change at a few vertices
** costs a few augmentations, not a solve from scratch.  The weights must
** leave their five top bits clear (duals stay below twice the largest
** weight, slacks within four times it either way).  The matrix is the
** caller's: after changing the pairs of vertex v, call dm_touch(v) (v and
** its mate leave the matching, v leaves its blossoms, its dual covers its
** new weights), then dm_solve.  A pair that was zero when the first solve
** ran stays out of the graph.
**
**   dm_open(n, nW, aWeight, pProbe, &pSolver);
**   dm_solve(pSolver);                     ... dm_mate(pSolver, v) ...
**   (change the pairs of v)  dm_touch(pSolver, v);  dm_solve(pSolver);
**   dm_remove(pSolver, v);                 v leaves the graph for good
**   dm_close(pSolver);
**
** dm_open and dm_solve return SQLITE_OK, SQLITE_NOMEM or the probe's
** interrupt code. */
typedef struct DmSolver DmSolver;
int dm_open(int n, int nW, const DmWord *aWeight, TbProbe *pProbe, DmSolver **ppOut);
void dm_close(DmSolver *p);
int dm_solve(DmSolver *p);
int dm_mate(const DmSolver *p, int v);
void dm_touch(DmSolver *p, int v);
void dm_remove(DmSolver *p, int v);

#endif /* TIEBREAK_DUTCH_MATCHING_H */
