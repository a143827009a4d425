/* k_thread.h — what the kernels share about memory and threads: 64-byte aligned blocks, the
 * per-thread scratch kept between calls (kconv_scratch), and the pool of POSIX threads that
 * runs a kernel's tasks in parallel (kconv_pool_run: the GEMM of k_gemm.h, the direct
 * convolution of k_dw.h, pooling, elementwise loops). Without POSIX threads (tcc: `mc run`,
 * other targets, or -DMC_NO_THREADS) KCONV_THREADS is not defined and everything is serial.
 *
 * Prefix: kconv_.
 */
#ifndef MC_K_THREAD_H
#define MC_K_THREAD_H

#ifndef MCK_H
#include "mck.h"
#endif

/* 64-byte aligned blocks from malloc (the pointer malloc returned is kept just before the
 * block), so the kernels need neither aligned_alloc (C11; newlib's wants posix_memalign) nor
 * posix_memalign (POSIX; newlib-nano lacks it): C99 and bare-metal libraries build them as
 * they are. NULL when out of memory or when the block would not fit a ptrdiff_t. */
static inline void *kconv_aligned(size_t bytes) {
  size_t extra = 64 + sizeof(void *);
  if (bytes > (size_t)PTRDIFF_MAX - extra) return NULL;
  char *raw = (char *)malloc(bytes + extra);
  if (!raw) return NULL;
  uintptr_t p = ((uintptr_t)(raw + sizeof(void *)) + 63) & ~(uintptr_t)63;
  ((void **)p)[-1] = raw;
  return (void *)p;
}
static inline void kconv_aligned_free(void *p) {
  if (p) free(((void **)p)[-1]);
}

/* POSIX threads (the pool below, and per-thread scratch): not under tcc (`mc run`), not with
 * -DMC_NO_THREADS, not where there is no POSIX. */
#if !defined(__TINYC__) && !defined(MC_NO_THREADS) && !defined(MC_NO_MALLOC) && \
    (defined(__unix__) || defined(__APPLE__))
#define KCONV_THREADS 1
#include <pthread.h>
#endif

/* Scratch kept between calls (slot 0: packed A, 1: packed B, 2: im2col columns, 3: k_dw.h's
 * padded plane), grown on demand and never shrunk, so a model's products stop paying malloc and
 * fresh-page faults after its first run. With threads, each thread has its own set, hung off a
 * pthread key whose destructor frees it when the thread exits (a pool worker, or a program's
 * thread that ran a model); without them (tcc, -DMC_NO_THREADS, other targets) there is one
 * static set and no thread-local storage at all. kconv_scratch_release() frees the calling
 * thread's set now (the next product allocates again). */
#define KCONV_SCRATCH_SLOTS 4
typedef struct kconv_scratch_set {
  float *buf[KCONV_SCRATCH_SLOTS];
  int64_t cap[KCONV_SCRATCH_SLOTS];
  void *raw[KCONV_SCRATCH_SLOTS]; /* malloc's pointer of each buf: leak checkers see it held */
} kconv_scratch_set;

static inline void kconv_scratch_clear(kconv_scratch_set *s) {
  for (int k = 0; k < KCONV_SCRATCH_SLOTS; k++) {
    kconv_aligned_free(s->buf[k]);
    s->buf[k] = NULL;
    s->raw[k] = NULL;
    s->cap[k] = 0;
  }
}

