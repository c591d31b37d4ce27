/*
 * charclass.h - the one table of ASCII character classes the syntax checks
 * share: RFC 3986 (URI: core/uri.c), and the JSON Schema formats that need
 * Base64 and RFC 5322 atext (schema/format.c).
 */
#ifndef MC_CORE_CHARCLASS_H
#define MC_CORE_CHARCLASS_H

#define MC_CC_ALPHA 0x01u
#define MC_CC_DIGIT 0x02u
#define MC_CC_UNRES 0x04u /* RFC 3986 unreserved minus ALPHA/DIGIT: - . _ ~ */
#define MC_CC_SUB 0x08u   /* RFC 3986 sub-delims: ! $ & ' ( ) * + , ; = */
#define MC_CC_HEX 0x10u
#define MC_CC_B64 0x20u   /* the Base64 alphabet: ALPHA DIGIT + / */
#define MC_CC_ATEXT 0x40u /* RFC 5322 atext besides ALPHA/DIGIT */

/* One byte of MC_CC_* bits per character; 0 for every byte over 0x7f. */
extern const unsigned char mc_char_class[256];

/* True when ch is in any of the classes of mask. */
static inline int mc_char_is(unsigned char ch, unsigned mask)
{
    return (mc_char_class[ch] & mask) != 0;
}

#endif /* MC_CORE_CHARCLASS_H */
