/* startup.c — the bare-metal program's own start: the vector table, the reset handler (copy
 * .data, clear .bss, turn the FPU on, run main) and semihosting output and exit (BKPT 0xAB,
 * which QEMU serves with -semihosting). No C library start files. */
#include <stdint.h>

extern uint32_t bm_data_start, bm_data_end, bm_data_load, bm_bss_start, bm_bss_end, bm_stack_top;
int main(void);
void bm_reset(void);
void bm_exit(int status);

static int bm_semihost(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void bm_puts(const char *s) { bm_semihost(0x04, s); } /* SYS_WRITE0 */

void bm_exit(int status) {
  /* SYS_EXIT: ADP_Stopped_ApplicationExit (qemu exits 0), else RunTimeErrorUnknown (1) */
  for (;;) bm_semihost(0x18, (const void *)(uintptr_t)(status ? 0x20023 : 0x20026));
}

static void bm_fault(void) {
  bm_puts("FAIL: fault\n");
  bm_exit(1);
}

void bm_reset(void) {
  uint32_t *src = &bm_data_load, *dst = &bm_data_start;
  while (dst < &bm_data_end) *dst++ = *src++;
  for (dst = &bm_bss_start; dst < &bm_bss_end;) *dst++ = 0;
  *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20; /* CPACR: CP10 and CP11 full access */
  __asm__ volatile("dsb\n\tisb");
  bm_exit(main());
}

__attribute__((section(".vectors"), used)) static void (*const bm_vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&bm_stack_top, bm_reset, bm_fault, bm_fault, bm_fault, bm_fault,
    bm_fault};
