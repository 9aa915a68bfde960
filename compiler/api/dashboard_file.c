/* dashboard_file.c: the rules of a running dashboard's runtime file
 * (mytriton/dashboard.h): where it lives, what it is called, what it
 * holds, and which files it covers. Pure functions over strings and cJSON,
 * so the dashboard (which writes the file) and the language server (which
 * reads it) share them without either doing the other's I/O. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mytriton/dashboard.h"

enum { RUNTIME_VERSION = 1 };

static const char prefix[] = "dashboard-", suffix[] = ".json";

static bool absolute(const char *p) { return p && p[0] == '/'; }

size_t mt_dashboard_runtime_dir(const char *xdg_runtime_dir, const char *xdg_cache_home, const char *home, char *out,
                                size_t cap)
{
    int n = absolute(xdg_runtime_dir)  ? snprintf(out, cap, "%s/mytriton", xdg_runtime_dir)
            : absolute(xdg_cache_home) ? snprintf(out, cap, "%s/mytriton/runtime", xdg_cache_home)
            : absolute(home)           ? snprintf(out, cap, "%s/.cache/mytriton/runtime", home)
                                       : -1;
    if (n < 0 || (size_t)n >= cap) {
        if (cap)
            out[0] = 0;
        return 0;
    }
    return (size_t)n;
}

size_t mt_dashboard_runtime_path(const char *dir, long pid, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/%s%ld%s", dir, prefix, pid, suffix);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

bool mt_dashboard_runtime_name(const char *name)
{
    size_t n = strlen(name), p = sizeof prefix - 1, s = sizeof suffix - 1;
    if (n <= p + s || strncmp(name, prefix, p) || strcmp(name + n - s, suffix))
        return false;
    for (size_t i = p; i < n - s; i++)
        if (name[i] < '0' || name[i] > '9')
            return false;
    return true;
}

cJSON *mt_dashboard_runtime_doc(const char *url, long pid, const char *const *roots, size_t nroots)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", RUNTIME_VERSION);
    cJSON_AddStringToObject(doc, "url", url);
    cJSON_AddNumberToObject(doc, "pid", (double)pid);
    cJSON *r = cJSON_AddArrayToObject(doc, "roots");
    for (size_t i = 0; i < nroots; i++)
        cJSON_AddItemToArray(r, cJSON_CreateString(roots[i]));
    return doc;
}

bool mt_dashboard_runtime_read(const cJSON *doc, MtDashboardRuntime *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *url = cJSON_GetObjectItemCaseSensitive(doc, "url");
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(doc, "pid");
    const cJSON *roots = cJSON_GetObjectItemCaseSensitive(doc, "roots");
    if (!cJSON_IsNumber(v) || v->valueint != RUNTIME_VERSION || !cJSON_IsString(url) ||
        strncmp(url->valuestring, "http://", 7) || !cJSON_IsNumber(pid) || pid->valuedouble < 1 ||
        pid->valuedouble > INT32_MAX || pid->valuedouble != (double)(long)pid->valuedouble || !cJSON_IsArray(roots))
        return false;
    const cJSON *r;
    cJSON_ArrayForEach(r, roots) if (!cJSON_IsString(r) || !absolute(r->valuestring)) return false;
    out->url = url->valuestring;
    out->pid = (long)pid->valuedouble;
    out->roots = roots;
    return true;
}

bool mt_dashboard_serves(const MtDashboardRuntime *r, const char *path)
{
    const cJSON *root;
    cJSON_ArrayForEach(root, r->roots)
    {
        const char *s = root->valuestring;
        size_t n = strlen(s);
        while (n > 1 && s[n - 1] == '/')
            n--;
        if (!strncmp(path, s, n) && (path[n] == 0 || path[n] == '/' || (n == 1 && s[0] == '/')))
            return true;
    }
    return false;
}
