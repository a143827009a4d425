/* ir.h — the graph IR every part of mc shares: arena, diagnostics, types, values, nodes,
 * blocks, graphs, and the printer and verifier.
 *
 * The IR is shaped like TorchScript's. A Graph owns one top Block; a Block has parameter values,
 * an ordered doubly linked list of Nodes, and return values. A Node has a kind ("aten::add"),
 * input values, output values, named attributes (prim::Constant's `value`, prim::GetAttr's
 * `name`) and nested blocks (prim::If, prim::Loop). Every value has exactly one definition: a
 * node output or a block parameter (SSA). Before `functionalize` the IR has reference semantics
 * (views share storage, `*_` ops write it); after it, value semantics except `mc::write_back`.
 *
 * Memory: everything reachable from a Graph is allocated from its Arena and freed at once with
 * ir_graph_free(). Nobody frees a node or value on its own.
 *
 * Prefixes: arena_ (arena.c), diag_ (diag.c), ir_ (ir.c), ir_type_ (type.c), ir_print_
 * (print.c), ir_verify (verify.c).
 */
#ifndef MC_IR_H
#define MC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IR_MAX_DIMS 8 /* tensors of higher rank are rejected with a diagnostic */
/* Graph inputs and graph outputs, each: more are refused by the frontends and the verifier
 * (every one costs a binding in the generated C and the header; no model has this many). */
#define IR_MAX_GRAPH_IO 65536

/* ---- arena.c ------------------------------------------------------------------------- */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);   /* zeroed, 16-byte aligned; aborts only on OOM */
void *arena_memdup(Arena *a, const void *p, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t arena_bytes(const Arena *a); /* total bytes handed out */
/* A point in an arena's history: arena_release(a, m) takes back everything allocated after
 * arena_mark returned m (scratch memory of one step of a pass); marks nest, innermost first. */
typedef struct ArenaMark {
  void *chunk;
  size_t used, total;
} ArenaMark;
ArenaMark arena_mark(const Arena *a);
void arena_release(Arena *a, ArenaMark m);

/* ---- diag.c: GCC-style diagnostics pointing into the user's text ------------------------ */
typedef struct SrcLoc {
  const char *file; /* path as given on the command line; NULL = unknown */
  int line, col;    /* 1-based; 0 = unknown */
} SrcLoc;

/* A source file kept in memory so diagnostics can print the offending line with a caret. */
typedef struct SrcFile {
  const char *path;
  const char *text;
  size_t len;
} SrcFile;

typedef struct Diag {
  int nerrors, nwarnings;
  int max_errors;        /* stop reporting after this many (default 20) */
  FILE *out;             /* default stderr */
  const SrcFile *files[16];
  int nfiles;
} Diag;

void diag_init(Diag *d);
void diag_add_file(Diag *d, const SrcFile *f); /* lets the printer show source lines */
/* Prints "FILE:LINE:COL: error: MSG", the source line and a caret. */
void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "FILE:LINE:COL: note: MSG" without a source line (e.g. the PyTorch location "t.py:15:0"). */
void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_verror(Diag *d, SrcLoc loc, const char *fmt, va_list ap);

/* ---- types (type.c) --------------------------------------------------------------------- */
/* Element types. The numeric codes are shared with the kernel library (MCK_* in mck.h). */
typedef enum DType {
  DT_UNDEF = -1,
  DT_F32 = 0, DT_F64, DT_F16, DT_BF16, DT_I64, DT_I32, DT_I16, DT_I8, DT_U8, DT_BOOL,
  DT_COUNT
} DType;

const char *ir_dtype_torch_name(DType t); /* "Float", "Long", ... as in TorchScript types */
const char *ir_dtype_name(DType t);       /* "float32", "int64", ... */
DType ir_dtype_from_torch_name(const char *s); /* "Float" -> DT_F32; DT_UNDEF if unknown */
DType ir_dtype_from_name(const char *s);       /* "float32" -> DT_F32 */
DType ir_dtype_from_scalar_type(int64_t code); /* c10::ScalarType code (6 = Float) */
int64_t ir_dtype_to_scalar_type(DType t);
size_t ir_dtype_size(DType t);
bool ir_dtype_is_float(DType t);

typedef enum TypeKind {
  TY_TENSOR, TY_INT, TY_FLOAT, TY_BOOL, TY_NONE, TY_STR, TY_DEVICE, TY_NUMBER /* Scalar */,
  TY_LIST, TY_TUPLE, TY_OPTIONAL, TY_CLASS /* __torch__.M and other objects */,
  TY_LAYOUT, TY_SCALARTYPE, TY_MEMFORMAT, TY_ANY
} TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  /* TY_TENSOR. A bare `Tensor` has dtype DT_UNDEF and ndim -1. */
  DType dtype;
  int ndim;                      /* -1 = unknown rank */
  int64_t shape[IR_MAX_DIMS];    /* -1 = unknown extent */
  int64_t strides[IR_MAX_DIMS];  /* valid when has_strides */
  bool has_strides;
  int requires_grad;             /* -1 unknown, 0, 1 */
  const char *device;            /* "cpu", "cuda:0"; NULL unknown */
  /* TY_LIST, TY_OPTIONAL: element. TY_TUPLE: elems. */
  Type *elem;
  Type **elems;
  int nelems;
  const char *name; /* TY_CLASS: qualified name */
};

