/** Longest webhook URL we store; long enough for any real endpoint with a query string. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks a URL we will POST webhooks to (`webhooks.delivery.url`, legacy `notifyUrl`, a subscription's
 * `notifyUrl`). Returns what is wrong with it, or undefined when it is usable. Credentials in the URL
 * are refused because the URL is shown in the attempts API and logs; subscriptions carry credentials
 * in their `security` object instead.
 */
export function validateWebhookUrl(url: string): string | undefined {
  if (url.length === 0) return 'must not be blank';
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `size must be between 1 and ${MAX_WEBHOOK_URL_LENGTH}`;
  if (/\s/.test(url)) return 'must not contain whitespace';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (parsed.hostname === '') return 'must name a host';
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain credentials';
  return undefined;
}
