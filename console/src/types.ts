/** The shapes of the API answers the console reads (only the fields it uses). */

export interface Status {
  groupId: number;
  groupName: string;
  id: number;
  name: string;
  description: string;
}

export interface MessageError extends Status {
  permanent?: boolean;
}

export interface MessageRow {
  seq: string;
  messageId: string;
  bulkId: string;
  channel: 'SMS' | 'RCS';
  api: string;
  from?: string;
  to: string;
  text?: string;
  contentType?: string;
  encoding: string;
  parts: number;
  status: Status;
  error?: MessageError;
  createdAt: string;
  sentAt?: string;
  doneAt?: string;
  failoverOf?: string;
}

export interface WebhookAttempt {
  id: string;
  url: string;
  itemCount: number;
  attempt: number;
  startedAt: string;
  durationMs: number;
  httpStatus?: number;
  error?: string;
  outcome: 'delivered' | 'retry' | 'failed';
  responseBody?: string;
  responseContentType?: string;
}

export interface WebhookItem {
  id: string;
  url: string;
  itemCount: number;
  format: string;
  stream?: string;
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  dueAt: string;
  lastError?: string;
  requestBody?: string;
}

export interface LifeEvent {
  at: string;
  event: 'ACCEPTED' | 'SUBMITTED' | 'REPORT' | 'FINAL' | string;
  status?: Status;
  error?: MessageError;
  detail?: string;
}

export interface MessageDetail {
  message: MessageRow;
  content: Record<string, unknown>;
  callbackData?: string;
  validUntil?: string;
  webhookUrl?: string;
  encoding?: { encoding: string; characters: number; parts: number; partTexts?: string[]; unicodeCharacters?: string[] };
  life: LifeEvent[];
  webhooks: Array<{ itemId: string; url: string; format: string; state: string; attempts: WebhookAttempt[] }>;
}

export interface PhoneSummary {
  number: string;
  lastAt: string;
  received: number;
  sent: number;
  lastText?: string;
}

export interface PhoneEntry {
  channel: string;
  direction?: 'received' | 'sent';
  messageId?: string;
  from?: string;
  to?: string;
  text?: string;
  receivedAt: string;
  content?: RcsContent;
  payload?: Record<string, unknown>;
}

export interface Suggestion {
  type: string;
  text: string;
  postbackData: string;
  url?: string;
  phoneNumber?: string;
  latitude?: number;
  longitude?: number;
}

export interface CardContent {
  title?: string;
  description?: string;
  media?: { file?: { url: string }; thumbnail?: { url: string }; height?: string };
  suggestions?: Suggestion[];
}

export interface RcsContent {
  type: string;
  text?: string;
  file?: { url: string };
  thumbnail?: { url: string };
  content?: CardContent;
  contents?: CardContent[];
  templateId?: string;
  suggestions?: Suggestion[];
}

export interface Call {
  id: string;
  endpoint: { type: string; phoneNumber?: string; username?: string; identity?: string };
  from: string;
  to: string;
  direction: 'INBOUND' | 'OUTBOUND';
  state: string;
  startTime?: string;
  answerTime?: string;
  endTime?: string;
  duration?: number;
  callsConfigurationId?: string;
  errorCode?: { id: number; name: string; description: string };
  hangupSource?: string;
}

export interface TimelineEntry {
  at: string;
  type: string;
  [field: string]: unknown;
}

export interface Application {
  applicationId: string;
  name: string;
  enabled: boolean;
}

export interface PinRow {
  pinId: string;
  msisdn: string;
  channel: 'SMS' | 'VOICE';
  sentAt: string;
  expiresAt: string;
  verified: boolean;
  verifiedAt?: string;
  wrongAttempts: number;
  attemptsRemaining: number;
  state: 'PENDING' | 'VERIFIED' | 'EXPIRED' | 'NO_MORE_ATTEMPTS';
  messageId?: string;
}

export interface WebhookTarget {
  url: string;
  pending: number;
  failed: number;
  delivered: number;
  lastAttemptAt?: string;
  lastOutcome?: string;
  lastHttpStatus?: number;
  lastError?: string;
}

export interface SandboxRule {
  match: { suffix?: string; prefix?: string; number?: string };
  outcome: string;
  latencyMs?: number;
  status?: string;
  error?: string;
}