Type *ir_type_new(Arena *a, TypeKind k);
Type *ir_type_tensor(Arena *a, DType dt, int ndim, const int64_t *shape); /* contiguous strides */
Type *ir_type_copy(Arena *a, const Type *t);
bool ir_type_equal(const Type *x, const Type *y);
bool ir_type_is_complete_tensor(const Type *t); /* dtype and every extent known */
int64_t ir_type_numel(const Type *t);           /* -1 if unknown or overflow */
void ir_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
/* Prints in TorchScript's syntax: Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu). */
void ir_type_print(FILE *f, const Type *t);
char *ir_type_str(Arena *a, const Type *t);

/* ---- tensors held by constants ---------------------------------------------------------- */
typedef struct IrTensor {
  DType dtype;
  int ndim;
  int64_t shape[IR_MAX_DIMS];
  void *data;          /* contiguous, row-major; NULL when the data is not known (<Tensor>) */
  size_t nbytes;
  bool lossy;          /* parsed from PyTorch's abbreviated print form */
} IrTensor;

/* ---- attributes -------------------------------------------------------------------------- */
typedef enum AttrKind {
  ATTR_INT, ATTR_FLOAT, ATTR_BOOL, ATTR_STR, ATTR_NONE, ATTR_TENSOR, ATTR_INTS, ATTR_FLOATS,
  ATTR_BOOLS, ATTR_STRS, ATTR_DEVICE
} AttrKind;

typedef struct Attr {
  const char *name; /* "value", "name" */
  AttrKind kind;
  int64_t i;        /* ATTR_INT, ATTR_BOOL */
  double f;         /* ATTR_FLOAT */
  const char *s;    /* ATTR_STR, ATTR_DEVICE */
  IrTensor *t;      /* ATTR_TENSOR */
  int64_t *ints;    /* ATTR_INTS, ATTR_BOOLS */
  double *floats;   /* ATTR_FLOATS */
  const char **strs;
  int n;            /* length of a list attribute */
} Attr;

/* ---- values, nodes, blocks, graphs ------------------------------------------------------- */
typedef struct Node Node;
typedef struct Block Block;
typedef struct Graph Graph;

typedef struct Value {
  int id;            /* unique within the graph; creation order */
  const char *name;  /* debug name without '%' ("x", "self.fc.weight", "28"); unique in graph */
  Type *type;
  Node *def;         /* defining node; NULL for a block parameter */
  Block *param_of;   /* the block whose parameter this is, if def == NULL */
  int index;         /* output index in def, or parameter index */
  SrcLoc loc;
  void *aux;         /* scratch for the pass that is running; passes reset it */
} Value;

