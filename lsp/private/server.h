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
#include "mytriton/lsp.h"
#include "mytriton/mytriton.h"

/* The autotune config a user picked for a kernel (the lens cycles them). */
typedef struct ConfigChoice {
    char *uri;
    char *kernel;
    uint32_t index;
} ConfigChoice;

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
    bool watch_registration;  /* the client registers file watchers dynamically */
    bool show_document;       /* the client answers window/showDocument */
    bool lens_refresh;        /* the client takes workspace/codeLens/refresh */
    bool inlay_refresh;       /* the client takes workspace/inlayHint/refresh */
    bool client_stages;       /* the client runs mytriton.showStages itself (initializationOptions) */
    int64_t next_request;     /* id of our next request to the client */
    int64_t config_request;   /* id of the pending workspace/configuration request, or -1 */
    ConfigChoice *choices;
    size_t nchoices;
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
/* The kernel whose `def` (up to the end of its indented block) holds off, or NULL. */
Kernel *mt_lsp_kernel_at(Doc *d, uint32_t off);
/* A compiled kernel with a typed expression tree whose code (its own or an
 * inlined helper's) answers `mt_query_value_at` at off. */
Kernel *mt_lsp_kernel_with_value(Doc *d, uint32_t off, MtQueryValue *v);
/* Whether the analysis found a parse error inside [off, end). */
bool mt_lsp_parse_error_in(const Doc *d, uint32_t off, uint32_t end);
/* The discovered parameter whose name (in a kernel's `def`) holds off. */
const MtFound *mt_lsp_found_at(const Doc *d, uint32_t off, const Kernel **kernel);
/* The discovered parameter of k with that name, or NULL. */
const MtFound *mt_lsp_found_named(const Kernel *k, const char *name);

/* ---- mlir.c: the MLIR of a line, for hovers ---- */
/* Kernel k of the analysis in ctx compiled through the MLIR backend up
 * to `last` (MT_STAGE_MLIR or MT_STAGE_MLIR_LLVM): made the first time,
 * then kept in k->mlir. Its `k` is NULL when the compile failed, `why`
 * saying why (E1001 where the backend is unavailable). NULL when k has no
 * specialisation to compile (or memory ran out). */
const KernelMlir *mt_lsp_kernel_mlir(MtCtx *ctx, Kernel *k, int last);
/* Free an analysis's kernels and the MLIR compiles they hold. */
void mt_lsp_kernels_free(Kernel *v, size_t n);

/* ---- commands.c: workspace/executeCommand and the choices it records ---- */
/* The autotune config picked for a kernel of a document (0: the first). */
uint32_t mt_lsp_config_choice(const Server *s, const char *uri, const char *kernel);
void mt_lsp_choices_free(Server *s);
/* The server's commands, for the initialize reply. */
cJSON *mt_lsp_command_list(const Server *s);
cJSON *mt_lsp_handle_execute_command(Server *s, const cJSON *params, RpcErr *err);
/* Send a request to the client that expects no answer we use. */
void mt_lsp_send_request(Server *s, const char *method, cJSON *params);
/* Ask clients that support it to refresh lenses and inlay hints. */
void mt_lsp_refresh_views(Server *s);

/* ---- mux.c: mytriton beside another language server ---- */
/* Serve one session with mytriton and opt->with merged (mux.c explains). */
int mt_lsp_serve_with(int in_fd, int out_fd, const MtLspOptions *opt);

/* ---- package.c: the other modules of the document's folder ---- */
/* Parse into d's context the .py files of its folder that name one of its
 * kernels (open documents' text, else the disk); a malloc'ed array. */
size_t mt_lsp_package_modules(Server *s, Doc *d, const MtModule ***out);
/* Whether a diagnostic belongs to d's own file (not to a package module). */
bool mt_lsp_diag_in_doc(const Doc *d, const MtDiag *g);

/* ---- fallback.c: the last good analysis, for unchanged lines ---- */
/* Before an analysis: keep the current one as the fallback if it is good. */
void mt_lsp_keep_good(Doc *d);
/* After an analysis: how positions map between the text and the fallback's. */
void mt_lsp_map_texts(Doc *d);
bool mt_lsp_to_good(const Doc *d, uint32_t off, uint32_t *old);
bool mt_lsp_from_good(const Doc *d, uint32_t old, uint32_t *off);
/* The fallback's kernel of the same name, when `now` has no complete analysis. */
Kernel *mt_lsp_good_kernel(Doc *d, const Kernel *now);
void mt_lsp_analysis_free(Analysis *a);

/* ---- lsp_diag.c ---- */
cJSON *mt_lsp_diag_to_lsp(Server *s, Doc *d, const MtDiag *g);
/* Whether g is one of d's published diagnostics (its own file; I0902 only
 * when the settings ask for it). */
bool mt_lsp_diag_shown(const Server *s, const Doc *d, const MtDiag *g);
/* textDocument/publishDiagnostics params for the last analysis of d. */
cJSON *mt_lsp_diag_publish(Server *s, Doc *d);

/* ---- builtins.c: the tl API, from the compiler's builtins table ---- */
/* tl.<name> (name not NUL-terminated), or NULL. */
const MtApiEntry *mt_lsp_tl_find(const char *name, size_t len);
/* The attribute name of a triton.language row ("load"), or NULL for any other row. */
const char *mt_lsp_tl_name(const MtApiEntry *e);
/* Its LSP CompletionItemKind. */
int mt_lsp_tl_kind(const MtApiEntry *e);
/* Whether the '.' at byte `dot` follows a name of triton.language. */
bool mt_lsp_tl_module_at(Doc *d, uint32_t dot);
/* Whether the identifier around off is `<module>.X` where <module> names
 * triton.language in d (tl, triton.language, an alias) and X is a row of
 * the table; sets [*start, *end) to X. */
bool mt_lsp_tl_attribute(Doc *d, uint32_t off, uint32_t *start, uint32_t *end, const MtApiEntry **f);
/* "tl.load(pointer, mask=None, ...)" and the Markdown (or plain) docs, malloc'ed. */
char *mt_lsp_tl_signature(const MtApiEntry *e);
char *mt_lsp_tl_markdown(const MtApiEntry *e, bool markdown);
/* The parameters of a function row, with their docs (not NUL-terminated). */
typedef struct TlParam {
    const char *name;
    size_t len;
    const char *doc;
    size_t doclen;
} TlParam;
int mt_lsp_tl_params(const MtApiEntry *e, TlParam *out, int max);

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
