/* server.h: state shared by the server's files, and their entry points.
 *
 * One Server per session. Requests are dispatched by server.c to one
 * handler each; a handler gets the params object and returns the result
 * (cJSON, owned by the caller) or NULL with an error code and message. */
#ifndef MT_LSP_SERVER_H
#define MT_LSP_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "documents.h"
#include "jsonrpc.h"
#include "mytriton/mytriton.h"

typedef struct Server {
    Rpc rpc;
    Docs docs;
    PosEncoding enc;
    Settings settings;
    Project project;          /* project-file cache */
    const char *rules_url;    /* from the options; settings.rules_url overrides */
    bool initialized;         /* `initialize` answered */
    bool shutdown;
    bool exiting;
    bool markdown;            /* the client renders Markdown hovers */
    bool hierarchical_symbols;
    bool related_information;
    bool config_pull;         /* the client answers workspace/configuration */
    int64_t next_request;     /* id of our next request to the client */
    int64_t config_request;   /* id of the pending workspace/configuration request, or -1 */
} Server;

typedef struct RpcErr {
    int code;
    const char *message;
} RpcErr;

typedef cJSON *(*Handler)(Server *s, const cJSON *params, RpcErr *err);

/* ---- protocol.c: LSP structures <-> documents ---- */
/* The open document named by params.textDocument.uri, or NULL (err set
 * when the parameter itself is missing; a closed document is no error). */
Doc *mt_lsp_proto_doc(Server *s, const cJSON *params, RpcErr *err);
/* params.position (or the named member) as a byte offset of d. */
bool mt_lsp_proto_offset(Server *s, const Doc *d, const cJSON *pos, uint32_t *off, RpcErr *err);
cJSON *mt_lsp_proto_position(const Server *s, const Doc *d, uint32_t off);
cJSON *mt_lsp_proto_range(const Server *s, const Doc *d, uint32_t off, uint32_t end);
/* The range of a compiler span; a span without a line is the file start. */
cJSON *mt_lsp_proto_span(const Server *s, const Doc *d, MtSpan sp);
cJSON *mt_lsp_proto_location(const Server *s, const Doc *d, MtSpan sp);
/* An integer member, or def when absent / not a number. */
int64_t mt_lsp_proto_int(const cJSON *o, const char *name, int64_t def);
const char *mt_lsp_proto_str(const cJSON *o, const char *name);

/* ---- analysis.c ---- */
/* Parse and compile every kernel of d if its text changed since the last time. */
void mt_lsp_analyse(Server *s, Doc *d);
/* The kernel whose `def` holds off, or NULL. */
Kernel *mt_lsp_kernel_at(Doc *d, uint32_t off);
/* A compiled kernel with a typed expression tree whose code (its own or an
 * inlined helper's) answers `mt_query_value_at` at off. */
Kernel *mt_lsp_kernel_with_value(Doc *d, uint32_t off, MtQueryValue *v);
/* Whether the analysis found a parse error inside [off, end). */
bool mt_lsp_parse_error_in(const Doc *d, uint32_t off, uint32_t end);

/* ---- lsp_diag.c ---- */
cJSON *mt_lsp_diag_to_lsp(Server *s, Doc *d, const MtDiag *g);
/* textDocument/publishDiagnostics params for the last analysis of d. */
cJSON *mt_lsp_diag_publish(Server *s, Doc *d);

/* ---- tl_api.c ---- */
typedef struct TlParam {
    const char *name;
    const char *doc;
} TlParam;
typedef struct TlFunc {
    const char *name;         /* "load" (tl.load) */
    const char *signature;    /* "tl.load(pointer, mask=None, other=None)" */
    const char *returns;      /* "a block like pointer, of its element type" */
    const char *doc;
    const TlParam *params;
    int nparams;
    int kind;                 /* LSP CompletionItemKind */
} TlFunc;
const TlFunc *mt_lsp_tl_find(const char *name, size_t len);
const TlFunc *mt_lsp_tl_at(size_t i);
/* Whether the '.' at byte `dot` follows a name of triton.language. */
bool mt_lsp_tl_module_at(Doc *d, uint32_t dot);
/* Whether the identifier ending at text+end is preceded by `<module>.`
 * where <module> names triton.language in d (tl, triton.language, an
 * alias); sets *start to the attribute's first byte. */
bool mt_lsp_tl_attribute(Doc *d, uint32_t off, uint32_t *start, uint32_t *end, const TlFunc **f);
/* Markdown (or plain) documentation of f. */
char *mt_lsp_tl_markdown(const TlFunc *f, bool markdown);

/* ---- request handlers (one file each) ---- */
cJSON *mt_lsp_handle_hover(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_definition(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_document_symbol(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_completion(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_signature_help(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_code_action(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_code_lens(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_inlay_hint(Server *s, const cJSON *params, RpcErr *err);
cJSON *mt_lsp_handle_stages(Server *s, const cJSON *params, RpcErr *err);

#endif
