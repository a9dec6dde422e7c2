/** Plain counters of one connection, read by the metrics collector at scrape time (cheaper than labelled increments per PDU). */
export class ConnectionStats {
  binds = 0;
  bindFailures = 0;
  connectFailures = 0;
  disconnects = 0;
  timeouts = 0;
  submitsSent = 0;
  submitsOk = 0;
  throttled = 0;
  requestsReceived = 0;
  /** Submits answered with an error, by command_status. */
  readonly errors = new Map<number, number>();

  countError(status: number): void {
    this.errors.set(status, (this.errors.get(status) ?? 0) + 1);
  }
}
