/**
 * Longest sleep of an idle pipeline loop (dispatcher, webhook sender, call timers). An idle loop
 * sleeps until the next due time the store knows of or a nudge; this bounds how late it notices
 * work nobody nudged it for (what another node left due), at a cost of one look per loop per period.
 */
export const IDLE_MS = 30_000;
