/* check_report.c: the storage of a `mytriton check` report and what every
 * format shares: fingerprints, counts, the summary line, the output order.
 *
 * Fingerprints identify a finding across runs while the code around it
 * moves, for SARIF's partialFingerprints and for baselines. A finding's
 * fingerprint is the SHA-256 (first 16 bytes, hex) of
 *
 *   "mytriton/v1" NUL rule NUL file NUL kernel NUL line-text NUL occurrence
 *
 * where file is the path relative to the root, kernel the kernel being
 * compiled ("" for a file-level finding), line-text the flagged source line
 * with leading and trailing white space dropped and inner runs of white
 * space collapsed to one space, and occurrence counts the earlier findings
 * with the same first five parts (0, 1, ...), so two identical findings
 * differ. Line and column numbers and the message stay out: inserting a
 * line above a finding, or rewording a message, keeps its identity. */
#include <stdlib.h>
#include <string.h>

#include "check_report.h"
#include "kcache.h"

_Noreturn void ck_oom(CkReport *r)
{
    longjmp(*r->oom, 1);
}

void *ck_alloc(CkReport *r, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        ck_oom(r);
    return p;
}

char *ck_strndup(CkReport *r, const char *s, size_t n)
{
    char *p = ck_alloc(r, n + 1);
    memcpy(p, s, n);
    return p;
}

char *ck_strdup(CkReport *r, const char *s)
{
    return ck_strndup(r, s, strlen(s));
}

void ck_reserve(CkReport *r, void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *nv = realloc(*v, ncap * size);
    if (!nv)
        ck_oom(r);
    memset((char *)nv + *cap * size, 0, (ncap - *cap) * size);
    *v = nv;
    *cap = ncap;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
        return 0; /* overlong, surrogate */
    if (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
        return 0; /* overlong, above U+10FFFF */
    return len;
}

char *ck_utf8_clean(CkReport *r, const char *s, size_t n)
{
    char *out = ck_alloc(r, n * 3 + 1);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_len((const unsigned char *)s + i, n - i);
        if (len) {
            memcpy(out + k, s + i, len);
            k += len;
            i += len;
        } else {
            memcpy(out + k, "\xEF\xBF\xBD", 3);
            k += 3;
            i++;
        }
    }
    out[k] = 0;
    return out;
}

void ck_report_free(CkReport *r)
{
    for (size_t i = 0; i < r->nfiles; i++) {
        free(r->files[i].path);
        free(r->files[i].rel);
    }
    for (size_t i = 0; i < r->nresults; i++) {
        free(r->results[i].kernel);
        free(r->results[i].signature);
    }
    for (size_t i = 0; i < r->nfindings; i++) {
        CkFinding *f = &r->findings[i];
        free(f->code);
        free(f->msg);
        free(f->rendered);
        free(f->fingerprint);
        free(f->line_text);
        for (uint32_t k = 0; k < f->nnotes; k++)
            free(f->notes[k].msg);
        free(f->notes);
    }
    free(r->files);
    free(r->results);
    free(r->findings);
    free(r->root);
    memset(r, 0, sizeof *r);
}

size_t ck_add_file(CkReport *r, const char *path, const char *rel, bool in_root)
{
    ck_reserve(r, (void **)&r->files, &r->capfiles, r->nfiles + 1, sizeof *r->files);
    CkFile *f = &r->files[r->nfiles];
    f->path = ck_strdup(r, path);
    f->rel = ck_strdup(r, rel);
    f->in_root = in_root;
    return r->nfiles++;
}

static const char *kernel_of(const CkReport *r, const CkFinding *f)
{
    const char *k = f->result >= 0 ? r->results[f->result].kernel : NULL;
    return k ? k : "";
}

static void hash_part(MtSha256 *h, const char *s)
{
    mt_sha256_update(h, s, strlen(s) + 1);
}

