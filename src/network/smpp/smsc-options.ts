/** How one SMSC is reached and spoken to; parsed from the route file or SWITCHBOARD_SMPP_URL. */

/** One transceiver connection per bind, or a transmitter and a receiver connection per bind. */
export type BindMode = 'transceiver' | 'transmitter+receiver';

/**
 * How a text longer than one part travels: a User Data Header with an 8- or 16-bit reference in
 * every part, SAR TLVs (sar_msg_ref_num, sar_total_segments, sar_segment_seqnum) with the same parts
 * and no UDH, or the whole text in one submit_sm's `message_payload` TLV (the SMSC splits it).
 */
export type LongMessageMode = 'udh8' | 'udh16' | 'sar' | 'payload';

/**
 * How a message id is written, in submit_sm_resp and in receipts. Many SMSCs answer a submit with a
 * hexadecimal id and quote it in decimal in the receipt (or the reverse); both sides are brought to
 * one canonical form before they are compared. `text` compares case-insensitively as given.
 */
export type MessageIdFormat = 'text' | 'hex' | 'decimal';

export interface AddressOverride {
  ton?: number;
  npi?: number;
}

export interface SmscTlsOptions {
  /** Verify the SMSC's certificate (default true). */
  rejectUnauthorized: boolean;
  /** PEM of the CA that signed the SMSC's certificate, when it is not a public one. */
  ca?: string;
}

export interface SmscOptions {
  /** Unique name; recorded with every message it carries and used in metrics and logs. */
  name: string;
  host: string;
  port: number;
  tls?: SmscTlsOptions;
  systemId: string;
  password: string;
  systemType: string;
  mode: BindMode;
  /** Binds opened to this SMSC; submits are spread across those that are bound. */
  binds: number;
  /** Most submits awaiting their response per bind. */
  window: number;
  /** Most submit_sm per second per bind; 0 = no limit. */
  throughput: number;
  enquireLinkMs: number;
  /** How long a request may wait for its response before the bind is considered broken. */
  responseTimeoutMs: number;
  connectTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  longMessages: LongMessageMode;
  /** GSM 03.38 text as one septet per octet (`unpacked`, what most SMSCs expect) or packed 7-bit. */
  gsm7Packing: 'unpacked' | 'packed';
  /** data_coding sent with GSM 03.38 text: 0 (SMSC default alphabet, usual) or 1 (IA5/ASCII on some SMSCs). */
  gsm7DataCoding: number;
  /** Ask for delivery receipts (registered_delivery 1). */
  registeredDelivery: boolean;
  /** Fixed TON/NPI for the source address; by default chosen from the sender (see addressing.ts). */
  source: AddressOverride;
  /** Fixed TON/NPI for the destination; default international/ISDN (1/1). */
  destination: AddressOverride;
  submitIdFormat: MessageIdFormat;
  receiptIdFormat: MessageIdFormat;
  /** Account name that inbound messages from this SMSC belong to. */
  inboundAccount: string;
}

export const SMSC_DEFAULTS = {
  port: 2775,
  systemType: '',
  mode: 'transceiver',
  binds: 1,
  window: 64,
  throughput: 0,
  enquireLinkMs: 30_000,
  responseTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  reconnectMinMs: 1_000,
  reconnectMaxMs: 30_000,
  longMessages: 'udh8',
  gsm7Packing: 'unpacked',
  gsm7DataCoding: 0,
  registeredDelivery: true,
  submitIdFormat: 'text',
  receiptIdFormat: 'text',
} as const satisfies Partial<SmscOptions>;
