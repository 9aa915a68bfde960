/* guard.c: who may talk to the dashboard.
 *
 * Three checks, on the headers, before a request is routed:
 *
 *  - Host: must name this server (a loopback name, the bound host, the
 *    machine's name when bound to a wildcard, or an --allow-host name; any
 *    IP literal when bound to a wildcard). A web page elsewhere can point
 *    its own DNS name at 127.0.0.1 (DNS rebinding); its requests then carry
 *    its name in Host and are refused.
 *  - Origin: a browser sends it on cross-origin requests and on every
 *    POST; when present it must be this server (http:// + the Host
 *    header). Sec-Fetch-Site "cross-site" is refused as well.
 *  - Token: when the server has one, every request carries it, in
 *    `Authorization: Bearer T`, `X-Mytriton-Token: T`, the
 *    `mytriton_token` cookie, or `?token=T` (the printed URL; the page then
 *    moves it into the cookie, see assets.c). Compared in constant time.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "web_int.h"

bool mt_web_addr_is_loopback(const void *sockaddr)
{
    const struct sockaddr *sa = sockaddr;
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a))
            return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

/* The host part of a Host header ("name:port", "[v6]:port"), into out. */
static bool host_part(const char *h, char *out, size_t n)
{
    size_t len;
    if (h[0] == '[') {
        const char *close = strchr(h, ']');
        if (!close)
            return false;
        len = (size_t)(close - h) + 1;
    } else {
        const char *colon = strchr(h, ':');
        len = colon ? (size_t)(colon - h) : strlen(h);
    }
    if (!len || len >= n)
        return false;
    memcpy(out, h, len);
    out[len] = 0;
    return true;
}

static bool ip_literal(const char *h)
{
    unsigned char buf[sizeof(struct in6_addr)];
    if (inet_pton(AF_INET, h, buf) == 1)
        return true;
    size_t n = strlen(h);
    if (n < 3 || h[0] != '[' || h[n - 1] != ']')
        return false;
    char v6[64];
    if (n - 2 >= sizeof v6)
        return false;
    memcpy(v6, h + 1, n - 2);
    v6[n - 2] = 0;
    return inet_pton(AF_INET6, v6, buf) == 1;
}

static bool host_allowed(const MtWebServer *s, const char *header)
{
    char h[300];
    if (!header || !host_part(header, h, sizeof h))
        return false;
    for (size_t i = 0; i < s->nhosts; i++)
        if (!strcasecmp(s->hosts[i], h))
            return true;
    return s->any_ip_host && ip_literal(h);
}

static bool same_text(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned char diff = (unsigned char)(na != nb);
    for (size_t i = 0; i < na && i < nb; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

static bool token_ok(WebReq *r)
{
    const char *want = r->s->token;
    const char *got = mt_web_header(r, "X-Mytriton-Token");
    if (got && same_text(got, want))
        return true;
    const char *auth = mt_web_header(r, MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth && !strncasecmp(auth, "Bearer ", 7) && same_text(auth + 7, want))
        return true;
    got = MHD_lookup_connection_value(r->conn, MHD_COOKIE_KIND, "mytriton_token");
    if (got && same_text(got, want))
        return true;
    got = mt_web_arg(r, "token");
    return got && same_text(got, want);
}

bool mt_web_guard(WebReq *r)
{
    const char *host = mt_web_header(r, MHD_HTTP_HEADER_HOST);
    if (!host_allowed(r->s, host)) {
        mt_web_reply_error(r, 403, "bad_host", NULL,
                           "the Host header '%s' does not name this server (start it with --allow-host NAME to "
                           "accept that name)",
                           host ? host : "");
        return false;
    }
    const char *origin = mt_web_header(r, "Origin");
    if (origin) {
        char want[400];
        snprintf(want, sizeof want, "http://%s", host);
        if (strcasecmp(origin, want)) {
            mt_web_reply_error(r, 403, "bad_origin", NULL, "requests from %s are not accepted", origin);
            return false;
        }
    }
    const char *site = mt_web_header(r, "Sec-Fetch-Site");
    if (site && !strcasecmp(site, "cross-site")) {
        mt_web_reply_error(r, 403, "bad_origin", NULL, "cross-site requests are not accepted");
        return false;
    }
    if (r->s->token && !token_ok(r)) {
        mt_web_reply_error(r, 401, "token", NULL,
                           "this dashboard needs its token: open the URL `mytriton serve` printed (with ?token=), "
                           "or send the header 'Authorization: Bearer TOKEN'");
        return false;
    }
    return true;
}
