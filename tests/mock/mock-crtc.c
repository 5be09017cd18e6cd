/*
 * The fake CRTC: a vblank clock that starts at MSC 0 when the server
 * starts and counts msc-rate vblanks a second.  The UST of a vblank is the
 * CLOCK_MONOTONIC time, in microseconds, at which its MSC began.
 */
#include "mock-internal.h"

/* A config without a usable rate still gets a sane 60 Hz. */
static uint64_t rate_hz(const struct mock_server_state *s)
{
    return s->cfg->msc_rate_hz > 0 ? (uint64_t)s->cfg->msc_rate_hz : 60;
}

uint64_t mock_crtc_msc(const struct mock_server_state *s)
{
    uint64_t now = mock_now_us();
    if (now < s->start_us)
        return 0;
    return (now - s->start_us) * rate_hz(s) / 1000000;
}

uint64_t mock_crtc_vblank_us(const struct mock_server_state *s, uint64_t msc)
{
    uint64_t rate = rate_hz(s);
    /* Rounded up, so that at this time mock_crtc_msc() reads msc already.
     * An MSC too far ahead to have a time is "never". */
    if (msc > (UINT64_MAX - s->start_us) / 1000000 - 1)
        return UINT64_MAX;
    return s->start_us + (msc * 1000000 + rate - 1) / rate;
}
