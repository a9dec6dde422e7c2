import { STATUS } from '../core/pipeline/statuses.js';
import type { TwoFactorTemplate } from '../core/store/types.js';
import type { Logger } from '../logger.js';
import { MAX_VALIDITY_MS } from '../sms/accept/timing.js';
import { prepareText } from '../sms/accept/prepare-content.js';
import type { SmsAcceptor } from '../sms/accept/sms-acceptor.js';
import type { CallsService } from '../voice/calls-service.js';
import { speechLanguageOfTwoFactor } from '../voice/media/speech/languages.js';

export interface PinDeliveryDeps {
  acceptor: SmsAcceptor;
  calls: CallsService;
  log: Logger;
  now(): number;
}

/** One PIN message: where it goes, from whom, its text, and the id its SMS or call takes. */
export interface PinMessage {
  accountId: string;
  /** The id the SMS message or call gets (the PIN's externalMessageId). */
  id: string;
  to: string;
  from?: string;
  text: string;
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

  /** Whether the SMS was accepted (it is refused only when its text is too long). */
  async bySms(message: PinMessage, track: boolean, ttlMs: number): Promise<boolean> {
    const outcome = await this.deps.acceptor.accept(
      message.accountId,
      {
        api: 'sms3',
        freshIds: true,
        messages: [
          {
            ...(message.from === undefined ? {} : { sender: message.from }),
            destinations: [{ to: message.to, messageId: message.id }],
            content: prepareText({ text: message.text }),
            webhook: { intermediateReport: false, notify: track },
            validityMs: smsValidity(ttlMs),
          },
        ],
      },
      this.deps.now(),
    );
    return outcome.entries[0]!.status === STATUS.PENDING_ACCEPTED;
  }

  /**
   * Whether the call was created. Nothing in a valid request can make that fail, only the store
   * (a write that failed or timed out): the PIN then answers that it was not sent, as an SMS
   * refused does, rather than a 500 after the PIN was made and its limits counted — the caller
   * can resend it. The store's error is logged by its code and message alone: the statement's
   * parameters hold the spoken PIN.
   */
  async byVoice(message: PinMessage, template: TwoFactorTemplate, track: boolean): Promise<boolean> {
    try {
      await this.createCall(message, template, track);
      return true;
    } catch (error) {
      const { code, message: text } = error as { code?: unknown; message?: unknown };
      this.deps.log.error({ callId: message.id, error: { code, message: text } }, 'the call of a voice PIN could not be created');
      return false;
    }
  }

  private async createCall(message: PinMessage, template: TwoFactorTemplate, track: boolean): Promise<void> {
    await this.deps.calls.createScripted(message.accountId, {
      callId: message.id,
      to: message.to,
      from: message.from ?? 'anonymous',
      script: {
        speech: {
          kind: 'speech',
          text: message.text,
          language: speechLanguageOfTwoFactor(template.language) ?? 'en',
          speechRate: template.speechRate,
          ...(template.voiceName === undefined ? {} : { voiceName: template.voiceName }),
        },
        // Infobip reads a voice PIN twice; the repeat keys read it again.
        plays: 2,
        ...(template.repeatDTMF === undefined ? {} : { repeatDtmf: template.repeatDTMF }),
        ...(track ? { trackDelivery: true } : {}),
      },
    });
  }
}
