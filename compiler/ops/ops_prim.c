/* ops_prim.c — the structural ops: constants, lists and tuples, module attributes, control
 * flow, effects, and mc's own write-back. They have no kernel; the passes, the interpreter and
 * the emitter give them meaning. Their rows still carry the effect class alias analysis and DCE
 * rely on. */
#include "ops.h"

#include "k_shape.h"

static const OpDef rows[] = {
    OPDEF_STRUCT("prim::Constant", EFF_PURE, 0, 0, "() -> T", "a compile-time constant (attribute `value`)"),
    OPDEF_STRUCT("prim::ListConstruct", EFF_PURE, 0, -1, "(T... xs) -> T[]", "a list of its inputs"),
    OPDEF_STRUCT("prim::ListUnpack", EFF_PURE, 1, 1, "(T[] l) -> T...", "the elements of a list"),
    OPDEF_STRUCT("prim::TupleConstruct", EFF_PURE, 0, -1, "(T... xs) -> (T...)", "a tuple of its inputs"),
    OPDEF_STRUCT("prim::TupleUnpack", EFF_PURE, 1, 1, "((T...) t) -> T...", "the elements of a tuple"),
    OPDEF_STRUCT("prim::TupleIndex", EFF_PURE, 2, 2, "((T...) t, int i) -> T", "element i of a tuple"),
    OPDEF_STRUCT("aten::__getitem__", EFF_PURE, 2, 2, "(T[] l, int i) -> T", "element i of a list"),
    OPDEF_STRUCT("aten::len", EFF_PURE, 1, 1, "(T[] l) -> int", "length of a list"),
    OPDEF_STRUCT("aten::append", EFF_WRITE, 2, 2, "(T[](a!) l, T x) -> T[]", "appends x to list l in place"),
    OPDEF_STRUCT("prim::GetAttr", EFF_PURE, 1, 1, "(Object self) -> T", "module attribute `name`"),
    OPDEF_STRUCT("prim::SetAttr", EFF_EXTERN, 2, 2, "(Object self, T v) -> ()", "sets module attribute `name`"),
    OPDEF_STRUCT("prim::CallMethod", EFF_EXTERN, 1, -1, "(Object self, ...) -> T", "calls a submodule method (inline it first)"),
    OPDEF_STRUCT("prim::If", EFF_CONTROL, 1, 1, "(bool cond) -> T...", "runs block 0 if cond else block 1"),
    OPDEF_STRUCT("prim::Loop", EFF_CONTROL, 2, -1, "(int max_trip, bool cond, T... carried) -> T...", "a for/while loop over block 0"),
    OPDEF_STRUCT("prim::Print", EFF_EXTERN, 0, -1, "(...) -> ()", "prints its inputs"),
    OPDEF_STRUCT("prim::RaiseException", EFF_EXTERN, 1, 2, "(str msg, str? cls) -> ()", "raises an exception"),
    OPDEF_STRUCT("aten::warn", EFF_EXTERN, 1, 2, "(str msg, int stacklevel) -> ()", "issues a warning"),
    OPDEF("aten::__not__", ks_not, EFF_PURE, 0, NULL, 1, 1, OPF_SCALAR, "(bool self) -> bool", "not self"),
    OPDEF_STRUCT("aten::__contains__", EFF_PURE, 2, 2, "(int[]|float[]|str[] l, int|float|str item) -> bool",
                 "item in l (folded when constant)"),
    OPDEF_STRUCT("aten::list", EFF_PURE, 1, 1, "(T[] l) -> T[]", "a copy of list l (folded when constant)"),
    OPDEF_STRUCT("aten::format", EFF_PURE, 1, -1, "(str self, ...) -> str",
                 "str.format, for the messages of exceptions (no kernel)"),
    OPDEF_STRUCT("prim::is_cuda", EFF_PURE, 1, 1, "(Tensor a) -> bool", "false: tensors are on the CPU"),
    OPDEF_STRUCT("prim::is_nested", EFF_PURE, 1, 1, "(Tensor a) -> bool", "false: no nested tensors"),
    OPDEF("aten::__range_length", ks_range_length, EFF_PURE, 0, NULL, 3, 3, OPF_SCALAR,
          "(int lo, int hi, int step) -> int", "len(range(lo, hi, step)); step 0 is an error"),
    OPDEF("aten::__derive_index", ks_derive_index, EFF_PURE, 0, NULL, 3, 3, OPF_SCALAR,
          "(int index, int start, int step) -> int", "start + index * step (a for loop's value)"),
    OPDEF_STRUCT("aten::is_autocast_enabled", EFF_PURE, 0, 0, "() -> bool", "false: no autocast"),
    OPDEF_STRUCT("aten::is_grad_enabled", EFF_PURE, 0, 0, "() -> bool", "false: inference, as under torch.no_grad()"),
    OPDEF_STRUCT("prim::requires_grad", EFF_PURE, 1, 1, "(Tensor a) -> bool", "false: inference"),
    OPDEF_STRUCT("aten::str", EFF_PURE, 1, 1, "(t elem) -> str", "str(elem), for the messages of exceptions (no kernel)"),
    OPDEF_STRUCT("aten::find", EFF_PURE, 2, 4, "(str self, str substr, int start=0, int end=-1) -> int",
                 "str.find (folded when constant)"),
    OPDEF_STRUCT("prim::Uninitialized", EFF_PURE, 0, 0, "() -> T", "a placeholder on paths that raise"),
    OPDEF_STRUCT("prim::unchecked_cast", EFF_PURE, 1, 1, "(T x) -> U", "refines the static type of x"),
    OPDEF_STRUCT("aten::__is__", EFF_PURE, 2, 2, "(T a, U b) -> bool", "identity comparison (None checks)"),
    OPDEF_STRUCT("aten::__isnot__", EFF_PURE, 2, 2, "(T a, U b) -> bool", "negated identity comparison"),
    OPDEF_STRUCT("prim::dtype", EFF_PURE, 1, 1, "(Tensor a) -> int", "the ScalarType code of a"),
    OPDEF_STRUCT("prim::device", EFF_PURE, 1, 1, "(Tensor a) -> Device", "the device of a"),
    OPDEF_STRUCT("aten::split", EFF_VIEW, 2, 3, "(Tensor(a) self, int split_size, int dim=0) -> Tensor(a)[]",
                 "pieces of split_size along dim (taken apart by prim::ListUnpack into slices)"),
    OPDEF_STRUCT("aten::split_with_sizes", EFF_VIEW, 2, 3, "(Tensor(a) self, int[] sizes, int dim=0) -> Tensor(a)[]",
                 "pieces of the given sizes along dim (taken apart into slices)"),
    OPDEF_STRUCT("aten::chunk", EFF_VIEW, 2, 3, "(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]",
                 "chunks equal pieces along dim (taken apart into slices)"),
    OPDEF_STRUCT("aten::unsafe_chunk", EFF_VIEW, 2, 3, "(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]",
                 "aten::chunk's pieces (taken apart into slices; nn.LSTMCell's gates under trace)"),
    OPDEF_STRUCT("aten::unbind", EFF_VIEW, 1, 2, "(Tensor(a) self, int dim=0) -> Tensor(a)[]",
                 "the slices along dim (taken apart into selects)"),
    OPDEF_STRUCT("aten::unsafe_split", EFF_VIEW, 2, 3, "(Tensor(a) self, int split_size, int dim=0) -> Tensor(a)[]",
                 "aten::split's pieces (taken apart into slices)"),
    OPDEF_STRUCT("aten::unsafe_split_with_sizes", EFF_VIEW, 2, 3,
                 "(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor(a)[]",
                 "aten::split_with_sizes's pieces (taken apart into slices)"),
    OPDEF_STRUCT("aten::tensor_split", EFF_VIEW, 2, 3, "(Tensor(a) self, int sections, int dim=0) -> Tensor(a)[]",
                 "sections pieces along dim, the first len % sections one longer; with int[] indices, the "
                 "pieces between them (taken apart into slices)"),
    OPDEF_STRUCT("mc::write_back", EFF_WRITE, 2, 2, "(Tensor(a!) input, Tensor value) -> ()",
                 "stores the final value of a mutated graph input into the caller's buffer"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 45, "prim op table size");

const OpFamily ops_family_prim = {"prim", rows, (int)(sizeof rows / sizeof rows[0])};
