import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRouting, NO_SMSC_TEXT } from '../../../src/network/routing/describe-routing.js';
import { sandboxOnlyRouting, type RoutingConfig } from '../../../src/network/routing/routing-config.js';
import { parseSmscUrl } from '../../../src/network/smpp/smsc-url.js';

const smsc = (url: string, name: string) => parseSmscUrl(url, 'test', { name, inboundAccount: 'default' });

describe('describeRouting', () => {
  it('says when every SMS goes to the sandbox', () => {
    assert.equal(describeRouting(sandboxOnlyRouting()), NO_SMSC_TEXT);
    assert.equal(NO_SMSC_TEXT, 'No SMSC configured: every SMS goes to the sandbox network.');
  });

  it('lists each SMSC and the routes in the order they are tried, without passwords', () => {
    const config: RoutingConfig = {
      source: 'file',
      smscs: [
        smsc('smpps://sb:hunter2@smsc.example.com?binds=2&mode=trx&window=100&throughput=50&longMessages=sar&submitIdFormat=hex&receiptIdFormat=decimal&tlsVerify=false', 'operator-a'),
        smsc('smpp://sb2:pw2@10.0.0.7:2776?mode=tx%2Brx&sourceTon=5&sourceNpi=0', 'backup'),
        smsc('smpp://sb3:pw3@10.0.0.8', 'spare'),
      ],
      routes: [
        { prefixes: [''], smsc: 'sandbox', priority: 100, order: 2 },
        { prefixes: ['44', '353'], smsc: 'backup', priority: 2, order: 1 },
        { prefixes: ['4479'], smsc: 'operator-a', priority: 1, order: 0 },
      ],
    };
    const text = describeRouting(config);
    const lines = text.split('\n');
    assert.ok(lines.includes('  operator-a: smsc.example.com:3550'), text);
    assert.match(text, /^ {4}TLS +yes \(certificate not verified\)$/m);
    assert.match(text, /^ {4}binds +2 × transceiver$/m);
    assert.match(text, /^ {4}window +100 per bind$/m);
    assert.match(text, /^ {4}throughput +50 msg\/s per bind$/m);
    assert.match(text, /^ {4}long messages +sar$/m);
    assert.match(text, /^ {4}message ids +submit_sm_resp hex, receipts decimal$/m);
    assert.ok(lines.includes('  backup: 10.0.0.7:2776'), text);
    assert.match(text, /^ {4}TLS +no$/m);
    assert.match(text, /^ {4}binds +1 × transmitter\+receiver$/m);
    assert.match(text, /^ {4}throughput +no limit$/m);
    assert.match(text, /^ {4}source TON\/NPI +TON 5, NPI 0$/m);
    assert.ok(lines.includes('  spare: 10.0.0.8:2775  (no route sends to it: inbound and receipts only)'), text);
    for (const secret of ['hunter2', 'pw2', 'pw3']) assert.ok(!text.includes(secret), `${secret} must not be shown`);

    const routeLines = lines.filter((line) => line.includes(' → '));
    assert.deepEqual(
      routeLines.map((line) => line.trim().split(/\s+/)),
      [
        ['4479', '→', 'operator-a', 'priority', '1'],
        ['44,', '353', '→', 'backup', 'priority', '2'],
        ['*', '→', 'sandbox', 'priority', '100'],
      ],
    );
    assert.doesNotMatch(text, /no "\*" route/);
  });

  it('warns when destinations no prefix covers are rejected, and names the URL as the source', () => {
    const config: RoutingConfig = {
      source: 'url',
      smscs: [smsc('smpp://sb:pw@h', 'smsc')],
      routes: [{ prefixes: ['44'], smsc: 'smsc', priority: 0, order: 0 }],
    };
    const text = describeRouting(config);
    assert.match(text, /^From SWITCHBOARD_SMPP_URL: this SMSC carries every SMS\.$/m);
    assert.match(text, /no "\*" route: destinations no prefix covers are rejected, REJECTED_ROUTE_NOT_AVAILABLE/);
  });
});