void ck_fingerprint_all(CkReport *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        CkFinding *f = &r->findings[i];
        const char *code = f->code ? f->code : "";
        unsigned occurrence = 0;
        for (size_t j = 0; j < i; j++) {
            const CkFinding *g = &r->findings[j];
            occurrence += g->file == f->file && !strcmp(g->code ? g->code : "", code) &&
                          !strcmp(kernel_of(r, g), kernel_of(r, f)) && !strcmp(g->line_text, f->line_text);
        }
        char occ[24];
        snprintf(occ, sizeof occ, "%u", occurrence);
        MtSha256 h;
        mt_sha256_init(&h);
        hash_part(&h, CK_FINGERPRINT_KEY);
        hash_part(&h, code);
        hash_part(&h, r->files[f->file].rel);
        hash_part(&h, kernel_of(r, f));
        hash_part(&h, f->line_text);
        hash_part(&h, occ);
        uint8_t digest[32];
        mt_sha256_final(&h, digest);
        char hex[65];
        mt_sha256_hex(digest, hex);
        f->fingerprint = ck_strndup(r, hex, 32);
    }
}

CkCounts ck_counts(const CkReport *r)
{
    CkCounts n = {.files = r->nfiles, .suppressed = r->nsuppressed};
    for (size_t i = 0; i < r->nresults; i++) {
        if (!r->results[i].kernel)
            continue;
        n.kernels++;
        if (r->results[i].status == CK_SKIPPED)
            n.skipped++;
        else
            n.checked++;
    }
    for (size_t i = 0; i < r->nfindings; i++) {
        const CkFinding *f = &r->findings[i];
        if (f->suppressed)
            continue;
        n.errors += f->sev == MT_SEV_ERROR;
        n.warnings += f->sev == MT_SEV_WARNING;
        n.infos += f->sev == MT_SEV_INFO;
    }
    return n;
}

CkStatus ck_status(const CkReport *r, size_t result)
{
    if (r->results[result].status != CK_FAILED)
        return r->results[result].status;
    size_t errors = 0, shown = 0;
    for (size_t i = 0; i < r->nfindings; i++) {
        const CkFinding *f = &r->findings[i];
        if (f->result == (long)result && f->sev == MT_SEV_ERROR) {
            errors++;
            shown += !f->suppressed;
        }
    }
    return errors && !shown ? CK_PASSED : CK_FAILED;
}

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

char *ck_summary_line(CkReport *r)
{
    CkCounts n = ck_counts(r);
    char buf[512];
    int len = snprintf(buf, sizeof buf, "%zu %s, %zu %s checked, %zu skipped: %zu %s, %zu %s", n.files,
                       plural(n.files, "file", "files"), n.checked, plural(n.checked, "kernel", "kernels"), n.skipped,
                       n.errors, plural(n.errors, "error", "errors"), n.warnings,
                       plural(n.warnings, "warning", "warnings"));
    if (n.suppressed && len > 0 && (size_t)len < sizeof buf)
        snprintf(buf + len, sizeof buf - (size_t)len, " (%zu suppressed by the baseline)", n.suppressed);
    return ck_strdup(r, buf);
}

size_t ck_visible(CkReport *r, bool errors_first, size_t **out)
{
    size_t *idx = ck_alloc(r, (r->nfindings + 1) * sizeof *idx);
    size_t n = 0;
    /* Severities in enum order (error, warning, info) when sorting; one
     * pass in collection order otherwise. */
    for (int sev = MT_SEV_ERROR; sev <= (errors_first ? MT_SEV_INFO : MT_SEV_ERROR); sev++)
        for (size_t i = 0; i < r->nfindings; i++)
            if (!r->findings[i].suppressed && (!errors_first || (int)r->findings[i].sev == sev))
                idx[n++] = i;
    *out = idx;
    return n;
}

char *ck_result_name(CkReport *r, const CkResult *res)
{
    if (!res->kernel)
        return ck_strdup(r, "(parse)");
    const char *sig = res->signature ? res->signature : "?";
    size_t n = strlen(res->kernel) + strlen(sig) + 3;
    char *s = ck_alloc(r, n);
    snprintf(s, n, "%s[%s]", res->kernel, sig);
    return s;
}

bool ck_out_open(CkOut *o)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    return o->f != NULL;
}

bool ck_out_close(CkOut *o)
{
    bool ok = !ferror(o->f);
    if (fclose(o->f) != 0)
        ok = false;
    o->f = NULL;
    return ok;
}
