import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ChangeFeed } from './change-feed.js';
import type { WireChanges } from './change-set.js';

/** A comment line this often keeps proxies from closing a quiet stream. */
export const PING_MS = 25_000;
/** A console that reads nothing while this much waits for it is dropped (it reconnects and reloads). */
const MAX_BUFFERED = 1024 * 1024;
/** How long a closing server lets its streams drain before it cuts them. */
const END_GRACE_MS = 1_000;

/** The feed's changes as the console reads them: message seqs are strings, like every id on the wire. */
function changesText(changes: WireChanges): string {
  const { messages, ...rest } = changes;
  const wire = messages === undefined ? rest : { messages: messages.map(String), ...rest };
  return `event: changes\ndata: ${JSON.stringify(wire)}\n\n`;
}

/**
 * GET /switchboard/1/events: the live feed of the caller's account as server-sent events. It
 * answers `event: ready` at once, then `event: changes` naming what changed (coalesced, at most
 * one event per FEED_INTERVAL_MS), and `: ping` every PING_MS. Authenticated like any endpoint:
 * the console reads it with fetch(), which sends the Authorization header (EventSource cannot).
 */
export function registerEventsRoute(app: FastifyInstance, feed: ChangeFeed): void {
  const open = new Set<ServerResponse>();
  let closing = false;
  // Streams never end on their own: a closing server ends them, so that its connections go idle,
  // and cuts those whose reader stopped reading, which would otherwise keep it waiting for them.
  app.addHook('preClose', (done) => {
    closing = true;
    feed.flush();
    for (const response of open) response.end();
    setTimeout(() => {
      for (const response of open) response.destroy();
    }, END_GRACE_MS).unref();
    done();
  });

  app.get(
    '/switchboard/1/events',
    {
      schema: {
        tags: ['Console'],
        summary: "Live changes of the account's messages, phones, calls, webhooks and 2FA applications (server-sent events)",
        description:
          'A `text/event-stream`: `event: ready` on connect, then `event: changes` with `data:` a JSON object holding only the ' +
          'keys that changed since the last event: `messages` (seqs of messages accepted or whose status changed; at most 1000, ' +
          'else `messagesOverflow: true`), `phones` (numbers that received or sent something), `calls` (call ids created or ' +
          'changed), `webhooks: true` (an item was created or attempted), `verifications` (2FA application ids whose PINs were ' +
          'sent or verified). `phones`, `calls` and `verifications` overflow the same way. At most one event per 200 ms; ' +
          'a `: ping` comment every 25 s. Changes made on other nodes sharing the PostgreSQL database arrive too.',
      },
    },
    (request, reply) => {
      reply.hijack();
      const response = reply.raw;
      // The client left while its key was being checked ('close' came before anyone listened), or
      // the server began closing after this request came in: nothing to stream.
      if (closing || response.destroyed || !response.socket || response.socket.destroyed) {
        response.destroy();
        return;
      }
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies that buffer responses (nginx) would hold events back.
        'x-accel-buffering': 'no',
      });
      response.write('event: ready\ndata: {}\n\n');
      open.add(response);
      const write = (text: string): void => {
        if (response.writableLength > MAX_BUFFERED) response.destroy();
        else response.write(text);
      };
      const unsubscribe = feed.subscribe(request.accountId, { send: (changes) => write(changesText(changes)) });
      const ping = setInterval(() => write(': ping\n\n'), PING_MS).unref();
      response.on('close', () => {
        clearInterval(ping);
        unsubscribe();
        open.delete(response);
      });
    },
  );
}
