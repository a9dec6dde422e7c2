import type { RoutingConfig } from './routing-config.js';

/** The routing as `switchboard routes` prints it; passwords never appear. */
export function describeRouting(config: RoutingConfig): string {
  if (config.smscs.length === 0) return 'No SMSC configured: every SMS goes to the sandbox network.';
  const lines = ['SMSCs:'];
  for (const s of config.smscs) {
    lines.push(
      `  ${s.name}: ${s.host}:${s.port}${s.tls ? ` TLS${s.tls.rejectUnauthorized ? '' : ' (certificate not verified)'}` : ''}, system id ${s.systemId}` +
        `, ${s.binds} × ${s.mode}, window ${s.window}, ${s.throughput > 0 ? `${s.throughput} msg/s per bind` : 'no rate limit'}` +
        `, long messages ${s.longMessages}, GSM 7-bit ${s.gsm7Packing}, ids ${s.submitIdFormat}/${s.receiptIdFormat}, inbound → account ${s.inboundAccount}`,
    );
  }
  lines.push('Routes (tried in this order for a matching destination):');
  const sorted = [...config.routes].sort((a, b) => a.priority - b.priority || a.order - b.order);
  for (const r of sorted) {
    const prefixes = r.prefixes.map((p) => (p === '' ? '*' : p)).join(', ');
    lines.push(`  ${prefixes.padEnd(20)} → ${r.smsc.padEnd(20)} priority ${r.priority}`);
  }
  if (config.source === 'url') lines.push('(from SWITCHBOARD_SMPP_URL: this SMSC carries every SMS)');
  return lines.join('\n');
}
