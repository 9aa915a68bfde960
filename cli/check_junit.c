/* check_junit.c: `--format junit`, JUnit XML for CI systems that show test
 * reports (GitLab, Jenkins, Azure, GitHub test-report actions).
 *
 *   <testsuites name="mytriton check" tests failures errors skipped>
 *     <testsuite name=FILE tests failures errors skipped>   one per file with kernels or findings
 *       <testcase classname=FILE name="kernel[signature]" file line>
 *         <failure type=CODE message=FIRST-ERROR>every diagnostic, compiler style</failure>
 *         <skipped message=I0901-MESSAGE/>
 *         <system-out>warnings and infos of a passing kernel</system-out>
 *
 * One test case per kernel specialisation; a file that does not parse is
 * one test case named "(parse)". FILE is the path relative to the root. No
 * time attributes: the report stays byte-for-byte reproducible. Text is
 * escaped for XML 1.0, whose character set has no control characters
 * other than tab, newline and carriage return: the others become U+FFFD. */
#include <stdlib.h>
#include <string.h>

#include "check_report.h"

static void xml(FILE *out, const char *s, bool attr)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs(attr ? "&quot;" : "\"", out); break;
        case '\n': fputs(attr ? "&#10;" : "\n", out); break;
        case '\r': fputs("&#13;", out); break;
        case '\t': fputs(attr ? "&#9;" : "\t", out); break;
        default:
            if (ch < 0x20 || ch == 0x7F)
                fputs("\xEF\xBF\xBD", out);
            else
                fputc(ch, out);
        }
    }
}

typedef struct Tally {
    size_t tests, failures, skipped;
} Tally;

static Tally tally(const CkReport *r, long file)
{
    Tally t = {0};
    for (size_t i = 0; i < r->nresults; i++) {
        if (file >= 0 && r->results[i].file != (size_t)file)
            continue;
        CkStatus s = ck_status(r, i);
        t.tests++;
        t.failures += s == CK_FAILED;
        t.skipped += s == CK_SKIPPED;
    }
    return t;
}

static void testcase(CkReport *r, FILE *out, size_t ri)
{
    const CkResult *res = &r->results[ri];
    const CkFile *file = &r->files[res->file];
    CkStatus status = ck_status(r, ri);
    char *name = ck_result_name(r, res);
    fputs("    <testcase classname=\"", out);
    xml(out, file->rel, true);
    fputs("\" name=\"", out);
    xml(out, name, true);
    fputs("\" file=\"", out);
    xml(out, file->rel, true);
    fprintf(out, "\" line=\"%u\"", res->line);
    free(name);

    const CkFinding *first = NULL;
    bool any = false;
    for (size_t i = 0; i < r->nfindings; i++) {
        const CkFinding *f = &r->findings[i];
        if (f->result != (long)ri || f->suppressed)
            continue;
        any = true;
        if (!first && (status == CK_FAILED ? f->sev == MT_SEV_ERROR : f->code && !strcmp(f->code, "I0901")))
            first = f;
    }
    if (!any && status == CK_PASSED) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    if (status == CK_SKIPPED) {
        fputs("      <skipped message=\"", out);
        xml(out, first ? first->msg : "the kernel cannot be specialised", true);
        fputs("\"/>\n", out);
    }
    if (status == CK_FAILED) {
        fputs("      <failure type=\"", out);
        xml(out, first && first->code ? first->code : "error", true);
        fputs("\" message=\"", out);
        xml(out, first ? first->msg : "compilation failed", true);
        fputs("\">", out);
    } else {
        fputs("      <system-out>", out);
    }
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].result == (long)ri && !r->findings[i].suppressed)
            xml(out, r->findings[i].rendered, false);
    fputs(status == CK_FAILED ? "</failure>\n" : "</system-out>\n", out);
    fputs("    </testcase>\n", out);
}

void ck_format_junit(CkReport *r, const CkOptions *o, FILE *out)
{
    Tally all = tally(r, -1);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<testsuites name=\"mytriton check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
            all.tests, all.failures, all.skipped);
    for (size_t fi = 0; fi < r->nfiles; fi++) {
        Tally t = tally(r, (long)fi);
        bool loose = false; /* file-level findings of a file that parsed */
        for (size_t i = 0; i < r->nfindings; i++)
            loose |= r->findings[i].file == fi && r->findings[i].result < 0 && !r->findings[i].suppressed;
        if (!t.tests && !loose)
            continue;
        fputs("  <testsuite name=\"", out);
        xml(out, r->files[fi].rel, true);
        fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", t.tests, t.failures,
                t.skipped);
        for (size_t ri = 0; ri < r->nresults; ri++)
            if (r->results[ri].file == fi)
                testcase(r, out, ri);
        if (loose) {
            fputs("    <system-out>", out);
            for (size_t i = 0; i < r->nfindings; i++)
                if (r->findings[i].file == fi && r->findings[i].result < 0 && !r->findings[i].suppressed)
                    xml(out, r->findings[i].rendered, false);
            fputs("</system-out>\n", out);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
}
