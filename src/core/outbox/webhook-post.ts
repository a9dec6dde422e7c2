import { performance } from 'node:perf_hooks';

export interface PostResult {
  ok: boolean;
  httpStatus?: number;
  error?: string;
  durationMs: number;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
    // undici reports network failures as "fetch failed" with the socket error as the cause.
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      return typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
    }
    return error.message;
  }
  return String(error);
}

/**
 * One POST. Any 2xx is a delivery. Redirects are not followed (a redirected POST is not delivered).
 * The response body is drained so the keep-alive connection can be reused.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const durationMs = (): number => Math.max(0, Math.round(performance.now() - started));
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Switchboard', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    try {
      await response.arrayBuffer();
    } catch {
      // The status already decided the outcome; a body cut short does not change it.
    }
    const ok = response.status >= 200 && response.status < 300;
    return { ok, httpStatus: response.status, durationMs: durationMs() };
  } catch (error) {
    return { ok: false, error: describeFailure(error, timeoutMs), durationMs: durationMs() };
  }
}
