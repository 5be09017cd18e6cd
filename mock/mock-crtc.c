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

/* "msc-rate-later": the CRTC counts at the first rate until switch_us,
 * then at the later one, from the MSC it had reached. */
static bool rate_changes(const struct mock_server_state *s, uint64_t *switch_us,
                         uint64_t *switch_msc)
{
    if (!s->cfg->later_rate_ms)
        return false;
    *switch_us = s->start_us + (uint64_t)s->cfg->later_rate_ms * 1000;
    *switch_msc = (uint64_t)s->cfg->later_rate_ms * 1000 * rate_hz(s) / 1000000;
    return true;
}

uint64_t mock_crtc_msc(const struct mock_server_state *s)
{
    uint64_t now = (uint64_t)mock_now_us(), switch_us, switch_msc;
    if (now < s->start_us)
        return 0;
    if (rate_changes(s, &switch_us, &switch_msc) && now >= switch_us)
        return switch_msc + (now - switch_us) * (uint64_t)s->cfg->later_rate_hz / 1000000;
    return (now - s->start_us) * rate_hz(s) / 1000000;
}

uint64_t mock_crtc_vblank_us(const struct mock_server_state *s, uint64_t msc)
{
    uint64_t rate = rate_hz(s), start = s->start_us, switch_us, switch_msc;
    if (rate_changes(s, &switch_us, &switch_msc) && msc > switch_msc) {
        start = switch_us;
        msc -= switch_msc;
        rate = (uint64_t)s->cfg->later_rate_hz;
    }
    /* Rounded up, so that at this time mock_crtc_msc() reads msc already.
     * An MSC too far ahead to have a time is "never". */
    if (msc > (UINT64_MAX - start) / 1000000 - 1)
        return UINT64_MAX;
    return start + (msc * 1000000 + rate - 1) / rate;
}
