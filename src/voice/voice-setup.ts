import type { Config } from '../config.js';
import type { CallRecord } from '../core/store/types.js';
import type { ChannelEvent } from '../core/subscriptions/subscription-channels.js';
import type { SubscriptionMatcher } from '../core/subscriptions/matcher.js';
import { SandboxTelephony } from '../network/telephony/sandbox-telephony.js';
import type { EventTargets } from './call-steps.js';
import type { MachineContext } from './machine/call-machine.js';

/** The sandbox latency at which speech and audio play in real time; below it they play faster. */
export const REAL_TIME_LATENCY_MS = 1500;

/** The network calls travel on and the pace media plays at, as the configuration sets them. */
export function callMachineContext(config: Pick<Config, 'sandboxLatencyMs'>): MachineContext {
  return { telephony: new SandboxTelephony(config.sandboxLatencyMs), mediaScale: config.sandboxLatencyMs / REAL_TIME_LATENCY_MS };
}

/** Calls history is read back five days (Infobip's retention), longer when the store keeps more. */
export const callsRetentionMs = (config: Pick<Config, 'retentionMs'>): number => Math.max(config.retentionMs, 5 * 24 * 3_600_000);

/** Our side's number of a call, which subscriptions' `resources` match: the caller id out, the number called in. */
const ourNumber = (call: CallRecord): string => (call.direction === 'OUTBOUND' ? call.from : call.to);

/** Call events go to the account's VOICE_VIDEO subscriptions, matched on the call's configuration and platform. */
export function voiceEventTargets(subscriptions: SubscriptionMatcher): (accountId: string) => Promise<EventTargets> {
  return async (accountId) => {
    const snapshot = await subscriptions.snapshot(accountId);
    return {
      targetsFor: (event, call) =>
        snapshot.targetsFor('VOICE_VIDEO', event as ChannelEvent<'VOICE_VIDEO'>, {
          callsConfigurationId: call.configurationId,
          ...(call.platform?.applicationId === undefined ? {} : { applicationId: call.platform.applicationId }),
          ...(call.platform?.entityId === undefined ? {} : { entityId: call.platform.entityId }),
          to: ourNumber(call),
        }),
    };
  };
}
