/* main.c — `mc`: dispatches to one command. The only place that exits. */
#include "driver.h"

#include "ir/file.h"

#include <string.h>

static void usage(FILE *f) {
  fputs("usage: mc COMMAND [options]\n"
        "\n"
        "mc compiles PyTorch models (graph JSON from mc_export, or TorchScript text dumps) to C.\n"
        "\n"
        "commands:\n"
        "  compile MODEL -o OUT.c   generate C source and header (the main job)\n"
        "  run MODEL [IN.npy ...] -o DIR   compile in-process, run, write output_K.npy\n"
        "  dump MODEL [--after PASS|--before PASS] [--format text|json|dot]   print the IR\n"
        "  inspect MODEL            inputs, outputs, op histogram, parameters, FLOPs, arena\n"
        "  ops [--target c|cuda] [--format text|markdown|json]   every op: overloads, effect, targets\n"
        "\n"
        "  mc --help | mc COMMAND --help | mc --version\n",
        f);
}

int main(int argc, char **argv) {
  file_limit_set(FILE_DEFAULT_MAX_INPUT); /* all the files a command reads, together */
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *c = argv[1];
  if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(c, "--version") || !strcmp(c, "version")) {
    printf("mc %s\n", MC_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(c, "compile")) return cmd_compile(argc - 1, argv + 1);
  if (!strcmp(c, "dump")) return cmd_dump(argc - 1, argv + 1);
  if (!strcmp(c, "run")) return cmd_run(argc - 1, argv + 1);
  if (!strcmp(c, "inspect")) return cmd_inspect(argc - 1, argv + 1);
  if (!strcmp(c, "ops")) return cmd_ops(argc - 1, argv + 1);
  fprintf(stderr, "mc: unknown command '%s'\n", c);
  usage(stderr);
  return EXIT_USAGE;
}
