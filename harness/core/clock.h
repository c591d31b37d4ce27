/*
 * clock.h - monotonic milliseconds, for deadlines.
 */
#ifndef MC_CORE_CLOCK_H
#define MC_CORE_CLOCK_H

#include <stdint.h>

/* Milliseconds from an arbitrary fixed point; never goes backwards. */
int64_t mc_now_ms(void);

#endif /* MC_CORE_CLOCK_H */
