/* cmd_ops.c — `mc ops`: the op table as a reference. Lists every row (sorted by name) with its
 * overloads (one line of schema each), its one-line meaning, its effect class and flags, its
 * family and what each target runs for it:
 *  - C: the row's kernel (pasted into model.c), or "structural" for rows the passes and the
 *    emitter give meaning to (constants, lists, control flow);
 *  - CUDA: "device kernel" for an op the CUDA emitter writes a device kernel for, else "host
 *    fallback" (the op's C kernel runs on the host); structural rows as for C.
 * `--format markdown` is what docs/ops.md is generated from (`make docs`); `--format json` is
 * read by tests (tests/ops/, tests/ops/kernel_cases.py). Output depends only on the table. */
#include "driver.h"

#include "emit/emit.h"
#include "ops/ops.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: mc ops [--target c|cuda] [--format text|markdown|json]\n"
        "\n"
        "Lists every op mc knows (the op table, sorted by name): its overloads, its meaning,\n"
        "its effect (pure, a view of an input, a write to an input, an outside effect, control\n"
        "flow), its family and what each target runs for it. --target shows one target only\n"
        "(default: both). docs/ops.md is `mc ops --format markdown`.\n",
        f);
}

typedef enum Target { T_BOTH, T_C, T_CUDA } Target;

/* What the CUDA target runs for op: the CUDA emitter's own kernel, or the C kernel on the host. */
static const char *cuda_support(const OpDef *op) {
  if (!op->kernel) return "structural";
  if (op->flags & OPF_DATA_SIZED) /* docs/cuda.md: a graph with run-time shapes runs on the host */
    return emit_cuda_has_device_kernel(op->name) ? "device kernel; the whole graph on the host when sized by the data"
                                                 : "host fallback; the whole graph on the host when sized by the data";
  return emit_cuda_has_device_kernel(op->name) ? "device kernel" : "host fallback";
}

static const char *c_support(const OpDef *op) { return op->kernel ? "kernel" : "structural"; }

static const char *effect_name(OpEffect e) {
  switch (e) {
  case EFF_PURE: return "pure";
  case EFF_VIEW: return "view";
  case EFF_WRITE: return "write";
  case EFF_EXTERN: return "extern";
  case EFF_CONTROL: return "control";
  }
  return "?";
}

/* "pure", "view of input 0", "writes input 0", "outside effect", "control flow" */
static void effect_text(const OpDef *op, char *buf, size_t n) {
  switch (op->effect) {
  case EFF_VIEW: snprintf(buf, n, "view of input %d", op->effect_arg); break;
  case EFF_WRITE: snprintf(buf, n, "writes input %d", op->effect_arg); break;
  case EFF_EXTERN: snprintf(buf, n, "outside effect"); break;
  case EFF_CONTROL: snprintf(buf, n, "control flow"); break;
  default: snprintf(buf, n, "pure"); break;
  }
}

static const struct {
  int flag;
  const char *name;
} flag_names[] = {
    {OPF_STRUCTURAL, "structural"}, {OPF_SCALAR, "scalar"},         {OPF_MAYBE_VIEW, "maybe_view"},
    {OPF_NONDET, "nondet"},         {OPF_ALLOC_LIKE, "alloc_like"}, {OPF_SHAPE_ONLY, "shape_only"},
    {OPF_COMPLEX_OUT, "complex_out"}, {OPF_COMPLEX_ASKED, "complex_asked"}, {OPF_COMPLEX_IN, "complex_in"},
    {OPF_CONTIGUOUS_OUT, "contiguous_out"}, {OPF_CONTIGUOUS_LOW_RANK, "contiguous_low_rank"},
    {OPF_SELF_CAST, "self_cast"}, {OPF_SELF_CONTIGUOUS, "self_contiguous"}, {OPF_SELF_ONE_DIM, "self_one_dim"},
    {OPF_STRIDED_OUT, "strided_out"}, {OPF_MAY_ALIAS, "may_alias"}, {OPF_DATA_SIZED, "data_sized"},
};
enum { NFLAGS = sizeof flag_names / sizeof flag_names[0] };

/* The flags other than structural (the targets column says that), comma separated. */
static void flags_text(const OpDef *op, char *buf, size_t n) {
  buf[0] = '\0';
  size_t len = 0;
  for (int i = 0; i < NFLAGS; i++) {
    if (!(op->flags & flag_names[i].flag) || flag_names[i].flag == OPF_STRUCTURAL) continue;
    int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", flag_names[i].name);
    if (w < 0 || (size_t)w >= n - len) break;
    len += (size_t)w;
  }
}