#ifdef KCONV_THREADS
typedef struct kconv_scratch_key {
  pthread_once_t once;
  pthread_key_t key;
  int ok;
} kconv_scratch_key;
static inline kconv_scratch_key *kconv_scratch_key_get(void) {
  static kconv_scratch_key k = {.once = PTHREAD_ONCE_INIT};
  return &k;
}
static inline void kconv_scratch_at_exit(void *p) { /* the key's destructor */
  kconv_scratch_clear((kconv_scratch_set *)p);
  free(p);
}
static inline void kconv_scratch_key_init(void) {
  kconv_scratch_key *k = kconv_scratch_key_get();
  k->ok = pthread_key_create(&k->key, kconv_scratch_at_exit) == 0;
}
/* The calling thread's set (made when `make`); NULL when there is none or no memory. */
static inline kconv_scratch_set *kconv_scratch_set_get(int make) {
  kconv_scratch_key *k = kconv_scratch_key_get();
  if (pthread_once(&k->once, kconv_scratch_key_init) || !k->ok) return NULL;
  kconv_scratch_set *s = (kconv_scratch_set *)pthread_getspecific(k->key);
  if (!s && make) {
    s = (kconv_scratch_set *)calloc(1, sizeof *s);
    if (s && pthread_setspecific(k->key, s)) {
      free(s);
      s = NULL;
    }
  }
  return s;
}
#else
static inline kconv_scratch_set *kconv_scratch_set_get(int make) {
  static kconv_scratch_set set;
  (void)make;
  return &set;
}
#endif

#ifdef MC_NO_MALLOC
/* Without a heap (generated code built with -DMC_NO_MALLOC, single-threaded) each slot is a
 * block the generated file's pool keeps for the run (mck_pool_keep_, emit_c.c). */
static inline float *kconv_scratch(int slot, int64_t n) {
  if (n < 0 || n > PTRDIFF_MAX / (int64_t)sizeof(float)) return NULL;
  return (float *)mck_pool_keep_(slot, sizeof(float) * (size_t)n);
}
static inline void kconv_scratch_release(void) {}
#else
static inline float *kconv_scratch(int slot, int64_t n) {
  kconv_scratch_set *s = kconv_scratch_set_get(1);
  if (!s) return NULL;
  if (n > s->cap[slot]) {
    kconv_aligned_free(s->buf[slot]);
    s->buf[slot] = n <= PTRDIFF_MAX / (int64_t)sizeof(float)
                       ? (float *)kconv_aligned(sizeof(float) * (size_t)n)
                       : NULL;
    s->cap[slot] = s->buf[slot] ? n : 0;
    s->raw[slot] = s->buf[slot] ? ((void **)s->buf[slot])[-1] : NULL;
  }
  return s->buf[slot];
}

static inline void kconv_scratch_release(void) {
  kconv_scratch_set *s = kconv_scratch_set_get(0);
  if (s) kconv_scratch_clear(s);
}
#endif

/* ---- the pool ------------------------------------------------------------------------------
 * Threads come from a pool per translation unit, started on first use and kept (detached,
 * parked on a condition variable); each has its own kconv_scratch. One parallel job at a time
 * per pool: a caller that finds the pool busy (another thread's model, or a job nested in a
 * worker) runs serially. The pool is rebuilt after fork(). glibc declares what is used here
 * under plain -std=c11, so nothing defines _POSIX_C_SOURCE (generated C includes <math.h>
 * before this). */
#define KCONV_MAX_THREADS 64

#ifdef KCONV_THREADS
#include <stdatomic.h>
/* Workers spin on the job counter for a while (about 50-100 us) before they block on the
 * condition variable, and so does the caller waiting for them: a model runs one parallel op
 * after another with short serial gaps, and a futex wake-up per op cost mobilenet_v2 a sixth
 * of its time at 2 threads. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define KCONV_PAUSE() __builtin_ia32_pause()
#else
#define KCONV_PAUSE() ((void)0)
#endif
#define KCONV_SPIN 2000
typedef struct kconv_pool {
  pthread_mutex_t mu, busy;
  pthread_cond_t go, done;
  int nworkers, atfork;
  /* the job word: (job number << 8) | task count, published (release) after fn / arg are set.
   * A worker decides from this one word whether it takes part: the task count must not be
   * read separately, or a worker that skips a job could read the next job's count */
  atomic_ulong gen;
  atomic_int pending;  /* tasks of the current job not finished by workers */
  unsigned long created_gen; /* gen when the newest worker was created (under mu) */
  int sleeping;        /* workers blocked on `go` (under mu) */
  int waiting;         /* the caller is blocked on `done` (under mu) */
  void (*fn)(void *, int);
  void *arg;
} kconv_pool;

