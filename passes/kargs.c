/* kargs.c — kernel arguments from IR values (kargs.h). */
#include "kargs.h"

#include <string.h>

void kargs_tensor_of_type(mck_tensor *t, const Type *ty) {
  memset(t, 0, sizeof *t);
  t->dtype = ty->dtype;
  t->ndim = ty->ndim < 0 ? 0 : ty->ndim;
  for (int i = 0; i < t->ndim; i++) t->shape[i] = ty->shape[i];
  if (ty->has_strides) {
    for (int i = 0; i < t->ndim; i++) t->stride[i] = ty->strides[i];
  } else {
    mck_contiguous_strides(t);
  }
}

mck_tensor *kargs_tensor(Arena *ar, const Value *v) {
  mck_tensor *t = arena_alloc(ar, sizeof *t);
  kargs_tensor_of_type(t, v->type);
  const Attr *c = ir_constant_attr(v);
  if (c && c->kind == ATTR_TENSOR && c->t && c->t->data) {
    t->data = c->t->data;
    t->dtype = c->t->dtype;
    t->ndim = c->t->ndim;
    for (int i = 0; i < t->ndim; i++) t->shape[i] = c->t->shape[i];
    mck_contiguous_strides(t);
  }
  return t;
}

bool kargs_constant(Arena *ar, const Value *v, mck_arg *a) {
  const Attr *c = ir_constant_attr(v);
  memset(a, 0, sizeof *a);
  if (!c || c->kind == ATTR_NONE) {
    a->kind = MCK_NONE;
    return true;
  }
  switch (c->kind) {
  case ATTR_INT: a->kind = MCK_INT; a->u.i = c->i; return true;
  case ATTR_BOOL: a->kind = MCK_BOOL_ARG; a->u.i = c->i; return true;
  case ATTR_FLOAT: a->kind = MCK_FLOAT; a->u.f = c->f; return true;
  case ATTR_STR: a->kind = MCK_STR; a->u.s = c->s; return true;
  case ATTR_DEVICE: a->kind = MCK_DEVICE; a->u.s = c->s; return true;
  case ATTR_INTS: a->kind = MCK_INTS; a->n = c->n; a->u.ints = c->ints; return true;
  case ATTR_BOOLS: a->kind = MCK_BOOLS; a->n = c->n; a->u.ints = c->ints; return true;
  case ATTR_FLOATS: a->kind = MCK_FLOATS; a->n = c->n; a->u.floats = c->floats; return true;
  case ATTR_TENSOR: a->kind = MCK_TENSOR; a->u.t = kargs_tensor(ar, v); return c->t && c->t->data;
  default: a->kind = MCK_UNKNOWN; return false;
  }
}

void kargs_out(Arena *ar, const Value *v, mck_arg *a) {
  memset(a, 0, sizeof *a);
  switch (v->type->kind) {
  case TY_INT: a->kind = MCK_INT; break;
  case TY_FLOAT: a->kind = MCK_FLOAT; break;
  case TY_BOOL: a->kind = MCK_BOOL_ARG; break;
  case TY_LIST:
    if (v->type->elem && v->type->elem->kind == TY_FLOAT) {
      a->kind = MCK_FLOATS;
      a->u.floats = arena_alloc(ar, sizeof(double) * IR_MAX_DIMS * 8);
    } else {
      a->kind = MCK_INTS;
      a->u.ints = arena_alloc(ar, sizeof(int64_t) * IR_MAX_DIMS * 8);
    }
    break;
  case TY_NUMBER: a->kind = MCK_UNKNOWN; break;
  default:
    a->kind = MCK_TENSOR;
    a->u.t = arena_alloc(ar, sizeof(mck_tensor));
    memset(a->u.t, 0, sizeof(mck_tensor));
    break;
  }
}

bool kargs_give_data(Arena *ar, const OpDef *op, mck_arg *out, int nout, int64_t max_numel, uint64_t max_bytes) {
  for (int i = 0; i < nout; i++) {
    if (out[i].kind != MCK_TENSOR) continue;
    mck_tensor *t = out[i].u.t;
    int64_t numel = mck_numel(t);
    if (numel < 0 || (max_numel >= 0 && numel > max_numel)) return false;
    if ((uint64_t)numel > max_bytes / mck_dtype_size(t->dtype)) return false;
    if (t->offset == -1) t->offset = 0;
    if (!(op->flags & OPF_MAYBE_VIEW) || t->data == NULL) {
      mck_contiguous_strides(t);
      t->offset = 0;
      t->data = arena_alloc(ar, (size_t)(numel ? numel : 1) * mck_dtype_size(t->dtype));
    }
  }
  return true;
}
