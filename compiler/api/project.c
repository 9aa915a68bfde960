/* project.c: mytriton.json's rules (mytriton/project.h), one copy for the
 * language server and the dashboard. */
#include "mytriton/project.h"

#include <stdio.h>
#include <string.h>

#include "mytriton/mytriton.h"

static bool scalar(const cJSON *v)
{
    return cJSON_IsNumber(v) || cJSON_IsBool(v) || cJSON_IsNull(v) || cJSON_IsString(v);
}

static const char *values_problem(const cJSON *o)
{
    if (!cJSON_IsObject(o))
        return "\"constexprs\" must be an object of NAME: value";
    for (const cJSON *v = o->child; v; v = v->next)
        if (!scalar(v))
            return "constexpr values must be numbers, booleans, null or strings";
    return NULL;
}

const char *mt_project_problem(const cJSON *root, const char **where)
{
    *where = "";
    if (!cJSON_IsObject(root))
        return "the file must hold a JSON object";
    for (const cJSON *it = root->child; it; it = it->next) {
        *where = it->string;
        if (!strcmp(it->string, "constexprs")) {
            const char *why = values_problem(it);
            if (why)
                return why;
        } else if (!strcmp(it->string, "kernels")) {
            if (!cJSON_IsObject(it))
                return "\"kernels\" must be an object of kernel name: {signature, constexprs}";
            for (const cJSON *k = it->child; k; k = k->next) {
                *where = k->string;
                if (!cJSON_IsObject(k))
                    return "each kernel entry must be an object with \"signature\" and/or \"constexprs\"";
                for (const cJSON *f = k->child; f; f = f->next) {
                    if (!strcmp(f->string, "signature") && cJSON_IsString(f))
                        continue;
                    if (!strcmp(f->string, "constexprs") && cJSON_IsObject(f)) {
                        const char *why = values_problem(f);
                        if (why)
                            return why;
                        continue;
                    }
                    *where = f->string;
                    return "a kernel entry takes \"signature\" (a string) and \"constexprs\" (an object)";
                }
            }
        } else {
            return "unknown key (expected \"constexprs\" or \"kernels\")";
        }
    }
    return NULL;
}

const char *mt_project_value_literal(const cJSON *v, char *buf, size_t cap)
{
    if (cJSON_IsString(v))
        return mt_literal_from_text(buf, cap, v->valuestring) < cap ? buf : NULL;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "True" : "False";
    if (cJSON_IsNull(v))
        return "None";
    if (!cJSON_IsNumber(v))
        return NULL;
    double d = v->valuedouble;
    if (d == (double)(long long)d && d > -1e15 && d < 1e15)
        snprintf(buf, cap, "%lld", (long long)d);
    else {
        snprintf(buf, cap, "%.17g", d);
        if (!strpbrk(buf, ".eEn") && strlen(buf) + 3 <= cap)
            strcat(buf, ".0");
    }
    return buf;
}
