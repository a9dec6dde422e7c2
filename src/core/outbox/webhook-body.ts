/**
 * How the items of one POST become its body. Reports and inbound messages are batched the way
 * Infobip batches them (up to 100 per POST); any other format (`call-event`: Calls API events, which
 * have no batching envelope) is posted one item per request with the payload as the whole body.
 */
export const MAX_ITEMS_PER_POST = 100;

const BATCHED_FORMATS = new Set(['sms-dlr', 'sms-mo', 'rcs-dlr', 'rcs-seen', 'rcs-mo']);

/** Inbound-message formats: their body also counts the messages, as Infobip's pull responses do. */
const INBOUND_FORMATS = new Set(['sms-mo', 'rcs-mo']);

/** How many items one POST of this format may carry. */
export function maxItemsPerPost(format: string): number {
  return BATCHED_FORMATS.has(format) ? MAX_ITEMS_PER_POST : 1;
}

/**
 * The body text of one POST from its items' payload arrays (JSON array texts, as stored), joined as
 * text: the payloads were serialized once, when enqueued.
 */
export function webhookBodyText(format: string, payloadArrays: readonly string[], payloadCount: number): string {
  const joined = payloadArrays.map((array) => array.slice(1, -1)).join(',');
  if (INBOUND_FORMATS.has(format)) {
    // Pushed messages are never pullable, so nothing is left pending behind a push.
    return `{"results":[${joined}],"messageCount":${payloadCount},"pendingMessageCount":0}`;
  }
  if (BATCHED_FORMATS.has(format)) return `{"results":[${joined}]}`;
  return joined;
}
