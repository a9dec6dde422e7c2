import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../core/clock.js';
import { notFound, violation } from '../core/errors/api-problem.js';
import type { PinRecord, Store, TwoFactorTemplate } from '../core/store/types.js';
import type { RouteRule } from '../network/routing/routing-config.js';
import { checkDestination } from '../sms/accept/destination.js';
import { timeOrderedUuid } from '../core/ids.js';
import { mustParse, parseTimeToLive } from './durations.js';
import { lookUpNumber, type NcStatus } from './number-lookup.js';
import { derivePin, isPin, pinDigest, spokenPin } from './pin-codes.js';
import type { PinDelivery } from './pin-delivery.js';
import { fillTemplate } from './read/template.js';
import { checkDestinationCountry, takeSendAllowance, takeVerifyAllowance } from './send-guards.js';
import { VerifySettingsCache } from './settings-cache.js';
import { newVerifyId } from './verify-ids.js';

export type PinChannel = 'sms' | 'voice';

export interface SendPinRequest {
  applicationId: string;
  messageId: string;
  to: string;
  from?: string;
  placeholders?: Record<string, string>;
  trackDelivery?: boolean;
}

export interface ResendPinRequest {
  placeholders?: Record<string, string>;
  trackDelivery?: boolean;
}

/** StartAuthenticationResponse: the fields of the channel used. */
export interface SendPinResult {
  pinId: string;
  to: string;
  ncStatus?: NcStatus;
  smsStatus?: 'MESSAGE_SENT' | 'MESSAGE_NOT_SENT';
  callStatus?: string;
  externalMessageId?: string;
}

export interface VerifyPinResult {
  pinId: string;
  msisdn: string;
  verified: boolean;
  attemptsRemaining: number;
  pinError?: 'WRONG_PIN' | 'TTL_EXPIRED' | 'NO_MORE_PIN_ATTEMPTS';
}

export interface VerifyServiceDeps {
  store: Store;
  clock: Clock;
  /** How long applications and templates are cached (a change through another node shows within it). */
  settingsTtlMs?: number;
  delivery: PinDelivery;
  /** The SMS routes: a number the sandbox carries can be looked up. */
  routes: RouteRule[];
  /** The operator's PIN key (SWITCHBOARD_PIN_KEY); without it, one made once and kept in the store. */
  pinKey?: Buffer;
}

type PinFacts = Pick<PinRecord, 'applicationId' | 'msisdn' | 'pinHash'>;

const factsOf = (pin: PinRecord): PinFacts => ({ applicationId: pin.applicationId, msisdn: pin.msisdn, pinHash: pin.pinHash });

/** The store's name of the deployment's PIN key. */
const PIN_KEY = 'pin-key';

/** A number in the form PINs are kept and limited under: bare digits. */
function msisdnOf(to: string, property: string): string {
  const check = checkDestination(to);
  if (!check.ok) throw violation(property, 'must be a phone number in international format: 3 to 15 digits, optionally after a +');
  return check.number;
}

function checkPlaceholders(placeholders: Record<string, string> | undefined): void {
  if (placeholders === undefined) return;
  if (Object.hasOwn(placeholders, 'pin')) throw violation('placeholders.pin', 'the PIN placeholder is filled with the PIN and cannot be given');
  for (const key of Object.keys(placeholders)) {
    if (key === '' || key.length > 128) throw violation('placeholders', 'key size must be between 1 and 128');
  }
}

/**
 * Two-factor verification: sends PINs through the SMS and voice pipelines under the application's
 * limits and protections, and verifies them atomically in the store. A PIN is derived from its
 * random pinId under the deployment's key and kept only as a keyed hash, so a resend sends the same
 * PIN; whoever holds the key and reads the store can derive the PINs alive, which is why the
 * operator may keep the key out of the store.
 */
export class VerifyService {
  private key?: Promise<Buffer>;
  private readonly settings: VerifySettingsCache;
  /**
   * What never changes of the PINs this node sent or verified lately, so that a verification reads
   * nothing before its one conditional update (counts and verification live only in the store).
   * Sized for the PINs alive at once on a busy node (100 a second for a 15-minute life is 90 000),
   * about 35 MB when full: at 20 000, guesses spread over the last 30 000 PINs read each PIN first
   * and verified a quarter slower (3 750-3 810 against 4 790-5 010 a second).
   */
  private readonly pinFacts = new LRUCache<string, PinFacts>({ max: 100_000 });

  constructor(private readonly deps: VerifyServiceDeps) {
    this.settings = new VerifySettingsCache({ store: deps.store, clock: deps.clock, ttlMs: deps.settingsTtlMs ?? 1_000 });
  }

