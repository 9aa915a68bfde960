/* history.c: every run the dashboard made, kept in SQLite so it survives
 * restarts and can be listed, reopened and compared.
 *
 *   sources(sha256 PRIMARY KEY, text)     each distinct kernel text once
 *   runs(id, created, status, path, kernel, source_sha256, signature,
 *        backend, compare, profile, device, time_ms, error, request, result)
 *
 * `request` is the launch request as the page sent it (spec, inputs,
 * options) and `result` the worker's result document, both JSON text. The
 * output arrays themselves are .npy files in the run's folder (runs.c).
 *
 * One connection, opened in serialized mode and guarded by a mutex: the
 * writes are few and small (a row per run), so one writer at a time costs
 * nothing, and WAL journaling lets a reader of the file (sqlite3 on the
 * command line) look while the server runs. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history.h"

struct WebHistory {
    sqlite3 *db;
    pthread_mutex_t lock;
};

static const char schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA foreign_keys=ON;"
    "CREATE TABLE IF NOT EXISTS sources(sha256 TEXT PRIMARY KEY, text TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS runs("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " created REAL NOT NULL,"
    " status TEXT NOT NULL,"
    " path TEXT, kernel TEXT,"
    " source_sha256 TEXT REFERENCES sources(sha256),"
    " signature TEXT, backend TEXT NOT NULL,"
    " compare INTEGER NOT NULL DEFAULT 0, profile INTEGER NOT NULL DEFAULT 0,"
    " device TEXT, time_ms REAL, error TEXT,"
    " request TEXT NOT NULL, result TEXT);"
    "CREATE INDEX IF NOT EXISTS runs_kernel ON runs(kernel, id);"
    "UPDATE runs SET status='error', error='the dashboard stopped before this run finished'"
    " WHERE status IN ('queued','running');";

WebHistory *mt_web_history_open(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/history.sqlite3", dir);
    WebHistory *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    char *msg = NULL;
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(h->db, 5000);
        rc = sqlite3_exec(h->db, schema, NULL, NULL, &msg);
    }
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "cannot open the run history %s: %s", path,
                 msg ? msg : h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc));
        sqlite3_free(msg);
        sqlite3_close(h->db);
        free(h);
        return NULL;
    }
    pthread_mutex_init(&h->lock, NULL);
    return h;
}

void mt_web_history_close(WebHistory *h)
{
    if (!h)
        return;
    sqlite3_close(h->db);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* Run one statement with bound arguments ("t" text, "i" int64, "d"
 * double, in order); true when it completed. */
static bool exec(WebHistory *h, const char *sql, const char *types, ...)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    va_list ap;
    va_start(ap, types);
    for (int i = 0; types[i]; i++) {
        if (types[i] == 't')
            bind_text(st, i + 1, va_arg(ap, const char *));
        else if (types[i] == 'i')
            sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
        else
            sqlite3_bind_double(st, i + 1, va_arg(ap, double));
    }
    va_end(ap);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

int64_t mt_web_history_add(WebHistory *h, const WebRunRecord *rec, char *err, size_t errlen)
{
    int64_t id = 0;
    pthread_mutex_lock(&h->lock);
    bool ok = exec(h, "INSERT OR IGNORE INTO sources(sha256, text) VALUES(?, ?)", "tt", rec->source_sha256,
                   rec->source) &&
              exec(h,
                   "INSERT INTO runs(created, status, path, kernel, source_sha256, signature, backend, compare, "
                   "profile, request) VALUES(?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?)",
                   "dtttttiit", unix_now(), rec->path, rec->kernel, rec->source_sha256, rec->signature, rec->backend,
                   (int64_t)rec->compare, (int64_t)rec->profile, rec->request);
    if (ok)
        id = sqlite3_last_insert_rowid(h->db);
    else
        snprintf(err, errlen, "cannot record the run: %s", sqlite3_errmsg(h->db));
    pthread_mutex_unlock(&h->lock);
    return id;
}

void mt_web_history_started(WebHistory *h, int64_t id, const char *device)
{
    pthread_mutex_lock(&h->lock);
    exec(h, "UPDATE runs SET status='running', device=? WHERE id=?", "ti", device, id);
    pthread_mutex_unlock(&h->lock);
}

