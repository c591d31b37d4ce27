/*
 * hash.h - FNV-1a, the one hash of the harness (32 and 64 bits).
 *
 * Used for hash-table slots, coverage signatures and integrity checks,
 * never for anything an attacker gains by colliding beyond a slower lookup.
 * Each function continues from h, so a hash can be built in pieces: start
 * with MC_FNV1A32_INIT (or MC_FNV1A64_INIT). The values are stable: cursors
 * of the reference server and campaign signatures depend on them.
 */
#ifndef MC_CORE_HASH_H
#define MC_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MC_FNV1A32_INIT 2166136261u
#define MC_FNV1A32_PRIME 16777619u
#define MC_FNV1A64_INIT 14695981039346656037ULL
#define MC_FNV1A64_PRIME 1099511628211ULL

/* h with one more byte. */
static inline uint32_t mc_fnv1a32_byte(uint32_t h, unsigned char c)
{
    return (h ^ c) * MC_FNV1A32_PRIME;
}

/* h with n more bytes at p. */
static inline uint32_t mc_fnv1a32(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = mc_fnv1a32_byte(h, b[i]);
    return h;
}

/* h with the bytes of the NUL-terminated s (not the NUL). */
static inline uint32_t mc_fnv1a32_str(uint32_t h, const char *s)
{
    for (; *s != '\0'; s++)
        h = mc_fnv1a32_byte(h, (unsigned char)*s);
    return h;
}

/* h with n more bytes at p. */
static inline uint64_t mc_fnv1a64(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * MC_FNV1A64_PRIME;
    return h;
}

/* h with the bytes of the NUL-terminated s (not the NUL). */
static inline uint64_t mc_fnv1a64_str(uint64_t h, const char *s)
{
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * MC_FNV1A64_PRIME;
    return h;
}

#endif /* MC_CORE_HASH_H */