  /** An application or one of its templates changed through this node. */
  settingsChanged(accountId: string, applicationId: string): void {
    this.settings.forget(accountId, applicationId);
  }

  async send(accountId: string, channel: PinChannel, request: SendPinRequest, ncNeeded: boolean): Promise<SendPinResult> {
    const { store, clock } = this.deps;
    const application = await this.settings.application(accountId, request.applicationId);
    if (!application) throw violation('applicationId', 'no application with this id');
    if (!application.enabled) throw violation('applicationId', 'the application is disabled');
    const template = await this.settings.template(accountId, request.applicationId, request.messageId);
    if (!template) throw violation('messageId', 'the application has no message template with this id');
    checkPlaceholders(request.placeholders);
    const msisdn = msisdnOf(request.to, 'to');
    checkDestinationCountry(application, msisdn, 'to');
    const now = clock.now();
    await takeSendAllowance(store.rateWindows, application, msisdn, now);

    const key = await this.pinKey();
    const pinId = newVerifyId(now);
    const pinType = template.pinType;
    const pinLength = template.pinLength;
    const pin = derivePin(key, pinId, pinType, pinLength);
    const ttlMs = mustParse(parseTimeToLive(application.configuration.pinTimeToLive), 'pinTimeToLive');
    const nc = channel === 'sms' && ncNeeded ? lookUpNumber(msisdn, this.deps.routes) : undefined;
    const sending = nc !== 'NC_DESTINATION_NOT_REACHABLE';
    const externalMessageId = timeOrderedUuid(now);
    const record: PinRecord = {
      accountId,
      pinId,
      applicationId: application.applicationId,
      messageId: template.messageId,
      msisdn,
      pinType,
      pinLength,
      pinHash: pinDigest(key, pinId, pin),
      createdAt: now,
      expiresAt: now + ttlMs,
      maxAttempts: application.configuration.pinAttempts,
      wrongAttempts: 0,
      allowMultipleVerifications: application.configuration.allowMultiplePinVerifications,
      sentAt: now,
    };
    if (channel === 'voice') record.channel = 'VOICE';
    // The PIN is stored before its message leaves: a code the user receives can always be verified.
    // The message's own durable commit comes next and makes the PIN's durable with it.
    if (sending) record.externalMessageId = externalMessageId;
    await store.pins.create(record, { durableWithNextCommit: sending });
    this.pinFacts.set(`${accountId}\u0000${pinId}`, factsOf(record));
    const sent = sending && (await this.deliver(channel, { record, template, pin, from: request.from, placeholders: request.placeholders, ttlMs, track: request.trackDelivery === true }));
    if (sending && !sent) await store.pins.markSent(accountId, pinId, now, undefined);
    return this.result(channel, record, { nc, sent, track: request.trackDelivery === true });
  }

  async resend(accountId: string, pinId: string, channel: PinChannel, request: ResendPinRequest): Promise<SendPinResult> {
    const { store, clock } = this.deps;
    const record = await store.pins.get(accountId, pinId);
    if (!record) throw notFound();
    const now = clock.now();
    // UNCONFIRMED: Infobip does not say; sending a code that can no longer verify helps nobody.
    if (record.expiresAt <= now) throw violation('pinId', 'the PIN has expired; send a new one');
    const application = await this.settings.application(accountId, record.applicationId);
    if (!application) throw notFound();
    if (!application.enabled) throw violation('pinId', "the PIN's application is disabled");
    const template = await this.settings.template(accountId, record.applicationId, record.messageId);
    if (!template) throw notFound();
    checkPlaceholders(request.placeholders);
    checkDestinationCountry(application, record.msisdn, 'to');
    await takeSendAllowance(store.rateWindows, application, record.msisdn, now);

    const key = await this.pinKey();
    const pin = derivePin(key, pinId, record.pinType, record.pinLength);
    const nc = channel === 'sms' ? lookUpNumber(record.msisdn, this.deps.routes) : undefined;
    const sending = nc !== 'NC_DESTINATION_NOT_REACHABLE';
    const externalMessageId = timeOrderedUuid(now);
    const resent: PinRecord = { ...record, sentAt: now, externalMessageId };
    const sent =
      sending && (await this.deliver(channel, { record: resent, template, pin, placeholders: request.placeholders, ttlMs: record.expiresAt - now, track: request.trackDelivery === true }));
    // The PIN keeps its life and its attempts (UNCONFIRMED; not resetting them keeps a resend from extending a guessing window).
    if (sent) await store.pins.markSent(accountId, pinId, now, externalMessageId, channel === 'voice' ? 'VOICE' : 'SMS');
    return this.result(channel, resent, { nc, sent, track: request.trackDelivery === true });
  }

