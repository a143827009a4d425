/* cmd_dump.c — `mc dump MODEL [--before PASS|--after PASS] [--format text|json|dot]`: prints the
 * IR as read, or around one pass of the default pipeline, to stdout. */
#include "driver.h"

#include "dot.h"
#include "passes/pass.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: mc dump MODEL [--before PASS | --after PASS] [--passes LIST]\n"
        "               [--format text|json|dot]\n"
        "\n"
        "Prints the IR of MODEL as read (default), or just before / just after PASS of the\n"
        "pipeline, in the text syntax mc reads back (text), as JSON (json: nodes, values, types as\n"
        "strings) or as a Graphviz graph (dot: blocks as clusters, views, in-place writes and\n"
        "external effects coloured; render with `dot -Tsvg`).\n",
        f);
}

int cmd_dump(int argc, char **argv) {
  const char *model = NULL, *before = NULL, *after = NULL, *format = "text", *passes = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "--before") && i + 1 < argc) {
      before = argv[++i];
    } else if (!strcmp(a, "--after") && i + 1 < argc) {
      after = argv[++i];
    } else if (!strcmp(a, "--format") && i + 1 < argc) {
      format = argv[++i];
    } else if (!strcmp(a, "--passes") && i + 1 < argc) {
      passes = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "mc dump: unknown or incomplete option '%s'\n", a);
      return EXIT_USAGE;
    } else if (!model) {
      model = a;
    } else {
      fprintf(stderr, "mc dump: more than one MODEL given\n");
      return EXIT_USAGE;
    }
  }
  if (!model) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0 && strcmp(format, "dot") != 0) {
    fprintf(stderr, "mc dump: --format must be text, json or dot, not '%s'\n", format);
    return EXIT_USAGE;
  }
  const char *which = before ? before : after;
  if (which && !pm_find(which)) {
    fprintf(stderr, "mc dump: unknown pass '%s'\n", which);
    return EXIT_USAGE;
  }
  char perr[256];
  if (passes && !pm_check_pipeline(passes, perr, sizeof perr)) {
    fprintf(stderr, "mc dump: --passes: %s\n", perr);
    return EXIT_USAGE;
  }
  Diag d;
  diag_init(&d);
  Loaded m;
  if (!drv_load(model, &d, &m)) return EXIT_REJECTED;
  int status = EXIT_OK;
  if (which) {
    /* Run the pipeline up to (and, for --after, including) the pass. */
    const char *pl = passes ? passes : pm_default_pipeline();
    char *prefix = malloc(strlen(pl) + 1);
    prefix[0] = 0;
    bool found = false;
    for (const char *s = pl; *s;) {
      const char *e = strchr(s, ',');
      size_t len = e ? (size_t)(e - s) : strlen(s);
      bool is = strlen(which) == len && !strncmp(s, which, len);
      if (is && before) {
        found = true;
        break;
      }
      if (prefix[0]) strcat(prefix, ",");
      strncat(prefix, s, len);
      if (is) {
        found = true;
        break;
      }
      s += len + (e ? 1 : 0);
    }
    if (!found) {
      fprintf(stderr, "mc dump: pass '%s' is not in the pipeline '%s'\n", which, pl);
      free(prefix);
      ir_graph_free(m.g);
      return EXIT_USAGE;
    }
    PmOptions o = {0};
    o.pipeline = prefix;
    o.verify = true;
    if (prefix[0] && pm_run(m.g, &o, &d)) status = EXIT_REJECTED;
    free(prefix);
  }
  if (status == EXIT_OK && !strcmp(format, "dot")) dot_print_graph(stdout, m.g);
  else if (status == EXIT_OK && !strcmp(format, "json")) irjson_print_graph(stdout, m.g);
  else if (status == EXIT_OK) ir_print_graph(stdout, m.g, NULL);
  ir_graph_free(m.g);
  return status;
}
