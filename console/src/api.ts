import { forgetKey, storedKey } from './key';

/** A refusal from the server, with the text of its error envelope (either family). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Listeners told when the key stops working (401), so the page can ask for it again. */
const signedOut = new Set<() => void>();
export const onSignedOut = (listener: () => void): (() => void) => {
  signedOut.add(listener);
  return () => signedOut.delete(listener);
};

/** The key was refused: the tab forgets it and the page asks for one again. */
export function signOut(): void {
  forgetKey();
  for (const listener of signedOut) listener();
}

/** The text an error body carries, from the legacy envelope or the v3 one, violations included. */
function errorText(status: number, body: unknown): string {
  const legacy = (body as { requestError?: { serviceException?: { text?: string; validationErrors?: Record<string, string[]> } } })
    ?.requestError?.serviceException;
  if (legacy) {
    const details = Object.entries(legacy.validationErrors ?? {}).map(([field, texts]) => `${field}: ${texts.join(', ')}`);
    return [legacy.text, ...details].filter(Boolean).join(' — ');
  }
  const v3 = body as { description?: string; violations?: Array<{ property: string; violation: string }> };
  if (v3?.description) return [v3.description, ...(v3.violations ?? []).map((v) => `${v.property}: ${v.violation}`)].join(' — ');
  return `HTTP ${status}`;
}

export function authHeaders(key = storedKey()): Record<string, string> {
  return key ? { authorization: `App ${key}` } : {};
}

/** One API call with the tab's key; a 401 signs the page out. */
export async function request(path: string, init: { method?: string; body?: unknown; key?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(init.key ?? storedKey()) };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  if (response.status === 401 && init.key === undefined) signOut();
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, errorText(response.status, body));
  }
  return response;
}

export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  return (await request(path, init)).json() as Promise<T>;
}

/** Whether a key is accepted, without signing anybody out when it is not. */
export async function keyWorks(key: string): Promise<boolean> {
  try {
    await request('/sandbox/1/rules', { key });
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}
