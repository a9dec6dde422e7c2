import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const relative of ['../../package.json', '../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'switchboard' && parsed.version) return parsed.version;
    } catch {
      // try the next location: the file layout differs between the source tree and the build
    }
  }
  return '0.0.0';
}

export const version = readVersion();
