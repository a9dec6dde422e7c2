import { Counter, Gauge, type Registry } from 'prom-client';
import type { SmppConnection } from './connection.js';

interface ConnectionSource {
  readonly name: string;
  readonly connections: SmppConnection[];
}

/**
 * Per-bind SMPP metrics, read from each connection's plain counters at scrape time: the hot path
 * only increments numbers. Labels: `smsc` (its name) and `bind` (e.g. operator-a/1/trx).
 */
export function registerSmppMetrics(registry: Registry, carriers: ConnectionSource[]): void {
  const each = (visit: (labels: { smsc: string; bind: string }, connection: SmppConnection) => void): void => {
    for (const carrier of carriers) for (const connection of carrier.connections) visit({ smsc: carrier.name, bind: connection.label }, connection);
  };
  // Both kinds are rebuilt from the connections' own numbers at each scrape.
  const collected = (Kind: typeof Gauge | typeof Counter, name: string, help: string, read: (c: SmppConnection) => number): void => {
    new Kind({
      name,
      help,
      labelNames: ['smsc', 'bind'] as const,
      registers: [registry],
      collect(this: Gauge | Counter) {
        this.reset();
        each((labels, connection) => (this instanceof Gauge ? this.set(labels, read(connection)) : this.inc(labels, read(connection))));
      },
    });
  };
  const gauge = (name: string, help: string, read: (c: SmppConnection) => number): void => collected(Gauge, name, help, read);
  const counter = (name: string, help: string, read: (c: SmppConnection) => number): void => collected(Counter, name, help, read);
  gauge('switchboard_smpp_bind_up', '1 while the bind is bound, else 0', (c) => (c.state === 'bound' ? 1 : 0));
  gauge('switchboard_smpp_window_in_use', 'Requests sent on the bind and awaiting their response', (c) => c.windowInUse);
  gauge('switchboard_smpp_submits_queued', 'Submits waiting for the bind (window full, rate limit, throttled, not bound)', (c) => c.load - c.windowInUse);
  counter('switchboard_smpp_submits_sent_total', 'submit_sm PDUs written (resent ones included); rate() gives throughput', (c) => c.stats.submitsSent);
  counter('switchboard_smpp_submits_ok_total', 'submit_sm answered ESME_ROK', (c) => c.stats.submitsOk);
  counter('switchboard_smpp_throttled_total', 'submit_sm answered ESME_RTHROTTLED or ESME_RMSGQFUL', (c) => c.stats.throttled);
  counter('switchboard_smpp_requests_received_total', 'deliver_sm / data_sm received (receipts and inbound)', (c) => c.stats.requestsReceived);
  counter('switchboard_smpp_binds_total', 'Successful binds', (c) => c.stats.binds);
  counter('switchboard_smpp_bind_failures_total', 'Bind attempts refused by the SMSC', (c) => c.stats.bindFailures);
  counter('switchboard_smpp_connect_failures_total', 'TCP/TLS connection attempts that failed', (c) => c.stats.connectFailures);
  counter('switchboard_smpp_disconnects_total', 'Bound connections lost', (c) => c.stats.disconnects);
  counter('switchboard_smpp_response_timeouts_total', 'Responses that did not come in time (the connection is then reset)', (c) => c.stats.timeouts);
  new Counter({
    name: 'switchboard_smpp_submit_errors_total',
    help: 'submit_sm answered with an error, by command_status (hex)',
    labelNames: ['smsc', 'bind', 'command_status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      each((labels, connection) => {
        for (const [status, count] of connection.stats.errors) {
          this.inc({ ...labels, command_status: `0x${status.toString(16).padStart(8, '0')}` }, count);
        }
      });
    },
  });
}
