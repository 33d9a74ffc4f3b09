// src/ir/instr_kinds.h -- the one list of IR instruction kinds (an X-macro)
//
// Adding a kind here makes every exhaustive switch over InstrKind (printer, verifier, emitter)
// fail to compile until it handles the new kind. Operand conventions per kind:
//   X(Kind, "printed name")   // dst / operands / fields used
#define TREADLE_IR_INSTR_KINDS(X)                                                               \
    X(Const, "const")            /* dst = constant in `value`                               */  \
    X(Copy, "copy")              /* dst = args[0]                                           */  \
    X(Assign, "assign")          /* mutable dst = args[0] (merges after if, loop carries)   */  \
    X(Cast, "cast")              /* dst = (dst type) args[0]                                */  \
    X(Construct, "construct")    /* dst = vector/matrix of the scalars args (row-major), or */  \
                                 /*       struct of its fields (all, in order; none: zeroed) */ \
    X(Field, "field")            /* dst = args[0].<text> (a struct field)                   */  \
    X(WithField, "with_field")   /* dst = args[0] with field <text> set to args[1]          */  \
    X(Call, "call")              /* dst = wp::<callee>(args...) from the builtin table;    */   \
                                 /* several dsts: wp::<callee>(args..., dsts...) (by ref)  */   \
    X(Compare, "compare")        /* dst:bool = args[0] <callee> args[1] (a C operator)      */  \
    X(Logical, "logical")        /* dst:bool = args[0] &&/|| args[1], or !args[0]           */  \
    X(Select, "select")          /* dst = args[0] ? args[1] : args[2]                       */  \
    X(CallFunc, "call_func")     /* dsts = user function `func` (args...)                   */  \
    X(Grad, "grad")              /* dsts = gradients of `builtin` or `func` at (args...),   */  \
                                 /* one per arg with a gradient, for the result's adjoint  */   \
                                 /* `value` (1 of the result type): wp.grad(f)(args...)    */   \
    X(Tid, "tid")                /* dsts = thread index (1 dst: flat; n dsts: unravelled)  */   \
    X(Load, "load")              /* dst = args[0][args[1..]]                                */  \
    X(Store, "store")            /* args[0][args[1..n-1]] = args[n]                         */  \
    X(StoreField, "store_field") /* args[0][args[1..n-1]].<text> = args[n]; text: "a.b"    */   \
    X(View, "view")              /* dst = args[0][args[1..]] with fewer indices than ndim   */  \
    X(Shape, "shape")            /* dst:int32 = args[0].shape[value.i]                      */  \
    X(Print, "print")            /* print(args[0])                                          */  \
    X(Printf, "printf")          /* printf(`text`, args...); callee "print": bools as words; */ \
                                 /* callee "assert": a failed assert reports `text`, aborts */  \
    X(If, "if")                  /* if (args[0]) body else orelse                           */  \
    X(ForRange, "for_range")     /* for (dst = args[0]; dst <|> args[1]; dst += args[2])    */  \
    X(Loop, "loop")              /* while (true) body (a while loop tests and breaks)       */  \
    X(Break, "break")                                                                           \
    X(Continue, "continue")                                                                     \
    X(Return, "return") /* return args (none, one, or a tuple's members)           */
