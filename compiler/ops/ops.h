/* ops.h — the op table: everything mc knows about an op, in one row.
 *
 * A row names the op (`aten::add`), gives its schema and one-line meaning, its effect class
 * (what alias analysis, functionalize and DCE rely on), its arity, its functional twin for an
 * in-place op, and its kernel (compiler/ops/k_*.h) — which is at once the reference
 * implementation, the dtype/shape rule (the kernel run in meta mode) and, pasted into generated
 * C, the code that runs there. Rows live in one file per op family (ops_<family>.c); ops.c
 * gathers them. Adding an op = one row + its kernel + its tests.
 *
 * Prefix: ops_.
 */
#ifndef MC_OPS_H
#define MC_OPS_H

#include "../ir/ir.h"
#include "mck.h"

typedef enum OpEffect {
  EFF_PURE,    /* reads its inputs, writes only fresh outputs */
  EFF_VIEW,    /* output 0 shares storage with input `effect_arg` (slice, view, transpose...) */
  EFF_WRITE,   /* writes input `effect_arg`; output 0 (if any) is that same tensor (add_, copy_) */
  EFF_EXTERN,  /* an effect outside the graph (print, raise, warn, SetAttr): never removed */
  EFF_CONTROL, /* prim::If / prim::Loop: effects are those of the nested blocks */
} OpEffect;

enum {
  OPF_NONE = 0,
  OPF_STRUCTURAL = 1 << 0,  /* no kernel: the passes / emitter handle it (Constant, If, Loop) */
  OPF_SCALAR = 1 << 1,      /* operates on scalars only (int/float/bool arithmetic) */
  OPF_MAYBE_VIEW = 1 << 2,  /* reshape/flatten/contiguous: a view when strides allow, else a
                               copy; the kernel decides from the input's strides */
  OPF_NONDET = 1 << 3,      /* random: never folded or merged */
  OPF_ALLOC_LIKE = 1 << 4,  /* creates a tensor from scalars only (zeros, ones, full, arange) */
  OPF_SHAPE_ONLY = 1 << 5,  /* scalar result depends only on input shapes (size, dim, numel):
                               the kernel computes it in meta mode and infer folds it */
  OPF_COMPLEX_OUT = 1 << 6, /* result 0 is a complex value, written as real [..., 2] pairs (mc
                               has no complex dtype); with OPF_COMPLEX_ASKED only when the last
                               input of a full call (return_complex) is not False / None */
  OPF_COMPLEX_ASKED = 1 << 7,
  OPF_COMPLEX_IN = 1 << 8,  /* input 0 must be a complex value (OPF_COMPLEX_OUT); the only
                               rows that may use one. An op X with a row mc::complex_X becomes
                               that row on a complex input (aten::abs -> mc::complex_abs) */
  OPF_CONTIGUOUS_OUT = 1 << 9, /* result 0 is contiguous whatever its inputs' layout: PyTorch
                                  allocates it so (the matrix products, embedding); other pure
                                  results follow their inputs' layout (TensorIterator) */
  OPF_CONTIGUOUS_LOW_RANK = 1 << 10, /* result 0 is contiguous when every tensor input of rank
                                  >= 3 is (convolutions, cat, stack: PyTorch gives a channels-last
                                  input a channels-last result, suggest_memory_format) */
  /* Rows that return input 0 itself, the same tensor object, when a condition on their
   * arguments holds (so an in-place view op on either changes both). One flag per condition;
   * functionalize decides it at compile time (with unknowns), the interpreter at run time: */
  OPF_SELF_CAST = 1 << 11,       /* a cast to the dtype self has (to, type_as), unless a call
                                    of 5+ inputs passes copy=True (input n-2) or a memory
                                    format (input n-1) */
  OPF_SELF_CONTIGUOUS = 1 << 12, /* self is contiguous and memory_format (input 1) is absent,
                                    None or contiguous_format (0) */
  OPF_SELF_ONE_DIM = 1 << 13,    /* start_dim and end_dim (inputs 1, 2) name one dimension of a
                                    self of rank >= 1 (flatten) */
  OPF_SELF_ANY = OPF_SELF_CAST | OPF_SELF_CONTIGUOUS | OPF_SELF_ONE_DIM,
  OPF_STRIDED_OUT = 1 << 14,     /* PyTorch may give the results strides of their own even from
                                    contiguous inputs (LAPACK's column-major inverse, rot90's
                                    transpose, batch_first RNN outputs, stft, einsum's permuted
                                    products): mc does not know their layout */
  OPF_MAY_ALIAS = 1 << 15,       /* with one tensor operand (a Tensor[] of one) and input 1 not an
                                    int constant >= 0, PyTorch may return that tensor or a view of
                                    it (einsum that only permutes or takes a diagonal; diff with
                                    n < 0 returns self); mc computes a copy, so a later write to
                                    either, with the result read, is refused */
  OPF_DATA_SIZED = 1 << 16,      /* the size of result 0 may depend on the data (nonzero, masked_select,
                                    a boolean-mask index): in meta mode the kernel gives the bound and
                                    sets ctx->sized_by_data; the real call sets the real shape */
};

