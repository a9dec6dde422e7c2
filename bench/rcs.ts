/** The RCS requests of `npm run bench`. */

/** A card with a media file, a suggestion on the card and one on the message, as an RCS campaign sends. */
export const RCS_CARD = {
  type: 'CARD',
  orientation: 'VERTICAL',
  alignment: 'LEFT',
  content: {
    title: 'Your order shipped',
    description: 'It arrives on Thursday between 9:00 and 12:00.',
    media: { file: { url: 'https://example.com/a.png' }, height: 'MEDIUM' },
    suggestions: [{ type: 'OPEN_URL', text: 'Track', postbackData: 'track', url: 'https://example.com/t' }],
  },
  suggestions: [{ type: 'REPLY', text: 'Thanks', postbackData: 'thanks' }],
} as const;

/**
 * The `i`th destination of a request: 4179 1000000 + i, or with `failoverEvery`, every that many
 * (the last of each run of them) 4179 iii 9021, a phone the sandbox has take no RCS. The plain
 * numbers end in 0000–0999, so none of the sandbox's failing suffixes (9001–9004, 9021) comes up.
 */
function rcsDestination(i: number, failoverEvery: number | undefined): string {
  if (failoverEvery !== undefined && i % failoverEvery === failoverEvery - 1) return `4179${String(i % 1000).padStart(3, '0')}9021`;
  return `4179${String(1_000_000 + (i % 1000)).padStart(7, '0')}`;
}

/**
 * `POST /rcs/2/messages` body of one message to `destinations` phones; with `failoverEvery`, every
 * message carries an SMS failover and every `failoverEvery`th phone cannot take RCS.
 */
export function rcsBody(destinations: number, options: { webhookUrl?: string; failoverEvery?: number } = {}): string {
  const message: Record<string, unknown> = {
    sender: 'BenchAgent',
    destinations: Array.from({ length: destinations }, (_, i) => ({ to: rcsDestination(i, options.failoverEvery) })),
    content: RCS_CARD,
  };
  if (options.webhookUrl) message.webhooks = { delivery: { url: options.webhookUrl } };
  if (options.failoverEvery !== undefined) message.options = { smsFailover: { text: 'Your order shipped: https://example.com/t' } };
  return JSON.stringify({ messages: [message] });
}