struct Node {
  const char *kind;  /* "aten::add"; interned per graph is not required: compare with strcmp */
  const void *op;    /* resolved op-table row (const OpDef *), set by ops_resolve(); NULL before */
  Value **inputs;
  Value **outputs;
  Attr *attrs;
  Block **blocks;
  int ninputs, noutputs, nattrs, nblocks; /* together: no padding after each */
  Node *prev, *next;
  Block *owner;
  SrcLoc loc;          /* in the graph dump */
  const char *py_loc;  /* PyTorch source location "file.py:12:8" from the '#' comment, or NULL */
  const char *scope;   /* ", scope: __module.fc" text, or NULL */
  void *aux;           /* scratch for the pass that is running */
  int id;              /* creation order; stable */
  Graph *graph;
};

struct Block {
  Value **params;
  int nparams;
  Node *first, *last;
  Value **rets;
  int nrets;
  Node *owner;  /* NULL for the graph's top block */
  Graph *graph;
  SrcLoc loc;
};

struct Graph {
  Arena *arena;
  Block *top;          /* top->params are the graph inputs (including %self if present) */
  int next_value_id, next_node_id;
  const char *path;    /* the file it was read from */
  SrcLoc loc;
  bool has_self;       /* top->params[0] is the module (%self) */
  /* For a graph read from an exporter's JSON: the names of the flattened outputs (`out.logits`,
   * the generated model's output names), nret_names of them; NULL when the file has none. */
  const char **ret_names;
  int nret_names;
  struct NameSet *names; /* value name -> Value, for unique naming and lookup */
  struct UseIndex *uses; /* use count per value id, built on demand (ir_count_uses) */
  struct TypeSet *types; /* shared types (ir_type_shared, ir_type_scalar) */
  struct IrDim *dims;  /* dynamic extents of the graph inputs (docs/dynamic.md); ndims of them */
  int ndims;
  /* Set by infer: a node's result has a size that depends on the data (nonzero, masked_select,
   * a boolean-mask index; OPF_DATA_SIZED rows), so the graph is compiled as a dynamic one even
   * without Dims (ir_graph_is_dynamic). */
  bool sized_by_data;
  SrcLoc sized_loc;            /* ... the first such node's location, kind and Python location */
  const char *sized_kind, *sized_py;
};

/* Whether g has run-time shapes: Dims on its inputs, or results sized by the data. */
static inline bool ir_graph_is_dynamic(const struct Graph *g) { return g->ndims > 0 || g->sized_by_data; }

/* A graph input extent that varies at run time: extent `axis` of graph input `value` follows the Dim `name`, any size in [min, max]; extents sharing a name are one size. The
 * parameter's type holds the example's extent. */
typedef struct IrDim {
  const char *name;
  int64_t min, max;
  struct Value *value; /* the graph input (a top-block parameter) */
  int axis;
} IrDim;

Graph *ir_graph_new(const char *path);
void ir_graph_free(Graph *g);

/* Shared types, so that a million values of one type hold one Type: the graph's copy of tensor
 * type t (kind TY_TENSOR without elem/elems/name; other types are copied unshared), and the one
 * Type of a scalar kind (TY_INT, TY_FLOAT, TY_BOOL, TY_NONE, TY_STR, TY_DEVICE). A shared type
 * is never modified: give a value a new type instead. */
Type *ir_type_shared(Graph *g, const Type *t);
Type *ir_type_scalar(Graph *g, TypeKind k);

/* A fresh value. `name` NULL gives a numbered name; a name already taken gets a ".N" suffix
 * (as TorchScript does), so names stay unique. */
Value *ir_value_new(Graph *g, Type *t, const char *name);
Value *ir_find_value(const Graph *g, const char *name); /* NULL if no value has that name */
bool ir_name_taken(const Graph *g, const char *name);
/* Whether the graph's name set gives x's name to x. Names never change after ir_value_new, so once
 * ir_verify has found every value below some id owning its name, ir_names_checked records that
 * and those values are answered without a lookup (the set is the graph's cache, hence const). */
