#include "scenario/jsonc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"

/* Line and column of byte offset off in text. */
static void line_col(const char *text, size_t off, int *line, int *col)
{
    size_t i;
    int l = 1, c = 1;

    for (i = 0; i < off; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* The position scanner: walks the JSONC text once, tracking the JSON Pointer
 * of each value. It trusts json-c to have accepted the text already. */
typedef struct frame {
    int is_obj;
    long index;       /* arrays: index of the next element */
    char *key;        /* objects: key of the next value (owned) */
    size_t ptr_len;   /* length of the pointer of this container */
} frame_t;

typedef struct scanner {
    const char *t;
    size_t len, i;
    int line, col;
    frame_t stack[MC_JSONC_MAX_DEPTH + 2];
    int depth;
    char ptr[4096];
    size_t ptr_len;
    mc_jsonc_pos_t *pos;
    size_t n_pos, cap_pos;
    int nomem;
} scanner_t;

static void adv(scanner_t *s)
{
    if (s->t[s->i] == '\n') {
        s->line++;
        s->col = 1;
    } else {
        s->col++;
    }
    s->i++;
}

static void skip_space_and_comments(scanner_t *s)
{
    while (s->i < s->len) {
        char c = s->t[s->i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            adv(s);
        } else if (c == '/' && s->i + 1 < s->len && s->t[s->i + 1] == '/') {
            while (s->i < s->len && s->t[s->i] != '\n')
                adv(s);
        } else if (c == '/' && s->i + 1 < s->len && s->t[s->i + 1] == '*') {
            adv(s);
            adv(s);
            while (s->i + 1 < s->len && !(s->t[s->i] == '*' && s->t[s->i + 1] == '/'))
                adv(s);
            if (s->i + 1 < s->len) {
                adv(s);
                adv(s);
            } else {
                s->i = s->len;
            }
        } else {
            break;
        }
    }
}

/* Appends "/" + escaped segment to the current pointer (truncating safely). */
static void ptr_push(scanner_t *s, const char *seg)
{
    size_t n = s->ptr_len;

    if (n + 1 < sizeof(s->ptr))
        s->ptr[n++] = '/';
    for (; *seg != '\0' && n + 2 < sizeof(s->ptr); seg++) {
        if (*seg == '~') {
            s->ptr[n++] = '~';
            s->ptr[n++] = '0';
        } else if (*seg == '/') {
            s->ptr[n++] = '~';
            s->ptr[n++] = '1';
        } else {
            s->ptr[n++] = *seg;
        }
    }
    s->ptr[n] = '\0';
    s->ptr_len = n;
}

static void record(scanner_t *s)
{
    mc_jsonc_pos_t *p;

    if (s->n_pos >= MC_JSONC_MAX_POSITIONS || s->nomem)
        return;
    if (s->n_pos == s->cap_pos) {
        size_t cap = s->cap_pos ? s->cap_pos * 2 : 64;
        mc_jsonc_pos_t *np = realloc(s->pos, cap * sizeof(*np));
        if (np == NULL) {
            s->nomem = 1;
            return;
        }
        s->pos = np;
        s->cap_pos = cap;
    }
    p = &s->pos[s->n_pos];
    p->pointer = strdup(s->ptr);
    if (p->pointer == NULL) {
        s->nomem = 1;
        return;
    }
    p->line = s->line;
    p->col = s->col;
    s->n_pos++;
}

/* Reads a string literal (double-quoted; json-c also takes single quotes
 * in non-strict mode) and returns its raw contents (owned), escapes kept
 * simple: \" and \\ are unescaped, others are kept as the escaped char. */
static char *read_string(scanner_t *s)
{
    char q = s->t[s->i];
    size_t cap = 32, n = 0;
    char *out = malloc(cap);

    if (out == NULL) {
        s->nomem = 1;
        return NULL;
    }
    adv(s);
    while (s->i < s->len && s->t[s->i] != q) {
        char c = s->t[s->i];
        if (c == '\\' && s->i + 1 < s->len) {
            adv(s);
            c = s->t[s->i];
        }
        if (n + 2 > cap) {
            char *no = realloc(out, cap * 2);
            if (no == NULL) {
                free(out);
                s->nomem = 1;
                return NULL;
            }
            out = no;
            cap *= 2;
        }
        out[n++] = c;
        adv(s);
    }
    if (s->i < s->len)
        adv(s);
    out[n] = '\0';
    return out;
}

/* Sets the pointer to that of the next value in the current container. */
static void enter_value(scanner_t *s)
{
    frame_t *f;
    char idx[32];

    if (s->depth == 0) {
        s->ptr_len = 0;
        s->ptr[0] = '\0';
        return;
    }
    f = &s->stack[s->depth - 1];
    s->ptr_len = f->ptr_len;
    s->ptr[s->ptr_len] = '\0';
    if (f->is_obj) {
        ptr_push(s, f->key ? f->key : "");
    } else {
        snprintf(idx, sizeof(idx), "%ld", f->index);
        ptr_push(s, idx);
    }
}

static void scan(scanner_t *s)
{
    for (;;) {
        skip_space_and_comments(s);
        if (s->i >= s->len || s->nomem)
            return;
        char c = s->t[s->i];
        frame_t *top = s->depth ? &s->stack[s->depth - 1] : NULL;

        if (top != NULL && top->is_obj && top->key == NULL && (c == '"' || c == '\'')) {
            /* A property name: read it, then expect ':' and a value. */
            top->key = read_string(s);
            skip_space_and_comments(s);
            if (s->i < s->len && s->t[s->i] == ':')
                adv(s);
            continue;
        }
        if (c == ',') {
            if (top != NULL) {
                if (top->is_obj) {
                    free(top->key);
                    top->key = NULL;
                } else {
                    top->index++;
                }
            }
            adv(s);
            continue;
        }
        if (c == '}' || c == ']') {
            if (s->depth > 0) {
                free(s->stack[s->depth - 1].key);
                s->stack[s->depth - 1].key = NULL;
                s->depth--;
            }
            adv(s);
            continue;
        }
        /* A value starts here. */
        enter_value(s);
        record(s);
        if (c == '{' || c == '[') {
            if (s->depth >= MC_JSONC_MAX_DEPTH + 1)
                return;
            frame_t *f = &s->stack[s->depth++];
            f->is_obj = c == '{';
            f->index = 0;
            f->key = NULL;
            f->ptr_len = s->ptr_len;
            adv(s);
            continue;
        }
        if (c == '"' || c == '\'') {
            free(read_string(s));
            continue;
        }
        /* Number or literal: skip to a delimiter. */
        while (s->i < s->len && strchr(",}] \t\r\n/", s->t[s->i]) == NULL)
            adv(s);
    }
}

int mc_jsonc_parse(const char *text, size_t len, const char *name, mc_jsonc_doc_t *doc,
                   mc_errbuf_t *eb)
{
    json_tokener *tok;
    json_object *root;
    enum json_tokener_error jerr;
    scanner_t *s;
    int line, col;

    if (len > MC_JSONC_MAX_FILE)
        return mc_errbuf_set(eb, MC_ETOOBIG, "%s: file larger than %u bytes", name,
                             MC_JSONC_MAX_FILE);
    if (memchr(text, '\0', len) != NULL) {
        line_col(text, (size_t)((const char *)memchr(text, '\0', len) - text), &line, &col);
        return mc_errbuf_set(eb, MC_EPARSE, "%s:%d:%d: NUL byte in file", name, line, col);
    }
    tok = json_tokener_new_ex(MC_JSONC_MAX_DEPTH);
    if (tok == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    root = json_tokener_parse_ex(tok, text, (int)len);
    jerr = json_tokener_get_error(tok);
    if (jerr == json_tokener_continue) {
        root = json_tokener_parse_ex(tok, "", 1); /* end of input */
        jerr = json_tokener_get_error(tok);
    }
    if (jerr != json_tokener_success) {
        size_t at = json_tokener_get_parse_end(tok);
        if (at > len)
            at = len;
        line_col(text, at, &line, &col);
        json_tokener_free(tok);
        return mc_errbuf_set(eb, MC_EPARSE, "%s:%d:%d: %s", name, line, col,
                             jerr == json_tokener_continue ? "file ends inside a value"
                                                           : json_tokener_error_desc(jerr));
    }
    {
        /* Anything but whitespace and comments after the value is an error. */
        size_t end = json_tokener_get_parse_end(tok);
        scanner_t tail;
        memset(&tail, 0, sizeof(tail));
        tail.t = text;
        tail.len = len;
        tail.i = end < len ? end : len;
        tail.line = 1;
        tail.col = 1;
        skip_space_and_comments(&tail);
        if (tail.i < len) {
            line_col(text, tail.i, &line, &col);
            json_tokener_free(tok);
            json_object_put(root);
            return mc_errbuf_set(eb, MC_EPARSE, "%s:%d:%d: unexpected text after the document",
                                 name, line, col);
        }
    }
    json_tokener_free(tok);

    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        json_object_put(root);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    s->t = text;
    s->len = len;
    s->line = 1;
    s->col = 1;
    scan(s);
    for (int d = 0; d < s->depth; d++)
        free(s->stack[d].key);
    memset(doc, 0, sizeof(*doc));
    doc->root = root;
    doc->name = strdup(name);
    doc->pos = s->pos;
    doc->n_pos = s->n_pos;
    free(s);
    if (doc->name == NULL) {
        mc_jsonc_free(doc);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    return MC_OK;
}

int mc_jsonc_load(const char *path, mc_jsonc_doc_t *doc, mc_errbuf_t *eb)
{
    char *buf = NULL;
    size_t n = 0;
    int rc = mc_file_read(path, MC_JSONC_MAX_FILE, &buf, &n, eb);

    if (rc != MC_OK)
        return rc;
    rc = mc_jsonc_parse(buf, n, path, doc, eb);
    free(buf);
    return rc;
}

void mc_jsonc_where(const mc_jsonc_doc_t *doc, const char *pointer, int *line, int *col)
{
    char want[4096];
    size_t i;

    *line = 1;
    *col = 1;
    snprintf(want, sizeof(want), "%s", pointer);
    for (;;) {
        for (i = 0; i < doc->n_pos; i++) {
            if (strcmp(doc->pos[i].pointer, want) == 0) {
                *line = doc->pos[i].line;
                *col = doc->pos[i].col;
                return;
            }
        }
        /* Try the parent. */
        char *slash = strrchr(want, '/');
        if (slash == NULL)
            return;
        *slash = '\0';
    }
}

void mc_jsonc_free(mc_jsonc_doc_t *doc)
{
    size_t i;

    json_object_put(doc->root);
    for (i = 0; i < doc->n_pos; i++)
        free(doc->pos[i].pointer);
    free(doc->pos);
    free(doc->name);
    memset(doc, 0, sizeof(*doc));
}
