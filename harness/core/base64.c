#include "core/base64.h"

#include <stdint.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t mc_base64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void mc_base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t i, o = 0;

    for (i = 0; i + 2 < n; i += 3) {
        out[o++] = alphabet[in[i] >> 2];
        out[o++] = alphabet[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
        out[o++] = alphabet[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
        out[o++] = alphabet[in[i + 2] & 63];
    }
    if (n - i == 1) {
        out[o++] = alphabet[in[i] >> 2];
        out[o++] = alphabet[(in[i] & 3) << 4];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        out[o++] = alphabet[in[i] >> 2];
        out[o++] = alphabet[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
        out[o++] = alphabet[(in[i + 1] & 15) << 2];
        out[o++] = '=';
    }
    out[o] = '\0';
}

long mc_base64_decode(const char *s, size_t len, unsigned char *out, size_t cap)
{
    uint32_t acc = 0;
    size_t i, k = 0;
    int bits = 0;

    for (i = 0; i < len; i++) {
        int v;
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+')
            v = 62;
        else if (c == '/')
            v = 63;
        else if (c == '=')
            break;
        else
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (k == cap)
                return -1;
            out[k++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)k;
}