/* What passes and emitters need to know about a convolution-like row (OpDef.conv): which
 * inputs are the weight, the bias and the groups, whether it is transposed, and what the
 * passes may do with it. */
typedef struct OpConv {
  int weight, bias, groups; /* input indices */
  int transposed;           /* 0: never; 1: always; 2: input transposed_arg holds the flag */
  int transposed_arg;
  bool fold_bn;             /* fold_bn may fold an inference batch_norm into weight and bias */
  bool prepack;             /* the emitter may prepack the weight in the GEMM's panels */
  /* fuse: mc::conv_act's first 7 inputs (input, weight, bias, stride, padding, dilation,
   * groups) are these inputs of the row (a defaulted one missing: None); fuse_min: inputs the
   * node needs; fuse_min 0: not fused. */
  int fused[7];
  int fuse_min;
} OpConv;

typedef struct OpDef {
  const char *name;        /* "aten::add" */
  const char *schema;      /* "(Tensor self, Tensor|Scalar other, Scalar alpha=1) -> Tensor" */
  const char *doc;         /* "out = self + alpha * other, broadcast" */
  OpEffect effect;
  int effect_arg;          /* input index for EFF_VIEW / EFF_WRITE */
  const char *functional;  /* in-place op's functional twin ("aten::add" for "aten::add_") */
  int min_inputs, max_inputs; /* max -1: variadic */
  int flags;               /* OPF_* */
  mck_fn kernel;           /* NULL for structural ops */
  const char *kernel_name; /* the kernel's C name in generated code */
  const OpConv *conv;      /* convolution-like rows (OPDEF_CONV), else NULL */
} OpDef;

/* A row, in the op-family files:
 *   OPDEF("aten::add", mck_add, EFF_PURE, 0, NULL, 2, 3, 0,
 *         "(Tensor self, Tensor|Scalar other, Scalar alpha=1) -> Tensor",
 *         "out = self + alpha * other, broadcast"),
 */
