/* codegen.c: the compiler's side of the MLIR backend.
 *
 * With MtSpec.codegen = MT_CODEGEN_MLIR, mt_compile lowers the kernel with
 * the fast lowering (the kernel layer is what the MLIR backend prints, so
 * both backends agree on layouts and launch shape by construction) and
 * asks the MLIR backend module (plugin.h) for the MT_STAGE_MLIR and
 * MT_STAGE_MLIR_LLVM texts; mt_compiled_mlir_ptx asks it for PTX.
 *
 * The module is found, in order, at $MYTRITON_MLIR_PLUGIN (only there when
 * set), next to the program (<bin>/../lib/mytriton/, the installed
 * layout and the build folder's), and at the path of the build that made
 * this library. It is opened with RTLD_NODELETE on every use: the first
 * open loads MLIR, later ones only count a reference, and MLIR is never
 * unloaded (it does not support that), so the library keeps no handle and
 * no state between calls. Where it cannot be opened (a build without
 * MLIR, a machine without its libraries) every request is E1001 with the
 * loader's reason. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/compiled.h"
#include "mlir/codegen.h"
#include "mlir/plugin.h"


static const char *const codegen_names[] = {[MT_CODEGEN_CUDA] = "cuda", [MT_CODEGEN_MLIR] = "mlir"};

const char *mt_codegen_name(MtCodegen g)
{
    return g == MT_CODEGEN_CUDA || g == MT_CODEGEN_MLIR ? codegen_names[g] : "default";
}

int mt_codegen_from_name(const char *name)
{
    for (int i = MT_CODEGEN_CUDA; i <= MT_CODEGEN_MLIR; i++)
        if (!strcmp(codegen_names[i], name))
            return i;
    return -1;
}

/* ---- finding and opening the module ---------------------------------------------------- */

typedef struct Plugin {
    void *handle;
    const MtMlirPlugin *api;
} Plugin;

static bool try_open(const char *path, Plugin *p, char *why, size_t n)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        if (!*why)
            snprintf(why, n, "%s", dlerror());
        return false;
    }
    MtMlirEntry entry;
    *(void **)&entry = dlsym(h, MT_MLIR_ENTRY);
    const MtMlirPlugin *api = entry ? entry() : NULL;
    if (!api || api->abi != MT_MLIR_ABI) {
        snprintf(why, n, "%s is not this build's MLIR backend module (rebuild and reinstall mytriton)", path);
        dlclose(h);
        return false;
    }
    p->handle = h;
    p->api = api;
    return true;
}

static bool plugin_open(Plugin *p, char *why, size_t n)
{
    memset(p, 0, sizeof *p);
    why[0] = 0;
    const char *env = getenv("MYTRITON_MLIR_PLUGIN");
    if (env && *env)
        return try_open(env, p, why, n);
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 64);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            strcpy(slash, "/../lib/mytriton/libmytriton-mlir.so");
            if (access(exe, F_OK) == 0)
                return try_open(exe, p, why, n);
        }
    }
#ifdef MT_MLIR_PLUGIN_PATH
    return try_open(MT_MLIR_PLUGIN_PATH, p, why, n);
#else
    snprintf(why, n, "this mytriton was built without MLIR (install libmlir-22-dev, mlir-22-tools and llvm-22-dev, "
                     "then reconfigure with -DMT_MLIR=ON)");
    return false;
#endif
}

static void plugin_close(Plugin *p)
{
    if (p->handle)
        dlclose(p->handle);
}

bool mt_mlir_available(MtCtx *c, const char **why)
{
    Plugin p;
    char buf[1024];
    bool ok = plugin_open(&p, buf, sizeof buf);
    if (why)
        *why = ok ? NULL : mt_arena_strdup(&c->arena, buf);
    plugin_close(&p);
    return ok;
}

const char *mt_mlir_version(MtCtx *c)
{
    Plugin p;
    char buf[1024];
    if (!plugin_open(&p, buf, sizeof buf))
        return NULL;
    const char *v = mt_arena_strdup(&c->arena, p.api->version);
    plugin_close(&p);
    return v;
}

