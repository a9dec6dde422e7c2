import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config-error.js';
import { systemClock } from '../core/clock.js';
import { startControlApi } from './control-api.js';
import { loadOutcomeRules } from './outcomes.js';
import { SmscSimulator, type SmscSimulatorOptions } from './simulator.js';

export const SMSC_SIM_USAGE = `Usage: switchboard smsc-sim [options]

  --host HOST                 listen address (default 127.0.0.1)
  --port PORT                 SMPP port (default 2775)
  --tls-key FILE --tls-cert FILE   speak SMPP over TLS
  --system-id ID --password PW     accept only this account (default: any)
  --receipt-delay-ms MS       delay before each receipt (default 1000)
  --id-format hex|decimal     message ids in submit_sm_resp (default hex)
  --receipt-id-format hex|decimal  ids quoted in receipts (default: as --id-format)
  --receipt-style text+tlv|text|tlv  (default text+tlv)
  --gsm7-packing unpacked|packed     how GSM 7-bit text arrives (default unpacked)
  --intermediate              send an ENROUTE notification first when the submit asks (registered_delivery 0x10)
  --receipts-on-other-bind    send each receipt on another bind than the one that submitted its message
  --spread-inbound-parts      send the parts of a long mobile-originated message on different binds
  --throttle-rate N           answer ESME_RTHROTTLED beyond N submits/s per connection
  --rules FILE                outcome rules (JSON array; see README)
  --control-port PORT         HTTP control API on 127.0.0.1 (inject inbound, faults, stats)
  --no-keep-messages          do not keep received messages (long benchmark runs)
`;

const integer = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`smsc-sim: --${name} must be a non-negative integer, got "${value}"`);
  return n;
};

const choice = <T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T => {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new ConfigError(`smsc-sim: --${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
};

const readFlagFile = (name: string, file: string): Promise<Buffer> =>
  readFile(file).catch((error: Error) => Promise.reject(new ConfigError(`smsc-sim: --${name} ${file}: ${error.message}`)));

/** `switchboard smsc-sim`: starts the simulator (and its control API) and prints where they listen. */
export async function runSmscSim(argv: string[], out: (line: string) => void): Promise<{ stop(): Promise<void> }> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-cert': { type: 'string' },
        'system-id': { type: 'string' },
        password: { type: 'string' },
        'receipt-delay-ms': { type: 'string' },
        'id-format': { type: 'string' },
        'receipt-id-format': { type: 'string' },
        'receipt-style': { type: 'string' },
        'gsm7-packing': { type: 'string' },
        intermediate: { type: 'boolean' },
        'receipts-on-other-bind': { type: 'boolean' },
        'spread-inbound-parts': { type: 'boolean' },
        'throttle-rate': { type: 'string' },
        rules: { type: 'string' },
        'control-port': { type: 'string' },
        'no-keep-messages': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new ConfigError(`smsc-sim: ${(error as Error).message}\n\n${SMSC_SIM_USAGE}`);
  }
  if (values.help) {
    out(SMSC_SIM_USAGE);
    return { stop: async () => undefined };
  }
  const str = (name: string): string | undefined => values[name] as string | undefined;
  if ((str('tls-key') === undefined) !== (str('tls-cert') === undefined)) throw new ConfigError('smsc-sim: --tls-key and --tls-cert go together');
  if ((str('system-id') === undefined) !== (str('password') === undefined)) throw new ConfigError('smsc-sim: --system-id and --password go together');
  const idFormat = choice('id-format', str('id-format'), ['hex', 'decimal'] as const, 'hex');
  const options: Partial<SmscSimulatorOptions> & Pick<SmscSimulatorOptions, 'host' | 'port'> = {
    host: str('host') ?? '127.0.0.1',
    port: integer('port', str('port'), 2775),
    receiptDelayMs: integer('receipt-delay-ms', str('receipt-delay-ms'), 1000),
    idFormat,
    receiptIdFormat: choice('receipt-id-format', str('receipt-id-format'), ['hex', 'decimal'] as const, idFormat),
    receiptStyle: choice('receipt-style', str('receipt-style'), ['text+tlv', 'text', 'tlv'] as const, 'text+tlv'),
    gsm7Packing: choice('gsm7-packing', str('gsm7-packing'), ['unpacked', 'packed'] as const, 'unpacked'),
    intermediate: values.intermediate === true,
    receiptsOnOtherBind: values['receipts-on-other-bind'] === true,
    spreadInboundParts: values['spread-inbound-parts'] === true,
    keepMessages: values['no-keep-messages'] !== true,
  };
  if (str('throttle-rate') !== undefined) options.faults = { throttleRate: integer('throttle-rate', str('throttle-rate'), 0) };
  if (str('system-id') !== undefined) options.accounts = [{ systemId: str('system-id')!, password: str('password')! }];
  if (str('rules') !== undefined) options.rules = await loadOutcomeRules(str('rules')!).catch((error: Error) => Promise.reject(new ConfigError(`smsc-sim: ${error.message}`)));
  if (str('tls-key') !== undefined) options.tls = { key: await readFlagFile('tls-key', str('tls-key')!), cert: await readFlagFile('tls-cert', str('tls-cert')!) };
  const sim = new SmscSimulator(options, systemClock);
  const { port } = await sim.start();
  out(`SMSC simulator listening on ${options.tls ? 'smpps' : 'smpp'}://${options.host}:${port}`);
  let control: Awaited<ReturnType<typeof startControlApi>> | undefined;
  if (str('control-port') !== undefined) {
    control = await startControlApi(sim, integer('control-port', str('control-port'), 0));
    out(`control API on ${control.url} (GET /stats, GET /messages, POST /inbound, POST /receipt, POST /faults, POST /disconnect)`);
  }
  return {
    stop: async () => {
      await control?.close();
      await sim.stop();
    },
  };
}
