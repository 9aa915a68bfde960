/* check_github.c: `--format github`, for a GitHub Actions step.
 *
 * The runner turns workflow commands on standard output into annotations
 * on the pull request's diff:
 *
 *   ::error file=kernels/add.py,line=10,col=23,endLine=10,endColumn=28,title=E0402::cannot broadcast ...
 *
 * (::warning for warnings, ::notice for infos). GitHub keeps only 10
 * annotations of each kind per step, so at most 10 commands are printed in
 * all, errors first, then warnings, then notices: the annotations a
 * reviewer sees are the ones that fail the build. Every finding, the
 * annotated ones included, goes into a Markdown table in the job summary
 * ($GITHUB_STEP_SUMMARY, appended; standard error when it is not set).
 *
 * Escaping follows the runner's rules: in the message, % CR LF become %25
 * %0D %0A; in property values also : and , (%3A %2C), the property
 * delimiters. Columns are Unicode code points; col/endColumn are left out
 * for a range that spans lines, which annotations cannot show. Notes are
 * appended to the message on lines of their own. */
#include <stdlib.h>
#include <string.h>

#include "check_report.h"

enum { MAX_ANNOTATIONS = 10 };

static void escape(FILE *out, const char *s, bool property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%': fputs("%25", out); break;
        case '\r': fputs("%0D", out); break;
        case '\n': fputs("%0A", out); break;
        case ':': fputs(property ? "%3A" : ":", out); break;
        case ',': fputs(property ? "%2C" : ",", out); break;
        default: fputc(*s, out);
        }
    }
}

static const char *command(MtSeverity s)
{
    return s == MT_SEV_ERROR ? "error" : s == MT_SEV_WARNING ? "warning" : "notice";
}

static void annotate(CkReport *r, FILE *out, const CkFinding *f)
{
    const CkFile *file = &r->files[f->file];
    fprintf(out, "::%s file=", command(f->sev));
    escape(out, file->rel, true);
    if (f->loc.line) {
        fprintf(out, ",line=%u", f->loc.line);
        if (f->loc.end_line == f->loc.line)
            fprintf(out, ",col=%u", f->loc.ucol);
        fprintf(out, ",endLine=%u", f->loc.end_line);
        if (f->loc.end_line == f->loc.line)
            fprintf(out, ",endColumn=%u", f->loc.uend_col);
    }
    fputs(",title=", out);
    escape(out, f->code ? f->code : "internal-error", true);
    fputs("::", out);
    escape(out, f->msg, false);
    for (uint32_t i = 0; i < f->nnotes; i++) {
        char where[64] = "";
        if (f->notes[i].loc.line)
            snprintf(where, sizeof where, " (line %u)", f->notes[i].loc.line);
        fprintf(out, "%%0Anote%s: ", where);
        escape(out, f->notes[i].msg, false);
    }
    fputc('\n', out);
}

/* Text for a Markdown table cell: no pipes, no line breaks, no HTML. */
static void cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '|': fputs("\\|", out); break;
        case '\n': fputs("<br>", out); break;
        case '\r': break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '`': fputs("\\`", out); break;
        case '*': fputs("\\*", out); break;
        case '_': fputs("\\_", out); break;
        case '[': fputs("\\[", out); break;
        case ']': fputs("\\]", out); break;
        default: fputc(*s, out);
        }
    }
}

static void summary_md(CkReport *r, const CkOptions *o, FILE *out, const size_t *idx, size_t n)
{
    char *line = ck_summary_line(r);
    fprintf(out, "### mytriton check\n\n%s\n\n", line);
    free(line);
    if (!n) {
        fputs("No findings.\n\n", out);
        return;
    }
    fputs("| Severity | Rule | Location | Kernel | Message |\n| --- | --- | --- | --- | --- |\n", out);
    for (size_t i = 0; i < n; i++) {
        const CkFinding *f = &r->findings[idx[i]];
        const char *kernel = f->result >= 0 ? r->results[f->result].kernel : NULL;
        fprintf(out, "| %s | ", mt_severity_name(f->sev));
        if (f->code && o->docs_url)
            fprintf(out, "[%s](%srules/%s.md)", f->code, o->docs_url, f->code);
        else if (f->code)
            fputs(f->code, out);
        else
            fputs("internal-error", out);
        fputs(" | ", out);
        cell(out, r->files[f->file].rel);
        if (f->loc.line)
            fprintf(out, ":%u:%u", f->loc.line, f->loc.ucol);
        fputs(" | ", out);
        cell(out, kernel ? kernel : "");
        fputs(" | ", out);
        cell(out, f->msg);
        for (uint32_t k = 0; k < f->nnotes; k++) {
            fputs("<br>note: ", out);
            cell(out, f->notes[k].msg);
        }
        fputs(" |\n", out);
    }
    fputc('\n', out);
}

void ck_format_github(CkReport *r, const CkOptions *o, FILE *out, FILE *summary)
{
    size_t *idx;
    size_t n = ck_visible(r, true, &idx);
    for (size_t i = 0; i < n && i < MAX_ANNOTATIONS; i++)
        annotate(r, out, &r->findings[idx[i]]);
    if (n > MAX_ANNOTATIONS)
        fprintf(out, "mytriton check: %zu more findings are not annotated (GitHub shows %d per step); the job summary "
                     "lists all %zu\n", n - MAX_ANNOTATIONS, MAX_ANNOTATIONS, n);
    char *line = ck_summary_line(r);
    fprintf(out, "%s\n", line);
    free(line);
    summary_md(r, o, summary, idx, n);
    free(idx);
}
