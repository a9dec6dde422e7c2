import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { withFields } from '../with-fields.js';

export interface PostResult {
  ok: boolean;
  httpStatus?: number;
  error?: string;
  durationMs: number;
  /** The start of the answer's body (RESPONSE_BODY_LIMIT bytes), as UTF-8 text; absent when empty. */
  responseBody?: string;
  responseContentType?: string;
}

/** How much of a receiver's answer is kept with the attempt: enough to see why it refused. */
export const RESPONSE_BODY_LIMIT = 4096;

/**
 * Keep-alive connections, shared by every POST of the process. node:http rather than fetch: a
 * webhook POST through fetch cost about four times the CPU here (its streams, abort signals and
 * request objects), which single-event webhooks (call events) pay once per event.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' }),
};

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/**
 * One POST. Any 2xx is a delivery. Redirects are not followed (a redirected POST is not delivered).
 * The response body is read to its end so the keep-alive connection can be reused, and its first
 * RESPONSE_BODY_LIMIT bytes are kept. `timeoutMs` bounds the whole exchange, from connecting to the
 * end of the response.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const durationMs = (): number => Math.max(0, Math.round(performance.now() - started));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(withFields(result, { durationMs: durationMs() }));
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ ok: false, error: 'invalid URL' });
      return;
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: 'POST',
      agent: agents[secure ? 'https:' : 'http:'],
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'Switchboard', ...headers },
    });
    const timer = setTimeout(() => {
      finish({ ok: false, error: `timed out after ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      // The status decides the outcome; a body cut short afterwards does not change it.
      const done = (): void => {
        const result: Omit<PostResult, 'durationMs'> = { ok: status >= 200 && status < 300, httpStatus: status };
        // Kept as text: a NUL (a binary or compressed answer) is replaced, since PostgreSQL's text refuses it.
        if (kept > 0) result.responseBody = Buffer.concat(chunks, kept).toString('utf8').replaceAll('\0', '\uFFFD');
        const type = response.headers['content-type'];
        if (type !== undefined) result.responseContentType = type.slice(0, 200);
        finish(result);
      };
      response.on('data', (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_LIMIT) return;
        const part = chunk.length <= RESPONSE_BODY_LIMIT - kept ? chunk : chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
        chunks.push(part);
        kept += part.length;
      });
      response.on('end', done).on('error', done).on('aborted', done);
    });
    request.on('error', (error) => finish({ ok: false, error: describeFailure(error) }));
    request.end(body);
  });
}
