/*
 * fixtures.h - profile roles resolved against what the server really lists.
 *
 * A profile maps a role ("tool.with_progress") to a fixture name
 * ("test_tool_with_progress"). A role counts only when the live server
 * offers that fixture: its tools/list, prompts/list, resources/list or
 * resources/templates/list (walked across every page) names it. A role the
 * server does not offer makes the scenario NOT-VERIFIED, never FAIL, and
 * the reason names the fixture and the role.
 *
 * Role kinds follow from the role's name:
 *   tool.X                      a tool name
 *   prompt.X                    a prompt name
 *   resource.template           a URI template of resources/templates/list
 *   resource.X                  a resource URI (listed, or matching a listed
 *                               template)
 *   pagination.resources_multi_page   true when resources/list spans more
 *                               than one page (the profile's value is ignored)
 *   tools.safe                  the listed tools that may be called: those
 *                               in the profile's "safe_tools", or every
 *                               tool with --call-tools; its value is the
 *                               array of their Tool objects
 * A role with more segments (prompt.with_arguments.args) is data attached
 * to the fixture of its first two segments: it needs that fixture offered,
 * and takes its value from the profile, else from the fixture's listing
 * (scenario/shapes.h). Any other role is taken from the profile.
 *
 * A fixture role the profile does not map, or whose default-profile name the
 * server does not list, resolves to a listed item of the role's shape when
 * the listings can show one (scenario/shapes.h), or to the item the
 * behaviour probe saw behave so (opts->behaviours); the offer's note says
 * which item was picked for which role. When every item that could have
 * the shape was looked at and none has it, the role is MC_ROLE_ABSENT.
 */
#ifndef MC_SCENARIO_FIXTURES_H
#define MC_SCENARIO_FIXTURES_H

#include <stddef.h>

#include <json-c/json.h>

#include "client/session.h"

/* Pages walked at most when listing fixtures. */
#define MC_FIXTURES_MAX_PAGES 100
/* Items kept per list at most. */
#define MC_FIXTURES_MAX_ITEMS 10000

typedef enum mc_role_kind {
    MC_ROLE_TOOL,
    MC_ROLE_PROMPT,
    MC_ROLE_RESOURCE,
    MC_ROLE_TEMPLATE,
    MC_ROLE_MULTI_PAGE,
    MC_ROLE_SAFE_TOOLS,
    MC_ROLE_DATA
} mc_role_kind_t;

/* Bytes of the note that says which listed items were picked for roles. */
#define MC_FIXTURES_NOTE_MAX 1024

/* The lists, in the order of mc_offer_t's arrays. */
enum { MC_LIST_TOOLS, MC_LIST_PROMPTS, MC_LIST_RESOURCES, MC_LIST_TEMPLATES };

/* The lists this session has walked so far (each walked at most once). */
typedef struct mc_offer {
    json_object *items[4]; /* owned arrays: tools, prompts, resources, templates */
    int pages[4];          /* pages each walk took */
    int state[4];          /* 0 = not walked, 1 = walked, -1 = failed */
    char why[4][256];      /* why a walk failed */
    json_object *picked;   /* owned: role -> the listed item picked for it by its shape */
    char note[MC_FIXTURES_NOTE_MAX]; /* "role R: `name`, SHAPE; ..." for the report */
} mc_offer_t;

/* What resolving one role gave. */
typedef enum mc_role_status {
    MC_ROLE_OFFERED,      /* usable; *value holds what the role stands for */
    MC_ROLE_UNMAPPED,     /* the profile maps nothing to the role */
    MC_ROLE_NOT_OFFERED,  /* the server does not offer the fixture */
    MC_ROLE_NO_CAPABILITY,/* the server does not declare the capability the list needs */
    MC_ROLE_ABSENT,       /* nothing the server offers has the role's shape: every listed
                             item was looked at (listed, read, got or called), so the
                             scenario does not apply (SKIP) */
    MC_ROLE_UNKNOWN       /* the list could not be read (error, silence, exit) */
} mc_role_status_t;

