/* resnet18: `resnet18 IMAGE.ppm` classifies a binary PPM (P6, maxval 255) and prints the five
 * most likely ImageNet class indices, best first. Preprocessing is model.py's, step for step in
 * float32: nearest-neighbour resize to 224x224, /255, (v - mean) / std, NCHW. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

enum { S = 224, NCLASS = 1000 };

static int read_int(FILE *f, int *v) {
  int c;
  while ((c = fgetc(f)) != EOF) {
    if (c == '#') {
      while ((c = fgetc(f)) != EOF && c != '\n') {}
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      break;
    }
  }
  if (c == EOF) return -1;
  ungetc(c, f);
  return fscanf(f, "%d", v) == 1 ? 0 : -1;
}

/* Returns the pixels (h*w*3 bytes, row-major RGB) or NULL with a message printed. */
static unsigned char *read_ppm(const char *path, int *w, int *h) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  int maxval = 0;
  unsigned char *px = NULL;
  if (fgetc(f) != 'P' || fgetc(f) != '6' || read_int(f, w) || read_int(f, h) || read_int(f, &maxval) ||
      maxval != 255 || *w < 1 || *h < 1 || *w > 16384 || *h > 16384) {
    fprintf(stderr, "%s: not a binary PPM (P6) with maxval 255\n", path);
  } else {
    fgetc(f); /* the one whitespace byte before the pixels */
    size_t n = (size_t)*w * (size_t)*h * 3;
    px = malloc(n);
    if (px && fread(px, 1, n, f) != n) {
      fprintf(stderr, "%s: truncated pixel data\n", path);
      free(px);
      px = NULL;
    }
  }
  fclose(f);
  return px;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: resnet18 IMAGE.ppm\n");
    return 2;
  }
  int w, h;
  unsigned char *px = read_ppm(argv[1], &w, &h);
  if (!px) return 1;
  static const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
  static float x[3][S][S];
  for (int y = 0; y < S; y++)
    for (int xx = 0; xx < S; xx++) {
      const unsigned char *p = px + ((size_t)(y * h / S) * (size_t)w + (size_t)(xx * w / S)) * 3;
      for (int c = 0; c < 3; c++) x[c][y][xx] = ((float)p[c] / 255.0f - mean[c]) / std[c];
    }
  free(px);
  int64_t shape[4] = {1, 3, S, S};
  DLTensor t = {x, {kDLCPU, 0}, 4, {kDLFloat, 32, 1}, shape, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input_zero_copy(m, 0, &t) || mc_run(m)) {
    fprintf(stderr, "resnet18: %s\n", m ? mc_last_error(m) : "out of memory");
    mc_model_destroy(m);
    return 1;
  }
  const float *logits = mc_get_output(m, 0)->data;
  int top[5];
  for (int k = 0; k < 5; k++) {
    top[k] = -1;
    for (int i = 0; i < NCLASS; i++) {
      int taken = 0;
      for (int j = 0; j < k; j++) taken |= top[j] == i;
      if (!taken && (top[k] < 0 || logits[i] > logits[top[k]])) top[k] = i;
    }
  }
  printf("top5 %d %d %d %d %d\n", top[0], top[1], top[2], top[3], top[4]);
  mc_model_destroy(m);
  return 0;
}
