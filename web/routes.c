/* routes.c: the JSON API's endpoints, one table. docs/dashboard.md
 * documents each one; a path not here that does not start with /api/ is
 * one of the page's files (assets.c). */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "web_int.h"

static const WebRoute routes[] = {
    {"GET", "/api/info", mt_web_api_info, WEB_BODY_NONE},
    {"GET", "/api/files", mt_web_api_files, WEB_BODY_NONE},
    {"GET", "/api/file", mt_web_api_file, WEB_BODY_NONE},
    {"POST", "/api/compile", mt_web_api_compile, WEB_BODY_JSON},
    {"POST", "/api/actions", mt_web_api_actions, WEB_BODY_JSON},
    {"POST", "/api/uploads", mt_web_api_upload, WEB_BODY_UPLOAD},
    {"POST", "/api/runs", mt_web_api_run_start, WEB_BODY_JSON},
    {"GET", "/api/runs", mt_web_api_runs, WEB_BODY_NONE},
    {"GET", "/api/runs/{}", mt_web_api_run_get, WEB_BODY_NONE},
    {"DELETE", "/api/runs/{}", mt_web_api_run_delete, WEB_BODY_NONE},
    {"GET", "/api/runs/{}/outputs/{}", mt_web_api_run_output, WEB_BODY_NONE},
    {"GET", "/api/runs/{}/repro", mt_web_api_run_repro, WEB_BODY_NONE},
    {"GET", "/api/events/{}", mt_web_api_events, WEB_BODY_NONE},
    {"GET", "/api/ceilings", mt_web_api_ceilings, WEB_BODY_NONE},
    {"POST", "/api/ceilings", mt_web_api_ceilings_measure, WEB_BODY_JSON},
};

/* Match one pattern; {} takes a non-empty segment without '/'. */
static bool match(const char *pat, const char *path, char *params[WEB_MAX_PARAMS])
{
    int np = 0;
    while (*pat && *path) {
        if (pat[0] == '{' && pat[1] == '}') {
            size_t n = strcspn(path, "/");
            if (!n || np == WEB_MAX_PARAMS)
                return false;
            if (params) {
                params[np] = strndup(path, n);
                if (!params[np])
                    return false;
            }
            np++;
            path += n;
            pat += 2;
        } else if (*pat++ != *path++) {
            return false;
        }
    }
    return !*pat && !*path;
}

static void clear(char *params[WEB_MAX_PARAMS])
{
    for (int i = 0; i < WEB_MAX_PARAMS; i++) {
        free(params[i]);
        params[i] = NULL;
    }
}

const WebRoute *mt_web_route(const char *method, const char *path, char *params[WEB_MAX_PARAMS], bool *path_known)
{
    *path_known = false;
    for (size_t i = 0; i < sizeof routes / sizeof *routes; i++) {
        if (!match(routes[i].pattern, path, NULL))
            continue;
        *path_known = true;
        if (strcmp(routes[i].method, method))
            continue;
        if (match(routes[i].pattern, path, params))
            return &routes[i];
        clear(params);
        return NULL;
    }
    return NULL;
}
