/* ast_walk.c: a pre-order visit of every node of a syntax tree, for tools
 * that look for something anywhere in a kernel (the kernel picker's "which
 * functions are helpers", the language server's symbol and definition
 * lookups) without knowing every node kind's fields. */
#include "ast.h"

static void walk_list(const MtNodeList *l, MtAstVisit fn, void *ud)
{
    for (uint32_t i = 0; i < l->n; i++)
        mt_ast_walk(l->v[i], fn, ud);
}

void mt_ast_walk(const MtNode *n, MtAstVisit fn, void *ud)
{
    if (!n || !fn(n, ud))
        return;
    switch ((MtNodeKind)n->kind) {
    case ND_BINOP:
        mt_ast_walk(n->u.bin.lhs, fn, ud);
        mt_ast_walk(n->u.bin.rhs, fn, ud);
        break;
    case ND_UNARY: mt_ast_walk(n->u.un.operand, fn, ud); break;
    case ND_BOOLOP: walk_list(&n->u.boolop.items, fn, ud); break;
    case ND_TUPLE:
    case ND_LIST: walk_list(&n->u.list, fn, ud); break;
    case ND_COMPARE: walk_list(&n->u.cmp.items, fn, ud); break;
    case ND_CALL:
        mt_ast_walk(n->u.call.fn, fn, ud);
        walk_list(&n->u.call.args, fn, ud);
        for (uint32_t i = 0; i < n->u.call.nkw; i++)
            mt_ast_walk(n->u.call.kw[i].value, fn, ud);
        break;
    case ND_ATTR: mt_ast_walk(n->u.attr.value, fn, ud); break;
    case ND_SUBSCRIPT:
        mt_ast_walk(n->u.sub.value, fn, ud);
        mt_ast_walk(n->u.sub.index, fn, ud);
        break;
    case ND_SLICE:
        mt_ast_walk(n->u.slice.lo, fn, ud);
        mt_ast_walk(n->u.slice.hi, fn, ud);
        mt_ast_walk(n->u.slice.step, fn, ud);
        break;
    case ND_IFEXP:
        mt_ast_walk(n->u.ifexp.test, fn, ud);
        mt_ast_walk(n->u.ifexp.body, fn, ud);
        mt_ast_walk(n->u.ifexp.orelse, fn, ud);
        break;
    case ND_UNSUPPORTED:
    case ND_UNSUPPORTED_STMT: mt_ast_walk(n->u.unsup.inner, fn, ud); break;
    case ND_EXPR_STMT:
    case ND_RETURN: mt_ast_walk(n->u.expr, fn, ud); break;
    case ND_ASSIGN:
        walk_list(&n->u.assign.targets, fn, ud);
        mt_ast_walk(n->u.assign.value, fn, ud);
        break;
    case ND_AUGASSIGN:
        mt_ast_walk(n->u.aug.target, fn, ud);
        mt_ast_walk(n->u.aug.value, fn, ud);
        break;
    case ND_ANNASSIGN:
        mt_ast_walk(n->u.ann.target, fn, ud);
        mt_ast_walk(n->u.ann.annotation, fn, ud);
        mt_ast_walk(n->u.ann.value, fn, ud);
        break;
    case ND_FOR:
        mt_ast_walk(n->u.for_.target, fn, ud);
        mt_ast_walk(n->u.for_.iter, fn, ud);
        walk_list(&n->u.for_.body, fn, ud);
        walk_list(&n->u.for_.orelse, fn, ud);
        break;
    case ND_IF:
        mt_ast_walk(n->u.if_.test, fn, ud);
        walk_list(&n->u.if_.body, fn, ud);
        walk_list(&n->u.if_.orelse, fn, ud);
        break;
    case ND_WHILE:
        mt_ast_walk(n->u.while_.test, fn, ud);
        walk_list(&n->u.while_.body, fn, ud);
        walk_list(&n->u.while_.orelse, fn, ud);
        break;
    case ND_ASSERT:
        mt_ast_walk(n->u.assert_.test, fn, ud);
        mt_ast_walk(n->u.assert_.msg, fn, ud);
        break;
    default:
        break;
    }
}

void mt_ast_walk_body(const MtFuncDef *f, MtAstVisit fn, void *ud)
{
    for (uint32_t i = 0; i < f->nparams; i++) {
        mt_ast_walk(f->params[i].annotation, fn, ud);
        mt_ast_walk(f->params[i].default_, fn, ud);
    }
    walk_list(&f->body, fn, ud);
}