  async verify(accountId: string, pinId: string, guess: string): Promise<VerifyPinResult> {
    const { store, clock } = this.deps;
    const record = await this.factsOf(accountId, pinId);
    if (!record) throw notFound();
    const application = await this.settings.application(accountId, record.applicationId);
    if (!application) throw notFound();
    const now = clock.now();
    await takeVerifyAllowance(store.rateWindows, application, record.msisdn, now);
    const correct = isPin(await this.pinKey(), pinId, guess, record.pinHash);
    const outcome = await store.pins.verify(accountId, pinId, correct, now);
    if (!outcome) throw notFound();
    const base = { pinId, msisdn: record.msisdn };
    const remaining = Math.max(0, outcome.pin.maxAttempts - outcome.pin.wrongAttempts);
    switch (outcome.result) {
      case 'verified':
        return { ...base, verified: true, attemptsRemaining: 0 };
      case 'wrong':
        return { ...base, verified: false, attemptsRemaining: remaining, pinError: 'WRONG_PIN' };
      case 'expired':
        return { ...base, verified: false, attemptsRemaining: remaining, pinError: 'TTL_EXPIRED' };
      default:
        // Exhausted, or verified once already where a PIN verifies once.
        return { ...base, verified: false, attemptsRemaining: 0, pinError: 'NO_MORE_PIN_ATTEMPTS' };
    }
  }

  /** The PINs sent to a number by the application, newest first. */
  async verifications(accountId: string, applicationId: string, query: { msisdn: string; verified?: boolean; sent?: boolean }): Promise<PinRecord[]> {
    const { store } = this.deps;
    if (!(await store.twoFactorApplications.get(accountId, applicationId))) throw notFound();
    const check = checkDestination(query.msisdn);
    if (!check.ok) return [];
    const filter = query.verified === undefined ? {} : { verified: query.verified };
    const pins = await store.pins.listForMsisdn(accountId, applicationId, check.number, filter, 1_000);
    return query.sent === undefined ? pins : pins.filter((pin) => (pin.externalMessageId !== undefined) === query.sent);
  }

  private async factsOf(accountId: string, pinId: string): Promise<PinFacts | undefined> {
    const key = `${accountId}\u0000${pinId}`;
    const cached = this.pinFacts.get(key);
    if (cached) return cached;
    const pin = await this.deps.store.pins.get(accountId, pinId);
    if (!pin) return undefined;
    const facts = factsOf(pin);
    this.pinFacts.set(key, facts);
    return facts;
  }

  private async deliver(
    channel: PinChannel,
    what: { record: PinRecord; template: TwoFactorTemplate; pin: string; from?: string | undefined; placeholders?: Record<string, string> | undefined; ttlMs: number; track: boolean },
  ): Promise<boolean> {
    const { record, template } = what;
    const pinText = channel === 'voice' ? spokenPin(what.pin) : what.pin;
    const from = what.from ?? template.senderId;
    const message = {
      accountId: record.accountId,
      id: record.externalMessageId!,
      to: record.msisdn,
      text: fillTemplate(template.messageText, pinText, what.placeholders),
      ...(from === undefined ? {} : { from }),
    };
    if (channel === 'sms') return this.deps.delivery.bySms(message, what.track, what.ttlMs);
    return this.deps.delivery.byVoice(message, template, what.track);
  }

  private result(channel: PinChannel, record: PinRecord, o: { nc: NcStatus | undefined; sent: boolean; track: boolean }): SendPinResult {
    const result: SendPinResult = { pinId: record.pinId, to: record.msisdn };
    if (channel === 'sms') {
      if (o.nc !== undefined) result.ncStatus = o.nc;
      result.smsStatus = o.sent ? 'MESSAGE_SENT' : 'MESSAGE_NOT_SENT';
    } else {
      result.callStatus = o.sent ? 'PENDING_ACCEPTED' : 'REJECTED';
    }
    if (o.track && o.sent && record.externalMessageId !== undefined) result.externalMessageId = record.externalMessageId;
    return result;
  }

  /** The deployment's PIN key: the operator's, else made once and kept in the store, shared by every node. */
  private pinKey(): Promise<Buffer> {
    if (this.deps.pinKey !== undefined) return Promise.resolve(this.deps.pinKey);
    this.key ??= this.deps.store.secrets.getOrCreate(PIN_KEY, () => randomBytes(32).toString('hex')).then(
      (hex) => Buffer.from(hex, 'hex'),
      (error: unknown) => {
        this.key = undefined;
        throw error;
      },
    );
    return this.key;
  }
}

