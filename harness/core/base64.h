/*
 * base64.h - standard base64 (RFC 4648 section 4, padded) encoding and
 * decoding into caller buffers. Strict validation of base64 text lives with
 * the schema formats ("byte", schema/validator.h), which the matchers use.
 */
#ifndef MC_CORE_BASE64_H
#define MC_CORE_BASE64_H

#include <stddef.h>

/* Characters mc_base64_encode() writes for n input bytes (no NUL). */
size_t mc_base64_encoded_len(size_t n);

/* Encodes in[0..n) into out, which holds mc_base64_encoded_len(n) + 1
 * bytes; NUL-terminates. */
void mc_base64_encode(const unsigned char *in, size_t n, char *out);

/*
 * Decodes s[0..len) into out (cap bytes at most), stopping at the first
 * '='. Returns the number of bytes written, or -1 when s holds a character
 * outside the alphabet or the output would exceed cap.
 */
long mc_base64_decode(const char *s, size_t len, unsigned char *out, size_t cap);

#endif /* MC_CORE_BASE64_H */