static const char *family_name(const OpDef *op) {
  const OpFamily *f = ops_family_of(op);
  return f ? f->name : "?";
}

/* ---- text ---------------------------------------------------------------------------------- */
static void put_text(FILE *f, Target t) {
  for (int i = 0; i < ops_count(); i++) {
    const OpDef *op = ops_at(i);
    char eff[48], fl[128];
    effect_text(op, eff, sizeof eff);
    flags_text(op, fl, sizeof fl);
    fprintf(f, "%s  [%s; %s%s%s]", op->name, family_name(op), eff, fl[0] ? "; " : "", fl);
    if (t != T_CUDA) fprintf(f, "  c: %s%s%s", c_support(op), op->kernel ? " " : "", op->kernel ? op->kernel_name : "");
    if (t != T_C) fprintf(f, "  cuda: %s", cuda_support(op));
    fputc('\n', f);
    for (int k = 0; k < ops_overload_count(op); k++) {
      OpSig sig;
      if (ops_overload(op, k, &sig)) fprintf(f, "    %s\n", sig.text);
    }
    if (op->functional) fprintf(f, "    in place; functional form %s\n", op->functional);
    fprintf(f, "    %s\n", op->doc ? op->doc : "");
  }
}

/* ---- markdown ------------------------------------------------------------------------------ */
/* Plain text inside a table cell: '|' escaped, '<' '>' '&' as entities. */
static void put_cell(FILE *f, const char *s) {
  for (; s && *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if (*s == '\n') fputc(' ', f);
    else fputc(*s, f);
  }
}

/* A code span inside a table cell (GFM: only '|' needs escaping there). Text with a backtick
 * is written as plain text. */
static void put_code(FILE *f, const char *s) {
  if (!s || strchr(s, '`')) {
    put_cell(f, s);
    return;
  }
  fputc('`', f);
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", f);
    else if (*s == '\n') fputc(' ', f);
    else fputc(*s, f);
  }
  fputc('`', f);
}

static void put_markdown(FILE *f, Target t) {
  int nkernel = 0, nstruct = 0;
  for (int i = 0; i < ops_count(); i++) {
    if (ops_at(i)->kernel) nkernel++;
    else nstruct++;
  }
  fputs("# mc ops\n"
        "\n"
        "<!-- Generated by `make docs` from `mc ops --format markdown`; do not edit. -->\n"
        "\n"
        "Every op mc knows: one row of the op table (compiler/ops/ops_<family>.c) each, sorted by\n"
        "name. *Overloads* are the row's schema, one line per overload; *effect* is what alias\n"
        "analysis, functionalize and DCE rely on (pure, a view of an input, a write to an input, an\n"
        "effect outside the graph, control flow), followed by the row's flags (scalar: scalars only;\n"
        "maybe_view: a view when strides allow, else a copy; nondet: random; alloc_like: makes a\n"
        "tensor from scalars; shape_only: depends only on input shapes; complex_out, complex_asked,\n"
        "complex_in: complex results and inputs as real pairs; contiguous_out: the result is\n"
        "contiguous whatever the inputs' layout; contiguous_low_rank: contiguous when the inputs of\n"
        "rank >= 3 are; self_cast, self_contiguous, self_one_dim: returns the input tensor itself\n"
        "when the cast keeps its dtype, it is contiguous already, or one dimension is flattened;\n"
        "strided_out: PyTorch's result may not be contiguous even from contiguous inputs; may_alias:\n"
        "PyTorch may return its one tensor operand or a view of it, where mc computes a copy).\n"
        "*C* is the kernel pasted into model.c, or *structural* for ops the passes and the emitter\n"
        "handle. *CUDA* is *device kernel* where the CUDA emitter has one, else *host fallback* (the\n"
        "C kernel runs on the host).\n"
        "\n",
        f);
  fprintf(f, "%d ops: %d with a kernel, %d structural.\n\n", ops_count(), nkernel, nstruct);
  fputs("| op | overloads | meaning | effect | family |", f);
  if (t != T_CUDA) fputs(" C |", f);
  if (t != T_C) fputs(" CUDA |", f);
  fputs("\n| --- | --- | --- | --- | --- |", f);
  if (t != T_CUDA) fputs(" --- |", f);
  if (t != T_C) fputs(" --- |", f);
  fputc('\n', f);
  for (int i = 0; i < ops_count(); i++) {
    const OpDef *op = ops_at(i);
    char eff[48], fl[128];
    effect_text(op, eff, sizeof eff);
    flags_text(op, fl, sizeof fl);
    fputs("| ", f);
    put_code(f, op->name);
    fputs(" | ", f);
    for (int k = 0; k < ops_overload_count(op); k++) {
      OpSig sig;
      if (!ops_overload(op, k, &sig)) continue;
      if (k) fputs("<br>", f);
      put_code(f, sig.text);
    }
    fputs(" | ", f);
    put_cell(f, op->doc);
    if (op->functional) {
      fputs(" (in place; functional form ", f);
      put_code(f, op->functional);
      fputs(")", f);
    }
    fputs(" | ", f);
    put_cell(f, eff);
    if (fl[0]) {
      fputs("; ", f);
      put_cell(f, fl);
    }
    fputs(" | ", f);
    put_cell(f, family_name(op));
    if (t != T_CUDA) {
      fputs(" | ", f);
      if (op->kernel) put_code(f, op->kernel_name);
      else fputs("structural", f);
    }
    if (t != T_C) {
      fputs(" | ", f);
      fputs(cuda_support(op), f);
    }
    fputs(" |\n", f);
  }
}

