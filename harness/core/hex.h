/*
 * hex.h - the value of a hexadecimal digit, for every decoder that meets
 * one (JSON \u escapes, percent-encoded URIs and paths).
 */
#ifndef MC_CORE_HEX_H
#define MC_CORE_HEX_H

/* 0..15 for '0'-'9', 'a'-'f' and 'A'-'F'; -1 for any other character. */
static inline int mc_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif /* MC_CORE_HEX_H */
