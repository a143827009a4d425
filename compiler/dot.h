/* dot.h — the IR as pictures and data, for `mc dump --format dot|json`.
 * Prefixes: dot_ (Graphviz), irjson_ (JSON). Both only read the graph. */
#ifndef MC_DOT_H
#define MC_DOT_H

#include "ir/ir.h"

/* Graphviz: nested blocks as clusters; nodes coloured by effect class (view, in-place write,
 * external effect, control flow); tensor dtypes and shapes on the edges. */
void dot_print_graph(FILE *f, const Graph *g);
/* JSON: {"file", "has_self", "inputs", "outputs", "values": [{id, name, type}], "nodes": [...]},
 * nodes with kind, inputs and outputs (value names), attributes, location and nested blocks;
 * types as TorchScript type strings. */
void irjson_print_graph(FILE *f, const Graph *g);

#endif
