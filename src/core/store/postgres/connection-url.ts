/**
 * libpq's way of naming a Unix-domain socket in a connection URL, which postgres.js does not read:
 * a `host` query parameter holding a directory, as in
 * `postgres://user@/db?host=/var/run/postgresql` (the authority may then be empty or any name).
 * Returns the URL postgres.js can parse and the socket's path; other URLs come back unchanged.
 */
export function withUnixSocket(url: string): { url: string; path?: string } {
  let parsed: URL;
  try {
    // An empty authority is valid for libpq but not for the URL parser.
    parsed = new URL(url.replace(/^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)(?=[/?#]|$)/i, '$1localhost'));
  } catch {
    return { url };
  }
  const directory = parsed.searchParams.get('host');
  if (directory === null || !directory.startsWith('/')) return { url };
  parsed.searchParams.delete('host');
  const port = parsed.port || '5432';
  return { url: parsed.toString(), path: `${directory.replace(/\/+$/, '')}/.s.PGSQL.${port}` };
}