static inline kconv_pool *kconv_pool_get(void) {
  static kconv_pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
                            .busy = PTHREAD_MUTEX_INITIALIZER,
                            .go = PTHREAD_COND_INITIALIZER,
                            .done = PTHREAD_COND_INITIALIZER};
  return &pool;
}

/* fork() keeps only the calling thread: the child starts a pool of its own. */
static inline void kconv_pool_atfork_child(void) {
  kconv_pool *p = kconv_pool_get();
  pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;
  p->mu = p->busy = m0;
  p->go = p->done = c0;
  p->nworkers = 0;
  p->sleeping = p->waiting = 0;
  atomic_store(&p->pending, 0);
}

static inline void *kconv_pool_worker(void *arg) {
  kconv_pool *p = kconv_pool_get();
  int id = (int)(intptr_t)arg;
  /* the job that made this worker is the one after created_gen: it may be posted already */
  pthread_mutex_lock(&p->mu);
  unsigned long seen = p->created_gen, g;
  pthread_mutex_unlock(&p->mu);
  for (;;) {
    int spins = 0;
    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen && spins < KCONV_SPIN) {
      KCONV_PAUSE();
      spins++;
    }
    if (g == seen) {
      pthread_mutex_lock(&p->mu);
      p->sleeping++;
      while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
        pthread_cond_wait(&p->go, &p->mu);
      p->sleeping--;
      pthread_mutex_unlock(&p->mu);
    }
    seen = g;
    if (id >= (int)(g & 0xff)) continue;
    p->fn(p->arg, id); /* stable: the job cannot end before this task does */
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&p->mu);
      if (p->waiting) pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
  return NULL;
}

/* Runs fn(arg, t) for t in [0, n), t = 0 on the calling thread; returns how many tasks ran in
 * parallel (1: none, the pool was busy or no thread could start; the caller runs the rest). */
static inline int kconv_pool_run(int n, void (*fn)(void *, int), void *arg) {
  kconv_pool *p = kconv_pool_get();
  if (n > KCONV_MAX_THREADS) n = KCONV_MAX_THREADS; /* the caller runs tasks >= the result */
  if (pthread_mutex_trylock(&p->busy)) return 1;
  pthread_mutex_lock(&p->mu);
  if (!p->atfork) p->atfork = pthread_atfork(NULL, NULL, kconv_pool_atfork_child) == 0;
  while (p->nworkers < n - 1) {
    pthread_t th;
    p->created_gen = atomic_load_explicit(&p->gen, memory_order_relaxed);
    if (pthread_create(&th, NULL, kconv_pool_worker, (void *)(intptr_t)(p->nworkers + 1))) break;
    pthread_detach(th);
    p->nworkers++;
  }
  pthread_mutex_unlock(&p->mu);
  if (n > p->nworkers + 1) n = p->nworkers + 1;
  if (n > 1) {
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->pending, n - 1, memory_order_relaxed);
    unsigned long g = atomic_load_explicit(&p->gen, memory_order_relaxed);
    atomic_store_explicit(&p->gen, ((g >> 8) + 1) << 8 | (unsigned long)n, memory_order_release);
    pthread_mutex_lock(&p->mu);
    if (p->sleeping) pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0);
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0 && spins < KCONV_SPIN; spins++)
      KCONV_PAUSE();
    if (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) {
      pthread_mutex_lock(&p->mu);
      p->waiting = 1;
      while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) pthread_cond_wait(&p->done, &p->mu);
      p->waiting = 0;
      pthread_mutex_unlock(&p->mu);
    }
  }
  pthread_mutex_unlock(&p->busy);
  return n;
}
#endif

#endif
