/** Why audio could not be fetched from a URL; the message is short enough for an API's errorDetails. */
export class AudioFetchError extends Error {
  override name = 'AudioFetchError';
}

export interface FetchAudioOptions {
  maxBytes: number;
  /** For the whole fetch: redirects, headers and body. */
  timeoutMs: number;
}

const MAX_REDIRECTS = 3;

function checkedUrl(url: string, base?: URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    throw new AudioFetchError('not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AudioFetchError('URL must be http or https');
  // Credentials in a URL would end up in logs and in the call's events.
  if (parsed.username !== '' || parsed.password !== '') throw new AudioFetchError('URL must not contain credentials');
  return parsed;
}

function failure(error: unknown, timeoutMs: number): AudioFetchError {
  if (error instanceof AudioFetchError) return error;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return new AudioFetchError(`timed out after ${timeoutMs} ms`);
  // undici reports network failures as "fetch failed" with the socket error as the cause.
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return new AudioFetchError(typeof code === 'string' ? `connection failed: ${code}` : 'connection failed');
}

async function readBody(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = (): AudioFetchError => new AudioFetchError(`larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The bytes at an http(s) URL, for a play of a URL. Redirects are followed (at most three), each
 * target checked like the URL itself. The size cap holds whether or not the server declares a length.
 */
export async function fetchAudio(url: string, options: FetchAudioOptions): Promise<Uint8Array> {
  let target = checkedUrl(url);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(target, { redirect: 'manual', signal, headers: { 'User-Agent': 'Switchboard', Accept: 'audio/*' } });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (redirects === MAX_REDIRECTS) throw new AudioFetchError(`more than ${MAX_REDIRECTS} redirects`);
        target = checkedUrl(location, target);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel().catch(() => {});
        throw new AudioFetchError(`HTTP ${response.status}`);
      }
      return await readBody(response, options.maxBytes);
    }
  } catch (error) {
    throw failure(error, options.timeoutMs);
  }
}
