/* ast.c: the vocabulary of the syntax tree: node kind names (the ones
 * `--emit ast`, the JSON export and diagnostics use, after Python's own
 * ast module where one exists) and module-level name lookup. */
#include "ast.h"

#include <string.h>

static const char *const kind_names[ND_KIND_COUNT_] = {
    [ND_NAME] = "Name", [ND_INT] = "Int", [ND_FLOAT] = "Float", [ND_STR] = "Str",
    [ND_TRUE] = "True", [ND_FALSE] = "False", [ND_NONE] = "None", [ND_ELLIPSIS] = "Ellipsis",
    [ND_BINOP] = "BinOp", [ND_UNARY] = "UnaryOp", [ND_BOOLOP] = "BoolOp", [ND_COMPARE] = "Compare",
    [ND_CALL] = "Call", [ND_ATTR] = "Attribute", [ND_SUBSCRIPT] = "Subscript", [ND_SLICE] = "Slice",
    [ND_TUPLE] = "Tuple", [ND_LIST] = "List", [ND_IFEXP] = "IfExp", [ND_UNSUPPORTED] = "Unsupported",
    [ND_EXPR_STMT] = "ExprStmt", [ND_ASSIGN] = "Assign", [ND_AUGASSIGN] = "AugAssign",
    [ND_ANNASSIGN] = "AnnAssign", [ND_FOR] = "For", [ND_IF] = "If", [ND_WHILE] = "While",
    [ND_RETURN] = "Return", [ND_PASS] = "Pass", [ND_BREAK] = "Break", [ND_CONTINUE] = "Continue",
    [ND_ASSERT] = "Assert", [ND_UNSUPPORTED_STMT] = "UnsupportedStmt",
};

const char *mt_node_kind_name(MtNodeKind k)
{
    return k < ND_KIND_COUNT_ && kind_names[k] ? kind_names[k] : "?";
}

/* m->globals holds one entry per name (its last binding), see parser.c. */
const MtGlobal *mt_module_global(const MtModule *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (strcmp(m->globals[i].name, name) == 0)
            return &m->globals[i];
    return NULL;
}
