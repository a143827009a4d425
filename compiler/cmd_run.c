/* cmd_run.c — `mc run` and `mc inspect`: placeholders until the libtcc runner lands. */
#include "driver.h"

int cmd_run(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("mc run: not available in this build yet\n", stderr);
  return EXIT_USAGE;
}

int cmd_inspect(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("mc inspect: not available in this build yet\n", stderr);
  return EXIT_USAGE;
}
