/* runtime_file.c: the file that tells editors this dashboard is running
 * (mytriton/dashboard.h has its rules): written once the server serves,
 * removed when it stops, so a file whose process is gone is a server that
 * did not stop cleanly, which readers ignore. Only with
 * MtWebOptions.runtime_file (`mytriton serve` sets it; the tests' and
 * benchmarks' servers do not). Its mode is 0600 (mt_web_write_file), as it
 * may hold the token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mytriton/dashboard.h"
#include "web_int.h"

void mt_web_runtime_file_write(MtWebServer *s)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], err[PATH_MAX + 128];
    if (!s->opt.runtime_file)
        return;
    if (!mt_dashboard_runtime_dir(getenv("XDG_RUNTIME_DIR"), getenv("XDG_CACHE_HOME"), getenv("HOME"), dir,
                                  sizeof dir) ||
        !mt_dashboard_runtime_path(dir, (long)getpid(), path, sizeof path)) {
        mt_web_log(s, "no folder for the runtime file (XDG_RUNTIME_DIR, XDG_CACHE_HOME, HOME): editors will not "
                      "find this dashboard");
        return;
    }
    const char **roots = calloc(s->roots.n + 1, sizeof *roots);
    for (size_t i = 0; roots && i < s->roots.n; i++)
        roots[i] = s->roots.v[i].real;
    cJSON *doc = roots ? mt_dashboard_runtime_doc(s->url, (long)getpid(), roots, s->roots.n) : NULL;
    char *text = doc ? cJSON_Print(doc) : NULL;
    if (text && mt_web_mkdirs(dir, err, sizeof err) && mt_web_write_file(path, text, strlen(text), err, sizeof err))
        s->runtime_path = strdup(path);
    else
        mt_web_log(s, "cannot write the runtime file %s: %s; editors will not find this dashboard", path,
                   text ? err : "out of memory");
    free(text);
    cJSON_Delete(doc);
    free(roots);
}

void mt_web_runtime_file_remove(MtWebServer *s)
{
    if (s->runtime_path)
        unlink(s->runtime_path);
    free(s->runtime_path);
    s->runtime_path = NULL;
}
