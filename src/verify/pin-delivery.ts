import { STATUS } from '../core/pipeline/statuses.js';
import type { TwoFactorTemplate } from '../core/store/types.js';
import { MAX_VALIDITY_MS } from '../sms/accept/timing.js';
import { prepareText } from '../sms/accept/prepare-content.js';
import type { SmsAcceptor } from '../sms/accept/sms-acceptor.js';
import type { CallsService } from '../voice/calls-service.js';
import { speechLanguageOfTwoFactor } from '../voice/media/speech/languages.js';

/** What carried a PIN: the SMS message or the call, and whether it left. */
export interface Delivery {
  externalMessageId: string;
  sent: boolean;
  /** Voice: the call's status name as the API reports it at once. */
  callStatus?: string;
}

export interface PinDeliveryDeps {
  acceptor: SmsAcceptor;
  calls: CallsService;
  now(): number;
}

/** How long each SMS PIN is valid on the network: the PIN's own life, as far as the SMS API allows. */
const smsValidity = (ttlMs: number): number => Math.min(Math.max(ttlMs, 60_000), MAX_VALIDITY_MS);

/**
 * Sends PINs through the channels like any client of the core would: an SMS through acceptance (so
 * it shows in logs and reports, and its delivery report goes to the account's subscriptions when
 * the PIN tracks delivery), a voice PIN as a scripted call that reads the text, says it again on the
 * template's repeat keys and hangs up.
 */
export class PinDelivery {
  constructor(private readonly deps: PinDeliveryDeps) {}

  async bySms(accountId: string, to: string, from: string | undefined, text: string, track: boolean, ttlMs: number): Promise<Delivery> {
    const outcome = await this.deps.acceptor.accept(
      accountId,
      {
        api: 'sms3',
        messages: [
          {
            ...(from === undefined ? {} : { sender: from }),
            destinations: [{ to }],
            content: prepareText({ text }),
            webhook: { intermediateReport: false, notify: track },
            validityMs: smsValidity(ttlMs),
          },
        ],
      },
      this.deps.now(),
    );
    const entry = outcome.entries[0]!;
    return { externalMessageId: entry.messageId, sent: entry.status === STATUS.PENDING_ACCEPTED };
  }

  async byVoice(accountId: string, to: string, from: string | undefined, text: string, template: TwoFactorTemplate): Promise<Delivery> {
    const call = await this.deps.calls.createScripted(accountId, {
      to,
      from: from ?? template.senderId ?? 'anonymous',
      script: {
        speech: {
          kind: 'speech',
          text,
          language: speechLanguageOfTwoFactor(template.language) ?? 'en',
          speechRate: template.speechRate,
          ...(template.voiceName === undefined ? {} : { voiceName: template.voiceName }),
        },
        // Infobip reads a voice PIN twice; the repeat keys read it again.
        plays: 2,
        ...(template.repeatDTMF === undefined ? {} : { repeatDtmf: template.repeatDTMF }),
      },
    });
    return { externalMessageId: call.callId, sent: true, callStatus: STATUS.PENDING_ACCEPTED.name };
  }
}
