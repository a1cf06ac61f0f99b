/*
 * Perft body, included once per code path by perft.c with
 *   PF_(name)      the name of a function for this path (suffix added)
 *   PF_ATTR        function attributes (a target("...") for SIMD paths)
 *   PF_MOVES(P,O)  legal-move bitboard
 *   PF_FLIPS(P,O,sq) flipped discs
 * so the whole recursion is compiled for one instruction set and the CPU
 * dispatch happens once per rv_reversi_perft() call, never per node.
 */

/* The last ply, bulk counted: a node one ply above the leaves has as many
 * leaves as moves; with none it passes (one leaf) or the game is over. */
static PF_ATTR inline uint64_t PF_(last)(uint64_t P, uint64_t O, uint64_t alive_only) {
    uint64_t m = PF_MOVES(P, O);
    if (m) return (uint64_t)rv_bb_count(m);
    if (PF_MOVES(O, P)) return 1;
    return 1 - alive_only;
}

/* Two plies above the leaves: counts each child's moves without recursion. */
static PF_ATTR uint64_t PF_(two)(uint64_t P, uint64_t O, uint64_t moves, uint64_t alive_only) {
    uint64_t n = 0;
    do {
        int sq = rv_bb_first(moves);
        moves &= moves - 1;
        uint64_t f = PF_FLIPS(P, O, sq);
        uint64_t np = O & ~f, no = P | f | (1ULL << sq);
        uint64_t m = PF_MOVES(np, no);
        if (m) n += (uint64_t)rv_bb_count(m);
        else if (PF_MOVES(no, np)) n += 1;
        else n += 1 - alive_only;
    } while (moves);
    return n;
}

static PF_ATTR uint64_t PF_(rec)(uint64_t P, uint64_t O, int depth, uint64_t alive_only) {
    uint64_t moves = PF_MOVES(P, O);
    if (moves == 0) {
        /* A pass is one ply; with no move for either side the game is over. */
        if (PF_MOVES(O, P) == 0) return 1 - alive_only;
        if (depth == 1) return 1;
        if (depth == 2) return PF_(last)(O, P, alive_only);
        return PF_(rec)(O, P, depth - 1, alive_only);
    }
    if (depth == 1) return (uint64_t)rv_bb_count(moves);
    if (depth == 2) return PF_(two)(P, O, moves, alive_only);
    uint64_t n = 0;
    do {
        int sq = rv_bb_first(moves);
        moves &= moves - 1;
        uint64_t f = PF_FLIPS(P, O, sq);
        n += PF_(rec)(O & ~f, P | f | (1ULL << sq), depth - 1, alive_only);
    } while (moves);
    return n;
}

static PF_ATTR uint64_t PF_(root)(uint64_t P, uint64_t O, int depth, uint64_t alive_only) {
    if (depth <= 0) return 1;
    return PF_(rec)(P, O, depth, alive_only);
}