const char *mt_mlir_pipeline(MtCtx *c, int sm)
{
    Plugin p;
    char buf[2048];
    if (!plugin_open(&p, buf, sizeof buf))
        return NULL;
    p.api->pipeline(sm ? sm : 90, NULL, buf, sizeof buf);
    plugin_close(&p);
    return mt_arena_strdup(&c->arena, buf);
}

/* ---- running it -------------------------------------------------------------------------- */

static void keep_text(MtCtx *c, MtCompiled *k, MtStage stage, const MtMlirText *t)
{
    k->text[stage] = mt_arena_strdup(&c->arena, t->text);
    for (uint32_t i = 0; i < t->nmarks; i++) {
        MtLineMark m = {.line = t->marks[i].line, .span = t->marks[i].span, .inl = t->marks[i].inl};
        mt_vec_push(&c->arena, &k->marks[stage], m);
    }
}

static MtStatus run_plugin(MtCtx *c, MtCompiled *k, int sm, unsigned want)
{
    if (!k->kernel) {
        mt_error(c, (MtSpan){0}, "E1001", "the MLIR backend prints the fast lowering's kernel layer, which this "
                                          "compilation did not make");
        return MT_ERR_USAGE;
    }
    Plugin p;
    char why[1024];
    if (!plugin_open(&p, why, sizeof why)) {
        mt_error(c, (MtSpan){0}, "E1001", "the MLIR backend is not available: %s", why);
        return MT_ERR_USAGE;
    }
    const char **files = mt_arena_alloc(&c->arena, (c->files.n + 1) * sizeof *files);
    for (uint32_t i = 1; i < c->files.n; i++)
        files[i] = c->files.v[i].path;
    MtMlirRequest req = {
        .abi = MT_MLIR_ABI,
        .sizes = {sizeof(KFunc), sizeof(KStmt), sizeof(KExpr), sizeof(KVar)},
        .f = k->kernel,
        .files = files,
        .nfiles = c->files.n,
        .inl = c->inl.v,
        .ninl = c->inl.n,
        .sm = sm ? sm : 90,
        .want = want,
    };
    MtMlirResult res;
    int rc = p.api->run(&req, &res);
    if (res.mlir.text)
        keep_text(c, k, MT_STAGE_MLIR, &res.mlir);
    if (res.llvm.text)
        keep_text(c, k, MT_STAGE_MLIR_LLVM, &res.llvm);
    if (res.ptx)
        k->mlir_ptx = mt_arena_strdup(&c->arena, res.ptx);
    for (uint32_t i = 0; i < res.ndiags; i++) {
        const MtMlirDiag *d = &res.diags[i];
        MtDiagRec *r = mt_error(c, d->span, mt_rule_find(d->code) ? mt_rule_find(d->code)->code : "E1004", "%s", d->msg);
        if (d->inl)
            mt_note_inline(c, r, d->inl);
    }
    p.api->free_result(&res);
    plugin_close(&p);
    return rc == 0 ? MT_OK : MT_ERR_SOURCE;
}

MtStatus mt_mlir_stages(MtCtx *c, MtCompiled *k, int last, int sm)
{
    unsigned want = MT_MLIR_WANT_MLIR | (last >= MT_STAGE_MLIR_LLVM ? MT_MLIR_WANT_LLVM : 0);
    return run_plugin(c, k, sm, want);
}

MtStatus mt_compiled_mlir_ptx(MtCtx *c, MtCompiled *k, int sm, const char **ptx)
{
    *ptx = NULL;
    if (k->codegen != MT_CODEGEN_MLIR) {
        mt_error(c, (MtSpan){0}, "E1001", "the kernel was not compiled with --codegen mlir");
        return MT_ERR_USAGE;
    }
    MtStatus st = run_plugin(c, k, sm, MT_MLIR_WANT_PTX | (k->text[MT_STAGE_MLIR_LLVM] ? 0 : MT_MLIR_WANT_LLVM));
    *ptx = k->mlir_ptx;
    return st == MT_OK && !*ptx ? MT_ERR_SOURCE : st;
}

MtCodegen mt_compiled_codegen(const MtCompiled *k) { return (MtCodegen)k->codegen; }
