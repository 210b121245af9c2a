/*
** dutch_matching.h: maximum-weight matching on a dense graph whose weights
** are unsigned integers of nW 64-bit words (little-endian), as wide as the
** Dutch system's criteria need.  Used by dutch.c only.
*/
#ifndef TIEBREAK_DUTCH_MATCHING_H
#define TIEBREAK_DUTCH_MATCHING_H

#include "pairing.h"

typedef sqlite3_uint64 DmWord;

/* Finds a maximum-weight matching of the complete graph on n vertices whose
** edge {i,j} weighs aWeight[(i*n + j)*nW ...] (symmetric; zero: no edge).
** The weights must leave their two top bits clear (room for the duals).
** aMate[v] receives v's mate, or -1.  With aDual, the optimal duals too:
** aDual[v*nW ...] (the slack of {i,j} is dual(i) + dual(j) - 2 w(i,j) plus
** twice the duals of the blossoms holding both), and aInBlossom[v] the
** innermost blossom with a nonzero dual that holds v (-1: none; blossoms
** nest, so two vertices share every such blossom iff they share this).  Returns SQLITE_OK, SQLITE_NOMEM or
** the probe's interrupt code. */
int dm_max_weight_matching(int n, int nW, const DmWord *aWeight, int *aMate,
                           DmWord *aDual, int *aInBlossom,
                           TbProbe *pProbe);

#endif /* TIEBREAK_DUTCH_MATCHING_H */