void mt_web_history_finish(WebHistory *h, int64_t id, const char *status, double time_ms, const char *error,
                           const cJSON *result)
{
    char *json = result ? cJSON_PrintUnformatted(result) : NULL;
    pthread_mutex_lock(&h->lock);
    if (time_ms >= 0)
        exec(h, "UPDATE runs SET status=?, time_ms=?, error=?, result=? WHERE id=?", "tdtti", status, time_ms, error,
             json, id);
    else
        exec(h, "UPDATE runs SET status=?, error=?, result=? WHERE id=?", "ttti", status, error, json, id);
    pthread_mutex_unlock(&h->lock);
    cJSON_free(json);
}

static const char columns[] = "r.id, r.created, r.status, r.path, r.kernel, r.source_sha256, r.signature, "
                              "r.backend, r.compare, r.profile, r.device, r.time_ms, r.error";

/* The row's columns (in the order of `columns`) as an object. */
static cJSON *row_json(sqlite3_stmt *st)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)sqlite3_column_int64(st, 0));
    time_t t = (time_t)sqlite3_column_double(st, 1);
    struct tm tm;
    char when[40];
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(o, "created", when);
    static const char *const text_cols[] = {NULL, NULL, "status", "path", "kernel", "source_sha256", "signature",
                                            "backend"};
    for (int i = 2; i <= 7; i++) {
        const unsigned char *v = sqlite3_column_text(st, i);
        if (v)
            cJSON_AddStringToObject(o, text_cols[i], (const char *)v);
        else
            cJSON_AddNullToObject(o, text_cols[i]);
    }
    cJSON_AddBoolToObject(o, "compare", sqlite3_column_int(st, 8));
    cJSON_AddNumberToObject(o, "profile", sqlite3_column_int(st, 9));
    const unsigned char *dev = sqlite3_column_text(st, 10);
    if (dev)
        cJSON_AddStringToObject(o, "device", (const char *)dev);
    if (sqlite3_column_type(st, 11) != SQLITE_NULL)
        cJSON_AddNumberToObject(o, "time_ms", sqlite3_column_double(st, 11));
    const unsigned char *error = sqlite3_column_text(st, 12);
    if (error)
        cJSON_AddStringToObject(o, "error", (const char *)error);
    return o;
}

cJSON *mt_web_history_get(WebHistory *h, int64_t id, bool full)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT %s, s.text, r.request, r.result FROM runs r LEFT JOIN sources s ON s.sha256 = r.source_sha256 "
             "WHERE r.id = ?",
             columns);
    cJSON *o = NULL;
    pthread_mutex_lock(&h->lock);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        if (sqlite3_step(st) == SQLITE_ROW) {
            o = row_json(st);
            if (full) {
                const unsigned char *src = sqlite3_column_text(st, 13);
                cJSON_AddStringToObject(o, "source", src ? (const char *)src : "");
                const char *req = (const char *)sqlite3_column_text(st, 14);
                const char *res = (const char *)sqlite3_column_text(st, 15);
                cJSON *rq = req ? cJSON_Parse(req) : NULL, *rs = res ? cJSON_Parse(res) : NULL;
                cJSON_AddItemToObject(o, "request", rq ? rq : cJSON_CreateNull());
                cJSON_AddItemToObject(o, "result", rs ? rs : cJSON_CreateNull());
            }
        }
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&h->lock);
    return o;
}

cJSON *mt_web_history_list(WebHistory *h, int limit, int64_t before, const char *kernel)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM runs r WHERE (?1 = 0 OR r.id < ?1) AND (?2 IS NULL OR r.kernel = ?2) ORDER BY r.id DESC "
             "LIMIT ?3",
             columns);
    cJSON *a = cJSON_CreateArray();
    pthread_mutex_lock(&h->lock);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, before);
        bind_text(st, 2, kernel);
        sqlite3_bind_int(st, 3, limit);
        while (sqlite3_step(st) == SQLITE_ROW)
            cJSON_AddItemToArray(a, row_json(st));
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&h->lock);
    return a;
}

bool mt_web_history_delete(WebHistory *h, int64_t id)
{
    pthread_mutex_lock(&h->lock);
    bool ok = exec(h, "DELETE FROM runs WHERE id=?", "i", id) && sqlite3_changes(h->db) > 0;
    pthread_mutex_unlock(&h->lock);
    return ok;
}
