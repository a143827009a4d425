/* type.c — element types and value types: names, constructors, comparison, and printing in
 * TorchScript's syntax. Printing rules (the TorchScript frontend parses them back):
 *   unknown tensor            Tensor
 *   dtype and shape known     Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)
 *   0-dim                     Long(requires_grad=0, device=cpu)
 *   unknown extent            Float(*, 3)            (an unknown extent prints as *)
 *   dtype known, rank unknown Float(*)... is not produced: rank unknown prints as Tensor
 * strides=, requires_grad= and device= are printed only when known. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *torch, *name;
  size_t size;
  int64_t scalar_type; /* c10::ScalarType */
} dtypes[DT_COUNT] = {
    [DT_F32] = {"Float", "float32", 4, 6},  [DT_F64] = {"Double", "float64", 8, 7},
    [DT_F16] = {"Half", "float16", 2, 5},   [DT_BF16] = {"BFloat16", "bfloat16", 2, 15},
    [DT_I64] = {"Long", "int64", 8, 4},     [DT_I32] = {"Int", "int32", 4, 3},
    [DT_I16] = {"Short", "int16", 2, 2},    [DT_I8] = {"Char", "int8", 1, 1},
    [DT_U8] = {"Byte", "uint8", 1, 0},      [DT_BOOL] = {"Bool", "bool", 1, 11},
};

const char *ir_dtype_torch_name(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].torch : "Tensor"; }
const char *ir_dtype_name(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].name : "undefined"; }
size_t ir_dtype_size(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].size : 0; }
bool ir_dtype_is_float(DType t) { return t == DT_F32 || t == DT_F64 || t == DT_F16 || t == DT_BF16; }

DType ir_dtype_from_torch_name(const char *s) {
  for (int i = 0; i < DT_COUNT; i++)
    if (strcmp(s, dtypes[i].torch) == 0) return (DType)i;
  return DT_UNDEF;
}
DType ir_dtype_from_name(const char *s) {
  for (int i = 0; i < DT_COUNT; i++)
    if (strcmp(s, dtypes[i].name) == 0) return (DType)i;
  return DT_UNDEF;
}
DType ir_dtype_from_scalar_type(int64_t code) {
  for (int i = 0; i < DT_COUNT; i++)
    if (dtypes[i].scalar_type == code) return (DType)i;
  return DT_UNDEF;
}
int64_t ir_dtype_to_scalar_type(DType t) { return t >= 0 && t < DT_COUNT ? dtypes[t].scalar_type : -1; }

Type *ir_type_new(Arena *a, TypeKind k) {
  Type *t = arena_alloc(a, sizeof *t);
  t->kind = k;
  t->dtype = DT_UNDEF;
  t->ndim = -1;
  t->requires_grad = -1;
  return t;
}

void ir_contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    if (__builtin_mul_overflow(s, shape[i] > 0 ? shape[i] : 1, &s)) s = INT64_MAX; /* numel overflows too */
  }
}

Type *ir_type_tensor(Arena *a, DType dt, int ndim, const int64_t *shape) {
  Type *t = ir_type_new(a, TY_TENSOR);
  t->dtype = dt;
  t->ndim = ndim;
  if (ndim >= 0) {
    for (int i = 0; i < ndim; i++) t->shape[i] = shape[i];
    ir_contiguous_strides(ndim, t->shape, t->strides);
    t->has_strides = true;
  }
  return t;
}

Type *ir_type_copy(Arena *a, const Type *t) {
  Type *c = arena_memdup(a, t, sizeof *t);
  if (t->elem) c->elem = ir_type_copy(a, t->elem);
  if (t->nelems) {
    c->elems = arena_alloc(a, sizeof(Type *) * (size_t)t->nelems);
    for (int i = 0; i < t->nelems; i++) c->elems[i] = ir_type_copy(a, t->elems[i]);
  }
  return c;
}

