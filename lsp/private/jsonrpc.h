/* jsonrpc.h: JSON-RPC 2.0 messages over the LSP base protocol framing
 * (`Content-Length: N\r\n\r\n` + N bytes of JSON) on two file descriptors. */
#ifndef MT_LSP_JSONRPC_H
#define MT_LSP_JSONRPC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_INTERNAL_ERROR = -32603,
    RPC_SERVER_NOT_INITIALIZED = -32002,
    RPC_REQUEST_CANCELLED = -32800,
    RPC_REQUEST_FAILED = -32803,
};

enum { RPC_MAX_MESSAGE = 64 << 20 }; /* bytes; longer bodies are skipped */

typedef struct Rpc {
    int in, out;
    char *buf;                /* unread input */
    size_t len, cap;
    size_t skip;              /* bytes of an oversized body still to discard */
    bool eof;
} Rpc;

typedef enum RpcRead {
    RPC_MESSAGE,              /* *body holds one message (malloc'ed, NUL-terminated) */
    RPC_EOF,                  /* input closed */
    RPC_BAD_FRAME,            /* a header or body that breaks the framing; skipped, *body = NULL */
} RpcRead;

void mt_lsp_rpc_init(Rpc *r, int in, int out);
void mt_lsp_rpc_free(Rpc *r);
/* Read the next message, blocking. */
RpcRead mt_lsp_rpc_read(Rpc *r, char **body);
/* Whether a whole message is buffered or more input can be read without
 * blocking (the server drains such input before running a request, so a
 * $/cancelRequest or a newer edit is seen first). */
bool mt_lsp_rpc_ready(Rpc *r);
/* Frame and send a message; strings that are not valid UTF-8 are repaired
 * (U+FFFD) so the client always gets valid JSON. Takes ownership of msg. */
bool mt_lsp_rpc_send(Rpc *r, cJSON *msg);

cJSON *mt_lsp_rpc_result(const cJSON *id, cJSON *result);
cJSON *mt_lsp_rpc_error(const cJSON *id, int code, const char *message);
cJSON *mt_lsp_rpc_notification(const char *method, cJSON *params);

#endif
