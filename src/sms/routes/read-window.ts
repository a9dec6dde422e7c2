/** Reports, logs and inbound messages are reachable for 48 hours after they were created (reference §3.2–3.4). */
export const READ_WINDOW_MS = 48 * 60 * 60 * 1000;