#define OPDEF(name, kern, eff, earg, func, nmin, nmax, flags, schema, doc)                       \
  { name, schema, doc, eff, earg, func, nmin, nmax, flags, kern, #kern, NULL }
#define OPDEF_STRUCT(name, eff, nmin, nmax, schema, doc)                                        \
  { name, schema, doc, eff, 0, NULL, nmin, nmax, OPF_STRUCTURAL, NULL, NULL, NULL }
/* A pure convolution-like row with its descriptor (a const OpConv). */
#define OPDEF_CONV(name, kern, nmin, nmax, conv, schema, doc)                                   \
  { name, schema, doc, EFF_PURE, 0, NULL, nmin, nmax, OPF_CONTIGUOUS_LOW_RANK, kern, #kern, &(conv) }

/* One table per family, defined in ops_<family>.c. A family's kernels are in one or more
 * k_*.h headers; generated C gets every header (Makefile KERNEL_HDRS, in paste order). */
typedef struct OpFamily {
  const char *name;         /* "elementwise" */
  const OpDef *rows;
  int nrows;
} OpFamily;

extern const OpFamily ops_family_prim, ops_family_elementwise, ops_family_reduce,
    ops_family_linalg, ops_family_shape, ops_family_conv, ops_family_math, ops_family_index,
    ops_family_sample, ops_family_loss, ops_family_rnn, ops_family_spectral;

const OpDef *ops_lookup(const char *name);          /* NULL if unknown */
/* The row ops_resolve gives an op it does not know inside a prim::If branch (PyTorch's fast
 * paths: a branch infer may drop when its condition folds): an external effect, no kernel;
 * infer reports the op as unsupported if it reaches it. */
extern const OpDef ops_unknown_in_branch;
const OpFamily *ops_family_of(const OpDef *op);
int ops_count(void);
const OpDef *ops_at(int i);                         /* sorted by name */

/* Resolves every node's `op` (recursively). Reports unknown ops (with the PyTorch location as a
 * note) and arity errors; returns the error count. */
int ops_resolve(Graph *g, Diag *d);
/* The complex-value check (ops_spectral.c), run by ops_resolve, read from the rows' flags: a
 * complex value (a result of an OPF_COMPLEX_OUT row: real [..., 2] pairs in mc) is used only by
 * OPF_COMPLEX_IN rows (input 0), an op with a row mc::complex_<name> becomes that row on it, and
 * an OPF_COMPLEX_IN row refuses any other input. Returns the error count. */
int ops_complex_check(Graph *g, Diag *d);
/* Whether the schema declares input i as a plain `Tensor` (kernels take it as a tensor
 * without checking; a scalar there is a type error to report first). */
bool ops_param_is_tensor(const OpDef *op, int i);
/* Whether the schema declares result k as a plain `Tensor` (kernels write it as one). */
bool ops_result_is_tensor(const OpDef *op, int k);

/* One overload of a row's schema. A schema lists its overloads at top level as
 * "(P) -> R | (P) -> R", "(P) | (P) -> R" (one result for all) or "(P) -> R, or (P) -> R". */
enum { OPS_MAX_PARAMS = 24 };
typedef struct OpParam {
  char type[48];  /* "Tensor", "int[]?", "Tensor|Scalar" */
  bool optional;  /* has a default, is "name?" or sits in an optional "[...]" group */
  bool takes_none; /* an optional type ("int?"), a None default, or a generic (T, Any) */
} OpParam;
typedef struct OpSig {
  char text[512];   /* the overload, with its result: "(Tensor self, int dim) -> (Tensor, Tensor)" */
  int nparams;      /* positional parameters (keyword-only ones included: graphs pass them too) */
  int min_inputs;   /* through the last parameter that is not optional */
  bool variadic;    /* takes any number of inputs ("...", or a list mc does not parse) */
  bool groups;      /* has optional "[...]" groups: the positions after one are not fixed */
  int noutputs;     /* -1: variadic or not stated */
  OpParam params[OPS_MAX_PARAMS];
} OpSig;
int ops_overload_count(const OpDef *op);
/* Fills sig with overload k of op's schema; false if there is no such overload. */
bool ops_overload(const OpDef *op, int k, OpSig *sig);
/* The overload of op that node n calls: the first whose arity, output count and parameter types
 * fit n's inputs and outputs; -1 if none. */
int ops_match(const OpDef *op, const Node *n);
/* ops_param_is_tensor / ops_result_is_tensor for the overload node n (resolved) calls. */
bool ops_node_param_is_tensor(const Node *n, int i);
bool ops_node_result_is_tensor(const Node *n, int k);

/* Kernel sources for generated code: mck.h and every family's header, in dependency order.
 * Generated by the build from the headers themselves (build/gen/kernel_src.c). */
typedef struct KernelSource {
  const char *name; /* "mck.h", "k_elementwise.h" */
  const char *text;
} KernelSource;
extern const KernelSource mc_kernel_sources[];
extern const int mc_kernel_nsources;

#endif
