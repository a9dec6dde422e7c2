import type { SmscOptions } from '../smpp/smsc-options.js';
import { SANDBOX, type RoutingConfig } from './routing-config.js';

export const NO_SMSC_TEXT = 'No SMSC configured: every SMS goes to the sandbox network.';

const SOURCES: Record<RoutingConfig['source'], string> = {
  sandbox: 'nothing configured',
  url: 'SWITCHBOARD_SMPP_URL: this SMSC carries every SMS',
  file: 'route file (SWITCHBOARD_ROUTES)',
};

/** The routing as `switchboard routes` prints it; passwords never appear. */
export function describeRouting(config: RoutingConfig): string {
  if (config.smscs.length === 0 && config.routes.every((r) => r.smsc === SANDBOX)) return NO_SMSC_TEXT;
  const routed = new Set(config.routes.map((r) => r.smsc));
  const lines = [`From ${SOURCES[config.source]}.`, '', 'SMSCs:'];
  for (const smsc of config.smscs) {
    lines.push(`  ${smsc.name}: ${smsc.host}:${smsc.port}${routed.has(smsc.name) ? '' : '  (no route sends to it: inbound and receipts only)'}`);
    for (const [label, value] of describeSmsc(smsc)) lines.push(`    ${label.padEnd(16)}${value}`);
  }
  if (config.smscs.length === 0) lines.push('  (none)');
  lines.push('', 'Routes (matching ones are tried by priority, then the longer prefix, then file order):');
  const width = config.routes.reduce((most, r) => Math.max(most, prefixesOf(r.prefixes).length), 6);
  const smscWidth = config.routes.reduce((most, r) => Math.max(most, r.smsc.length), 4);
  const sorted = [...config.routes].sort((a, b) => a.priority - b.priority || a.order - b.order);
  for (const route of sorted) lines.push(`  ${prefixesOf(route.prefixes).padEnd(width)} → ${route.smsc.padEnd(smscWidth)}  priority ${route.priority}`);
  if (!config.routes.some((r) => r.prefixes.includes(''))) lines.push('  (no "*" route: destinations no prefix covers are rejected, REJECTED_ROUTE_NOT_AVAILABLE)');
  return lines.join('\n');
}

function describeSmsc(smsc: SmscOptions): Array<[string, string]> {
  const address = (side: SmscOptions['source'], usual: string) =>
    side.ton === undefined && side.npi === undefined ? usual : `TON ${side.ton ?? 'usual'}, NPI ${side.npi ?? 'usual'}`;
  const tls = smsc.tls ? `yes${smsc.tls.rejectUnauthorized ? '' : ' (certificate not verified)'}${smsc.tls.ca ? ', private CA' : ''}` : 'no';
  return [
    ['TLS', tls],
    ['system id', `${smsc.systemId}${smsc.systemType ? `, system type ${smsc.systemType}` : ''}`],
    ['binds', `${smsc.binds} × ${smsc.mode}`],
    ['window', `${smsc.window} per bind`],
    ['throughput', smsc.throughput > 0 ? `${smsc.throughput} msg/s per bind` : 'no limit'],
    ['long messages', smsc.longMessages],
    ['GSM 7-bit', `${smsc.gsm7Packing}, data_coding ${smsc.gsm7DataCoding}`],
    ['receipts', smsc.registeredDelivery ? 'requested' : 'not requested'],
    ['message ids', `submit_sm_resp ${smsc.submitIdFormat}, receipts ${smsc.receiptIdFormat}`],
    ['source TON/NPI', address(smsc.source, 'from the sender (alphanumeric 5/0, long number 1/1, short 3/0)')],
    ['dest TON/NPI', address(smsc.destination, '1/1 (international, ISDN)')],
    ['enquire_link', smsc.enquireLinkMs > 0 ? `every ${smsc.enquireLinkMs / 1000} s` : 'off'],
    ['reconnect', `${smsc.reconnectMinMs / 1000} s to ${smsc.reconnectMaxMs / 1000} s`],
    ['inbound to', `account ${smsc.inboundAccount}`],
  ];
}

const prefixesOf = (prefixes: string[]): string => prefixes.map((p) => (p === '' ? '*' : p)).join(', ');
