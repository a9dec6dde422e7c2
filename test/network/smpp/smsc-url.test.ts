import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SMSC_DEFAULTS } from '../../../src/network/smpp/smsc-options.js';
import { parseSmscUrl, SmscConfigError } from '../../../src/network/smpp/smsc-url.js';

const defaults = { name: 'smsc', inboundAccount: 'default' };
const LABEL = 'SWITCHBOARD_SMPP_URL';
const parse = (url: string) => parseSmscUrl(url, LABEL, defaults);

/** Asserts the URL is refused with a message matching `expected` that never shows the password. */
function assertRefused(url: string, expected: RegExp, password = 'secretpw'): void {
  assert.throws(
    () => parse(url),
    (error: unknown) => {
      assert.ok(error instanceof SmscConfigError, `${url}: ${String(error)}`);
      assert.match(error.message, expected, url);
      assert.ok(error.message.startsWith(LABEL), `${error.message} starts with the label`);
      assert.ok(!error.message.includes(password), `${error.message} hides the password`);
      return true;
    },
  );
}

describe('parseSmscUrl', () => {
  it('takes SMSC_DEFAULTS for everything the URL leaves out', () => {
    const options = parse('smpp://sb:pw@smsc.example.com');
    assert.equal(options.tls, undefined);
    assert.deepEqual(options, {
      ...SMSC_DEFAULTS,
      name: 'smsc',
      host: 'smsc.example.com',
      port: 2775,
      systemId: 'sb',
      password: 'pw',
      source: {},
      destination: {},
      inboundAccount: 'default',
    });
  });

  it('reads smpps:// as TLS on port 3550, verifying the certificate unless told not to', () => {
    assert.deepEqual(parse('smpps://sb:pw@h').tls, { rejectUnauthorized: true });
    assert.equal(parse('smpps://sb:pw@h').port, 3550);
    assert.equal(parse('smpps://sb:pw@h:4000').port, 4000);
    assert.deepEqual(parse('smpps://sb:pw@h?tlsVerify=false').tls, { rejectUnauthorized: false });
  });

  it('URL-decodes the system id and the password', () => {
    const options = parse('smpp://sb%40x:p%3A%40%2F%25w@h:2775');
    assert.equal(options.systemId, 'sb@x');
    assert.equal(options.password, 'p:@/%w');
  });

  it('accepts a URL without a password, and an IPv6 host', () => {
    const options = parse('smpp://sb@[2001:db8::7]:2776');
    assert.equal(options.password, '');
    assert.equal(options.host, '2001:db8::7');
    assert.equal(options.port, 2776);
  });

  it('reads every parameter, seconds into milliseconds', () => {
    const options = parse(
      'smpp://sb:pw@h/?name=op-a&systemType=VMA&mode=transmitter%2Breceiver&binds=64&window=10000&throughput=100000' +
        '&enquireLinkSeconds=0&responseTimeoutSeconds=2.5&connectTimeoutSeconds=3&reconnectMinSeconds=0.5&reconnectMaxSeconds=60' +
        '&longMessages=payload&gsm7Packing=packed&gsm7DataCoding=1&registeredDelivery=false' +
        '&sourceTon=5&sourceNpi=0&destTon=2&destNpi=9&submitIdFormat=hex&receiptIdFormat=decimal&inboundAccount=acme',
    );
    assert.deepEqual(options, {
      name: 'op-a',
      host: 'h',
      port: 2775,
      systemId: 'sb',
      password: 'pw',
      systemType: 'VMA',
      mode: 'transmitter+receiver',
      binds: 64,
      window: 10_000,
      throughput: 100_000,
      enquireLinkMs: 0,
      responseTimeoutMs: 2500,
      connectTimeoutMs: 3000,
      reconnectMinMs: 500,
      reconnectMaxMs: 60_000,
      longMessages: 'payload',
      gsm7Packing: 'packed',
      gsm7DataCoding: 1,
      registeredDelivery: false,
      source: { ton: 5, npi: 0 },
      destination: { ton: 2, npi: 9 },
      submitIdFormat: 'hex',
      receiptIdFormat: 'decimal',
      inboundAccount: 'acme',
    });
  });

  it('accepts trx and tx+rx for the bind mode', () => {
    assert.equal(parse('smpp://sb:pw@h?mode=trx').mode, 'transceiver');
    assert.equal(parse('smpp://sb:pw@h?mode=tx%2Brx').mode, 'transmitter+receiver');
    assert.equal(parse('smpp://sb:pw@h?mode=tx+rx').mode, 'transmitter+receiver', 'a + in the query is a +, not a space');
    assert.equal(parse('smpp://sb:pw@h?mode=transmitter+receiver').mode, 'transmitter+receiver');
    assert.equal(parse('smpp://sb:pw@h?mode=transceiver').mode, 'transceiver');
  });

  it('names the parameter and the allowed values in its errors', () => {
    const bad: Array<[string, RegExp]> = [
      ['?window=abc', /^SWITCHBOARD_SMPP_URL: window must be an integer between 1 and 10000, got "abc"$/],
      ['?window=0', /window must be an integer between 1 and 10000, got "0"/],
      ['?binds=65', /binds must be an integer between 1 and 64/],
      ['?binds=1.5', /binds must be an integer/],
      ['?throughput=-1', /throughput must be an integer between 0 and 100000/],
      ['?enquireLinkSeconds=3601', /enquireLinkSeconds must be a number between 0 and 3600/],
      ['?mode=duplex', /mode must be one of transceiver, transmitter\+receiver, got "duplex"/],
      ['?longMessages=udh7', /longMessages must be one of udh8, udh16, sar, payload/],
      ['?gsm7Packing=tight', /gsm7Packing must be one of unpacked, packed/],
      ['?gsm7DataCoding=3', /gsm7DataCoding must be an integer between 0 and 1/],
      ['?registeredDelivery=yes', /registeredDelivery must be true or false, got "yes"/],
      ['?sourceTon=256', /sourceTon must be an integer between 0 and 255/],
      ['?destNpi=x', /destNpi must be an integer between 0 and 255/],
      ['?submitIdFormat=base64', /submitIdFormat must be one of text, hex, decimal/],
      ['?receiptIdFormat=', /receiptIdFormat must be one of text, hex, decimal, got ""/],
      ['?systemType=far-too-long-type', /systemType must be at most 12 printable ASCII characters/],
      ['?inboundAccount=a%20b', /inboundAccount must be an account name/],
      ['?name=sandbox', /name must be 1–64 letters, digits, _ \. - and not "sandbox"/],
      ['?name=a%20b', /name must be 1–64 letters/],
      ['?windw=5', /unknown parameter "windw" \(known: name, systemType, mode, binds, window/],
      ['?window=5&window=6', /window is given more than once/],
      ['?tlsVerify=false', /tlsVerify only applies to smpps:\/\//],
      ['?reconnectMinSeconds=10&reconnectMaxSeconds=1', /reconnectMaxSeconds must not be below reconnectMinSeconds/],
    ];
    for (const [query, expected] of bad) assertRefused(`smpp://sb:secretpw@h${query}`, expected);
  });

  it('refuses URLs that are not smpp://SYSTEM_ID:PASSWORD@HOST:PORT', () => {
    assertRefused('smsc.example.com:2775', /must start with smpp:\/\/ or smpps:\/\/|is not a URL/);
    assertRefused('http://sb:secretpw@h', /must start with smpp:\/\/ or smpps:\/\/, got http:\/\//);
    assertRefused('smpp://h:2775', /has no system id/);
    assertRefused('smpp://:secretpw@h', /has no system id/);
    assertRefused('smpp://sb:secretpw@h:99999', /is not a URL/);
    assertRefused('smpp://sb:secretpw@h:0', /port must be between 1 and 65535/);
    assertRefused('smpp://sb:secretpw@h:2775/bind', /got a path or #fragment/);
    assertRefused('smpp://sb:secretpw@h#x', /got a path or #fragment/);
    assertRefused('smpp://sixteen-chars-id:secretpw@h', /system id has more than 15 characters/);
  });

  it('never repeats the password, even when that is what is wrong', () => {
    assertRefused('smpp://sb:toolongpassword@h', /the password has more than 8 characters/, 'toolongpassword');
    assertRefused('smpp://sb:se%zzcret@h', /password holds a % that does not start a %XX escape/, 'se%zzcret');
    assertRefused('smpp://sb:p#ss@h', /is not a URL/, 'p#ss');
  });

  it('prefixes errors with the label it is given', () => {
    assert.throws(
      () => parseSmscUrl('smpp://sb:pw@h?window=abc', 'smscs[2].url', defaults),
      (error: Error) => error.message.startsWith('smscs[2].url: window must be'),
    );
  });
});
