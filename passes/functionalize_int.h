/* functionalize_int.h — the functionalize pass's own state and helpers, shared by its files
 * (not an interface: pass.h declares the pass). functionalize.c walks the graph, tracks
 * storages and their members, and handles control flow; functionalize_write.c rewrites one
 * in-place write into its functional form (the inverses of the view chain). Prefix: fz_. */
#ifndef MC_FUNCTIONALIZE_INT_H
#define MC_FUNCTIONALIZE_INT_H

#include "pass.h"
#include "ops/ops.h"

typedef struct Storage Storage;

typedef struct Member {
  Value *v;
  Storage *s;
  int nsteps;
  Node **steps; /* view nodes from the root outward; only their kind and non-base inputs count */
} Member;

typedef struct Container { /* a list or tuple construct holding members of a storage */
  Node *n;
} Container;

struct Storage {
  Value *root;     /* the value the storage began as */
  Value *cur;      /* its current value */
  bool written;
  bool ambiguous;  /* a block output that may alias storages in `maybe` (or any: nmaybe < 0) */
  Storage **maybe;
  int nmaybe;
  Member **members;
  int nmembers, capmembers;
  Node **containers;
  int ncontainers, capcontainers;
  Storage *next;
};

typedef struct Fz {
  Graph *g;
  PassCtx *c;
  Arena *ar; /* scratch, freed at the end */
  Storage *stores;
  int errs;
} Fz;

/* What branch k of a prim::If returns as output o, when that is (a view of) a tensor from
 * outside the If: the outer tensor's member and the view steps taken inside the branch. */
typedef struct Cand {
  Member *m;   /* NULL: the branch returns a fresh tensor */
  Node **steps;
  int nsteps;
} Cand;

/* functionalize.c */
const OpDef *fz_op_of(const Node *n);
void fz_error(Fz *F, const Node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool fz_is_tensor(const Value *v);
bool fz_is_write(const Node *n);
bool fz_is_view(const Node *n);
bool fz_used_after(const Value *v, const Node *pos);
Value *fz_cint(Fz *F, Node *at, int64_t x);
Value *fz_cnone(Fz *F, Node *at);
Value *fz_cints(Fz *F, Node *at, const int64_t *xs, int n);
Value *fz_emit(Fz *F, Node *at, const char *kind, Value **ins, int nin);
Value *fz_replay(Fz *F, Node *at, const Node *step, Value *base);
bool fz_same_shape(const Type *a, const Type *b);
Value *fz_conform(Fz *F, Node *at, Value *v, Value *like);
bool fz_compact(const Type *t);
Member *fz_member_add(Fz *F, Storage *s, Value *v, Node **steps, int nsteps);
Member *fz_member_of(Fz *F, Value *v);
void fz_container_add(Fz *F, Storage *s, Node *n);

/* functionalize_write.c */
bool fz_step_invertible(Fz *F, Node *at, const Node *st);
bool fz_defined_inside(const Value *v, const Node *blocknode);
bool fz_if_candidates(Fz *F, Node *n, Storage *s, Cand *c);
bool fz_ambiguous_alias(Fz *F, Storage *s, Node *at, const Storage *skip);
void fz_rewrite_write(Fz *F, Node *n);

#endif
