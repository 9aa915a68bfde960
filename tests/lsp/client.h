/* client.h: a minimal LSP client for the tests: runs `mytriton lsp` as a
 * child process and exchanges framed JSON-RPC messages with timeouts. */
#ifndef MT_TEST_LSP_CLIENT_H
#define MT_TEST_LSP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

typedef struct Client {
    pid_t pid;
    int to, from;             /* the server's stdin, stdout */
    char *buf;
    size_t len, cap;
    bool eof;
} Client;

bool client_start(Client *c, const char *server, char *const extra_args[]);
/* Send raw bytes (framing included by the caller). */
bool client_send_raw(Client *c, const char *bytes, size_t n);
/* Frame and send a JSON text. */
bool client_send(Client *c, const char *json);
/* The next message, or NULL after timeout_ms or at end of output
 * (*timed_out tells which). */
cJSON *client_recv(Client *c, int timeout_ms, bool *timed_out);
/* Close the server's stdin and wait for it; returns its exit status, or
 * -1 if it had to be killed after timeout_ms, or 128+signal if a signal
 * ended it. */
int client_finish(Client *c, int timeout_ms);
/* Whether the server process is still running. */
bool client_alive(Client *c);

/* Subset match: every member of `want` is in `got` with a matching value;
 * arrays match element by element (same length, or at least as long when
 * the last expected element is "..."); a string "*" matches any
 * value; a string starting with "~" matches a string containing the rest.
 * On mismatch, *where names the first differing path. */
bool json_match(const cJSON *want, const cJSON *got, char *where, size_t n);

#endif
