import { randomUUID } from 'node:crypto';
import type { NewMessage, RcsContent, Store, StoredMessage } from '../../src/core/store/types.js';
import { seedMessages, type SeedSpec } from '../sms/read-fixtures.js';

/** RCS messages written straight to the store, as the send side will store them (its route is not there yet). */

export const RCS_TEXT: RcsContent = {
  type: 'TEXT',
  text: 'Your parcel is on its way',
  suggestions: [{ type: 'REPLY', text: 'Thanks', postbackData: 'thanks' }],
};

export const AGENT = 'DemoSender';
export const USER = '385911234567';

/** Fields of an RCS message of the RCS API; `seedMessages` fills in the rest (queued far ahead, so the pipeline leaves it alone). */
export function rcsFields(overrides: Partial<NewMessage> = {}): Partial<NewMessage> {
  return {
    api: 'rcs2',
    channel: 'RCS',
    sender: AGENT,
    destination: USER,
    content: RCS_TEXT,
    encoding: 'RCS',
    webhook: { intermediateReport: false, notify: true },
    ...overrides,
  };
}

export function seedRcs(store: Store, accountId: string, now: number, specs: Array<SeedSpec>): Promise<StoredMessage[]> {
  return seedMessages(store, accountId, now, specs.map((spec) => ({ ...rcsFields(), ...spec })));
}

/** An RCS message with an SMS failover, and that failover (an SMS of the RCS API naming the RCS message). */
export function withFailover(rcsSpec: SeedSpec = {}): { rcs: SeedSpec; failover: (rcsMessageId: string) => SeedSpec } {
  return {
    rcs: { ...rcsFields(), extras: { smsFailover: { text: 'Your parcel is on its way (SMS)' } }, ...rcsSpec },
    failover: (rcsMessageId) => ({
      api: 'rcs2',
      messageId: randomUUID(),
      sender: 'InfoSMS',
      destination: USER,
      content: { text: 'Your parcel is on its way (SMS)' },
      encoding: 'GSM7',
      webhook: { intermediateReport: false, notify: true },
      extras: { failoverOf: rcsMessageId },
    }),
  };
}