bool ir_value_owns_name(const Graph *g, const Value *x);
void ir_names_checked(const Graph *g, int below_id);
Value *ir_block_add_param(Block *b, Type *t, const char *name);
Block *ir_block_new(Graph *g, Node *owner);
void ir_block_add_ret(Block *b, Value *v);

/* Creates a node (not yet in any block) with the given inputs and `nout` fresh outputs of the
 * given types (types may be NULL -> an unknown Tensor type). */
Node *ir_node_new(Graph *g, const char *kind, Value **inputs, int nin, int nout, Type **types);
void ir_node_add_input(Node *n, Value *v);
void ir_node_set_input(Node *n, int i, Value *v);
Value *ir_node_add_output(Node *n, Type *t, const char *name);
Block *ir_node_add_block(Node *n);
Attr *ir_node_add_attr(Node *n, const char *name, AttrKind k);
const Attr *ir_node_attr(const Node *n, const char *name);

void ir_append(Block *b, Node *n);          /* at the end of b */
void ir_insert_before(Node *pos, Node *n);
void ir_insert_after(Node *pos, Node *n);
void ir_remove(Node *n);                    /* unlink (still allocated) */

/* Replaces every use of `from` by `to` in nodes and block returns. If `after` is non-NULL only
 * uses by nodes after `after` (in program order, including nested blocks of later nodes) and
 * uses in returns of blocks that enclose or follow it change. Returns the number replaced. */
int ir_replace_uses(Graph *g, Value *from, Value *to, Node *after);
/* Uses of v by linked nodes (nested blocks included) and block returns reachable from the top
 * block. Counts are computed once for the whole graph and then kept current by every editing
 * function above; code that writes inputs or returns arrays directly calls ir_uses_invalidate.
 * ir_uses_check recomputes them and says whether the kept counts agree (pm_run checks after
 * each pass when verifying). */
int ir_count_uses(const Graph *g, const Value *v);
void ir_uses_invalidate(Graph *g);
bool ir_uses_check(const Graph *g);
bool ir_node_is(const Node *n, const char *kind);

/* Iterates every node of a block and, depth first, its nested blocks, in program order. */
typedef bool (*ir_node_fn)(Node *n, void *ctx); /* return false to stop */
bool ir_walk(Block *b, ir_node_fn fn, void *ctx);

/* Convenience for prim::Constant nodes. */
bool ir_is_constant(const Value *v);
const Attr *ir_constant_attr(const Value *v);   /* the `value` attribute, NULL for None */
bool ir_constant_int(const Value *v, int64_t *out);   /* int or bool constant */
bool ir_constant_float(const Value *v, double *out);  /* float or int constant */
bool ir_constant_is_none(const Value *v);
Node *ir_make_constant_int(Graph *g, int64_t x, SrcLoc loc);
Node *ir_make_constant_float(Graph *g, double x, SrcLoc loc);
Node *ir_make_constant_bool(Graph *g, bool x, SrcLoc loc);
Node *ir_make_constant_none(Graph *g, SrcLoc loc);
Node *ir_make_constant_ints(Graph *g, const int64_t *xs, int n, SrcLoc loc);
Node *ir_make_constant_tensor(Graph *g, IrTensor *t, SrcLoc loc);

/* ---- print.c: the text syntax the TorchScript frontend reads back ----------------------- */
typedef struct PrintOpts {
  bool locations;      /* append "# py_loc" comments (default true) */
  bool tensor_data;    /* print small constant tensors' values inline (default false) */
} PrintOpts;
void ir_print_graph(FILE *f, const Graph *g, const PrintOpts *o); /* o may be NULL */

/* ---- verify.c ---------------------------------------------------------------------------- */
/* Checks SSA (defined before use, single definition, unique names), block structure, node
 * ownership and basic type consistency. Reports through `d` and returns the error count. */
int ir_verify(const Graph *g, Diag *d, const char *when);

#endif