bool ir_type_equal(const Type *x, const Type *y) {
  if (x == y) return true;
  if (!x || !y || x->kind != y->kind) return false;
  switch (x->kind) {
  case TY_TENSOR:
    if (x->dtype != y->dtype || x->ndim != y->ndim) return false;
    for (int i = 0; i < x->ndim; i++)
      if (x->shape[i] != y->shape[i]) return false;
    return true;
  case TY_LIST:
  case TY_OPTIONAL: return ir_type_equal(x->elem, y->elem);
  case TY_TUPLE:
    if (x->nelems != y->nelems) return false;
    for (int i = 0; i < x->nelems; i++)
      if (!ir_type_equal(x->elems[i], y->elems[i])) return false;
    return true;
  case TY_CLASS: return x->name && y->name && strcmp(x->name, y->name) == 0;
  default: return true;
  }
}

bool ir_type_is_complete_tensor(const Type *t) {
  if (!t || t->kind != TY_TENSOR || t->dtype == DT_UNDEF || t->ndim < 0) return false;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] < 0) return false;
  return true;
}

int64_t ir_type_numel(const Type *t) {
  if (!ir_type_is_complete_tensor(t)) return -1;
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    if (__builtin_mul_overflow(n, t->shape[i], &n)) return -1;
  return n;
}

void ir_type_print(FILE *f, const Type *t) {
  if (!t) {
    fputs("Tensor", f);
    return;
  }
  switch (t->kind) {
  case TY_TENSOR: {
    if (t->dtype == DT_UNDEF || t->ndim < 0) {
      fputs("Tensor", f);
      return;
    }
    fprintf(f, "%s(", ir_dtype_torch_name(t->dtype));
    const char *sep = "";
    for (int i = 0; i < t->ndim; i++, sep = ", ") {
      if (t->shape[i] < 0) fprintf(f, "%s*", sep);
      else fprintf(f, "%s%lld", sep, (long long)t->shape[i]);
    }
    if (t->has_strides && t->ndim > 0) {
      fprintf(f, "%sstrides=[", sep);
      for (int i = 0; i < t->ndim; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)t->strides[i]);
      fputc(']', f);
      sep = ", ";
    }
    if (t->requires_grad >= 0) {
      fprintf(f, "%srequires_grad=%d", sep, t->requires_grad);
      sep = ", ";
    }
    if (t->device) fprintf(f, "%sdevice=%s", sep, t->device);
    fputc(')', f);
    return;
  }
  case TY_INT: fputs("int", f); return;
  case TY_FLOAT: fputs("float", f); return;
  case TY_BOOL: fputs("bool", f); return;
  case TY_NONE: fputs("NoneType", f); return;
  case TY_STR: fputs("str", f); return;
  case TY_DEVICE: fputs("Device", f); return;
  case TY_NUMBER: fputs("Scalar", f); return;
  case TY_LAYOUT: fputs("Layout", f); return;
  case TY_SCALARTYPE: fputs("ScalarType", f); return;
  case TY_MEMFORMAT: fputs("MemoryFormat", f); return;
  case TY_ANY: fputs("Any", f); return;
  case TY_CLASS: fputs(t->name ? t->name : "Object", f); return;
  case TY_LIST:
    ir_type_print(f, t->elem);
    fputs("[]", f);
    return;
  case TY_OPTIONAL:
    ir_type_print(f, t->elem);
    fputc('?', f);
    return;
  case TY_TUPLE:
    fputc('(', f);
    for (int i = 0; i < t->nelems; i++) {
      if (i) fputs(", ", f);
      ir_type_print(f, t->elems[i]);
    }
    fputc(')', f);
    return;
  }
}

char *ir_type_str(Arena *a, const Type *t) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return arena_strdup(a, "?");
  ir_type_print(f, t);
  fclose(f);
  char *s = arena_strdup(a, buf);
  free(buf);
  return s;
}
