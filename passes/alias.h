/* alias.h — alias analysis over the reference-semantics IR (PyTorch's AliasDb, simplified).
 *
 * Every value that can hold storage (tensors, lists, tuples, optionals, objects) gets a set of
 * abstract locations it may point to:
 *   - location 0 is the wildcard W: "something we lost track of" (an element taken out of a
 *     container, the result of an unknown or external op, a graph input that is a container);
 *     two sets that both contain W may alias;
 *   - every graph input, every constant and every fresh allocation (a pure op's tensor output,
 *     a ListConstruct) has a location of its own;
 *   - a view (EFF_VIEW) and an in-place op's result (EFF_WRITE) have their base's set; a
 *     maybe-view (reshape, flatten, contiguous: OPF_MAYBE_VIEW) has its base's set plus a fresh
 *     location, since it is a view or a copy depending on strides;
 *   - a container holds its own location plus its elements' sets; what is put into a container
 *     gets W, and what is taken out of one gets the container's set plus W;
 *   - prim::If outputs are the union of the blocks' returns; prim::Loop carried values the union
 *     of the initial values and the body's returns (computed to a fixpoint).
 * Sets over-approximate: two values whose sets are disjoint never share storage at run time.
 *
 * A node reads every input's set (and, for prim::If / prim::Loop, what its blocks read) and
 * writes the set of input `effect_arg` for EFF_WRITE ops (and, for control flow, what its blocks
 * write). EFF_EXTERN ops, unknown ops and ops with blocks other than If/Loop have an external
 * effect: they are never removed and nothing moves across them.
 *
 * The database describes the graph as it was when analysed; values created afterwards answer
 * with the full set (may alias anything). Prefix: alias_.
 */
#ifndef MC_ALIAS_H
#define MC_ALIAS_H

#include "ir/ir.h"

typedef struct AliasDb AliasDb;

AliasDb *alias_analyze(Graph *g); /* caller frees with alias_free */
void alias_free(AliasDb *a);

bool alias_holds_storage(const Type *t);
int alias_words(const AliasDb *a); /* uint64_t words per location set */
int alias_nlocs(const AliasDb *a);
/* v's location set (alias_words words); an empty set for scalars. */
const uint64_t *alias_set(const AliasDb *a, const Value *v);
bool alias_may_alias(const AliasDb *a, const Value *x, const Value *y);
/* Whether v may share storage with a graph input or a graph output. */
bool alias_may_alias_io(const AliasDb *a, const Value *v);

/* OR a node's read / written locations (nested blocks included) into acc. */
void alias_node_reads(const AliasDb *a, const Node *n, uint64_t *acc);
void alias_node_writes(const AliasDb *a, const Node *n, uint64_t *acc);
bool alias_node_writes_any(const Node *n);  /* writes something (nested blocks included) */
bool alias_node_is_extern(const Node *n);   /* has an effect outside the graph (recursive) */
/* Whether x and y may not be reordered: either has an external effect, or one writes what the
 * other reads or writes. */
bool alias_nodes_conflict(const AliasDb *a, const Node *x, const Node *y);

bool alias_sets_intersect(const uint64_t *x, const uint64_t *y, int words);
/* Prints each storage value's set ("%x: {in:x, W}"), for tests and debugging. */
void alias_dump(FILE *f, const AliasDb *a);

#endif