/* ---- json ---------------------------------------------------------------------------------- */
static bool put_json(FILE *f, Target t) {
  cJSON *root = cJSON_CreateObject();
  cJSON *arr = root ? cJSON_AddArrayToObject(root, "ops") : NULL;
  bool ok = arr != NULL;
  for (int i = 0; ok && i < ops_count(); i++) {
    const OpDef *op = ops_at(i);
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
      cJSON_Delete(o);
      ok = false;
      break;
    }
    cJSON_AddStringToObject(o, "name", op->name);
    cJSON_AddStringToObject(o, "family", family_name(op));
    cJSON *ovs = cJSON_AddArrayToObject(o, "overloads");
    for (int k = 0; ovs && k < ops_overload_count(op); k++) {
      OpSig sig;
      if (ops_overload(op, k, &sig)) cJSON_AddItemToArray(ovs, cJSON_CreateString(sig.text));
    }
    cJSON_AddStringToObject(o, "doc", op->doc ? op->doc : "");
    cJSON_AddStringToObject(o, "effect", effect_name(op->effect));
    if (op->effect == EFF_VIEW || op->effect == EFF_WRITE) cJSON_AddNumberToObject(o, "effect_arg", op->effect_arg);
    if (op->functional) cJSON_AddStringToObject(o, "functional", op->functional);
    cJSON_AddNumberToObject(o, "min_inputs", op->min_inputs);
    cJSON_AddNumberToObject(o, "max_inputs", op->max_inputs);
    cJSON *fl = cJSON_AddArrayToObject(o, "flags");
    for (int k = 0; fl && k < NFLAGS; k++)
      if (op->flags & flag_names[k].flag) cJSON_AddItemToArray(fl, cJSON_CreateString(flag_names[k].name));
    if (op->kernel) cJSON_AddStringToObject(o, "kernel", op->kernel_name);
    cJSON *tg = cJSON_AddObjectToObject(o, "targets");
    if (tg && t != T_CUDA) cJSON_AddStringToObject(tg, "c", c_support(op));
    if (tg && t != T_C) cJSON_AddStringToObject(tg, "cuda", cuda_support(op));
  }
  char *s = ok ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (!s) {
    fputs("mc ops: out of memory\n", stderr);
    return false;
  }
  fputs(s, f);
  fputc('\n', f);
  free(s);
  return true;
}

int cmd_ops(int argc, char **argv) {
  const char *format = "text", *target = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "--format") && i + 1 < argc) {
      format = argv[++i];
    } else if (!strcmp(a, "--target") && i + 1 < argc) {
      target = argv[++i];
    } else {
      fprintf(stderr, "mc ops: unexpected argument '%s'\n", a);
      usage(stderr);
      return EXIT_USAGE;
    }
  }
  Target t = T_BOTH;
  if (target && !strcmp(target, "c")) t = T_C;
  else if (target && !strcmp(target, "cuda")) t = T_CUDA;
  else if (target) {
    fprintf(stderr, "mc ops: unknown target '%s' (c or cuda)\n", target);
    return EXIT_USAGE;
  }
  if (!strcmp(format, "text")) put_text(stdout, t);
  else if (!strcmp(format, "markdown")) put_markdown(stdout, t);
  else if (!strcmp(format, "json")) {
    if (!put_json(stdout, t)) return EXIT_REJECTED;
  } else {
    fprintf(stderr, "mc ops: unknown format '%s' (text, markdown or json)\n", format);
    return EXIT_USAGE;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fputs("mc ops: write error\n", stderr);
    return EXIT_REJECTED;
  }
  return EXIT_OK;
}