/* Options for resolving roles. */
typedef struct mc_fixture_opts {
    json_object *roles;      /* borrowed: the profile's role -> value map (may be NULL) */
    json_object *safe_tools; /* borrowed: array of tool names safe to call (may be NULL) */
    json_object *args;       /* borrowed: the profile's name -> arguments map (may be NULL) */
    int call_tools;          /* non-zero: every listed tool is safe to call */
    json_object *server_caps;/* borrowed: the server's declared capabilities */
    json_object *behaviours; /* borrowed: what the behaviour probe saw at this version
                                (scenario/runner.h, mc_runner_behaviours), or NULL */
    int timeout_ms;          /* per request */
    int user_profile;        /* the profile is the user's (--profile): a name it maps that the
                                server does not list stays NOT-VERIFIED instead of giving way to
                                a listed item of the role's shape */
} mc_fixture_opts_t;

/* The kind of a role; *base gets the fixture role it belongs to
 * ("prompt.with_arguments" for "prompt.with_arguments.args"). */
mc_role_kind_t mc_role_kind(const char *role, char *base, size_t n);

void mc_offer_init(mc_offer_t *o);
void mc_offer_free(mc_offer_t *o);

/* Which listed items were picked for which roles by their shape, in words
 * ("" when none was); borrowed from o. */
const char *mc_offer_note(const mc_offer_t *o);

/*
 * Resolves role over session s (walking the list it needs once per offer).
 * On MC_ROLE_OFFERED, *value is a new value the caller owns (a deep copy of
 * the profile's value: opts->roles may be shared between threads) and puts. Otherwise why[0..n) says, in one sentence, why the
 * scenario cannot be verified or does not apply. Returns the status; a
 * failed send or an exited server gives MC_ROLE_UNKNOWN with
 * *session_rc set to the session's error (MC_OK otherwise).
 */
mc_role_status_t mc_fixture_resolve(mc_session_t *s, mc_offer_t *offer,
                                    const mc_fixture_opts_t *opts, const char *role,
                                    json_object **value, char *why, size_t n, int *session_rc);

/*
 * Decides role without a session, from what the behaviour probe saw at the
 * version (opts->behaviours with its "listed" names): for a role the probe
 * sees (scenario/shapes.h, mc_role_seen_by) whose list it walked, the
 * status mc_fixture_resolve would give on a server listing the same: a
 * status other than MC_ROLE_OFFERED with why as resolving would say it.
 * MC_ROLE_OFFERED means the role may be filled (*decided set: the profile's
 * fixture is listed, or an item was seen doing it), or cannot be decided
 * without the server (*decided cleared: every other role).
 */
mc_role_status_t mc_fixture_presolve(const mc_fixture_opts_t *opts, const char *role, char *why,
                                     size_t n, int *decided);

/* --- for shapes.c --- */

/* Makes sure list k (MC_LIST_*) is walked, the server declaring its
 * capability. Returns MC_ROLE_OFFERED when it is; otherwise why says why. */
mc_role_status_t mc__offer_need(mc_session_t *s, mc_offer_t *o, int k,
                                const mc_fixture_opts_t *opts, const char *role, char *why,
                                size_t n, int *srv_rc);

/* The listed item of list k whose key (name, uri, uriTemplate) is want,
 * borrowed from o, or NULL. */
json_object *mc__offer_find(const mc_offer_t *o, int k, const char *want);

/* True when caps declares capability cap (and, when sub is not NULL, its
 * member sub as true or an object). */
int mc__offer_declares(json_object *caps, const char *cap, const char *sub);

/*
 * True when uri matches the RFC 6570 level-1 template tmpl: literal text
 * equal, each {var} matching one or more characters other than '/'.
 */
int mc_uri_template_matches(const char *tmpl, const char *uri);

#endif /* MC_SCENARIO_FIXTURES_H */
