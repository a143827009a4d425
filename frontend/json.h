/* json.h — the graph JSON frontend: reads what frontend/python/mc_export.py writes (the
 * format is docs/graph-json.md) into the IR, with cJSON.
 *
 * Constants become prim::Constant nodes whose `value` attribute holds the exact data (tensor
 * bytes decoded from base64 or read from the weights file beside the JSON); graph inputs get
 * full tensor types from the example-input metadata; a node's "source" becomes Node.py_loc
 * and its "scope" Node.scope; Node.loc points at the node's object in the JSON.
 *
 * Ownership: the returned Graph owns everything, including the SrcFile registered with `d`
 * (so later diagnostics can show the JSON line), the tensor data and the deps array; free it
 * with ir_graph_free(). On error the result is NULL, one located diagnostic has been printed
 * ("model.json:LINE:COL: error: /graph/nodes/3/inputs/1: undefined value '%12'"), nothing
 * stays registered with `d`, and *deps_out is NULL. The input may be any bytes: no crash, no
 * read past the buffer, bounded recursion.
 */
#ifndef MC_JSON_H
#define MC_JSON_H

#include <stddef.h>

#include "ir/ir.h"

/* Reads `path` (and the weights file it names). deps_out/ndeps_out may be NULL; otherwise
 * they receive every file read (the JSON first, then the weights file), for depfiles. */
Graph *json_parse_file(const char *path, Diag *d, const char ***deps_out, int *ndeps_out);

/* Same on a buffer (need not be NUL-terminated; copied). `path` names it in diagnostics and
 * locates a weights file (relative to its directory). */
Graph *json_parse_buffer(const char *path, const char *text, size_t len, Diag *d,
                         const char ***deps_out, int *ndeps_out);

#endif
