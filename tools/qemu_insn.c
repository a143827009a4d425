/* qemu_insn.c — a QEMU TCG plugin that counts the guest instructions a program executes
 * (every translation block adds its instruction count to one counter, inline, when it runs),
 * printed at exit as "qemu_insn: N instructions" on stderr, or appended to the file named by
 * the plugin argument out=PATH. For single-threaded guests (the inline add is not atomic).
 *
 *   cc -shared -fPIC -O2 tools/qemu_insn.c -o qemu_insn.so
 *   qemu-aarch64 -plugin ./qemu_insn.so,out=count.txt ./prog
 *
 * Debian installs no qemu-plugin.h, so the few declarations used are written out below, as in
 * QEMU 7.2's include/qemu/qemu-plugin.h (plugin API version 1). */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* not read here */
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv);

static uint64_t insn_count;
static const char *out_path;

static void insn_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count,
                                           (uint64_t)qemu_plugin_tb_n_insns(tb));
}

static void insn_exit(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  FILE *f = out_path ? fopen(out_path, "a") : NULL;
  fprintf(f ? f : stderr, "qemu_insn: %" PRIu64 " instructions\n", insn_count);
  if (f) fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    if (!strncmp(argv[i], "out=", 4)) {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "qemu_insn: unknown argument %s (out=PATH)\n", argv[i]);
      return 1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, insn_tb_trans);
  qemu_plugin_register_atexit_cb(id, insn_exit, NULL);
  return 0;
}
