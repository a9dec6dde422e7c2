import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { badRequest } from '../core/errors/api-problem.js';
import { formatInfobipTime } from '../core/infobip-time.js';
import { registerSandboxPhoneRoutes } from './phone-routes.js';
import type { InboundSms } from '../network/carrier.js';
import { normalizeNumber } from '../core/phone-number.js';
import { parseSandboxRules, type SandboxRule } from '../network/sandbox/rules.js';
import { analyzeText } from '../sms/encoding/index.js';
import {
  TAG,
  inboundBodySchema,
  inboundResponseSchema,
  rulesBodySchema,
  rulesResponseSchema,
  type InboundBody,
} from './schemas.js';

/**
 * Switchboard's own sandbox API (legacy error envelope, same API keys): act as a phone sending an
 * SMS to you (kept on the phone as sent), read the virtual phones, and set the account's outcome rules.
 */
export function registerSandboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: InboundBody }>(
    '/sandbox/1/sms/inbound',
    {
      schema: {
        tags: [TAG],
        summary: 'Simulate an inbound SMS from a virtual phone to one of your numbers',
        description:
          'The message enters the inbound pipeline like one from a real network: it is pushed to matching ' +
          'INBOUND_MESSAGE subscriptions, or else waits for GET /sms/1/inbox/reports.',
        body: inboundBodySchema,
        response: { 200: inboundResponseSchema },
      },
    },
    async (request) => {
      const { text } = request.body;
      const sms: InboundSms = {
        accountId: request.accountId,
        from: normalizeNumber(request.body.from),
        to: normalizeNumber(request.body.to),
        text,
        smsCount: analyzeText(text).messageCount,
        receivedAt: ctx.clock.now(),
      };
      const [stored] = await ctx.inbound.receive([sms]);
      await ctx.store.phones.record({
        accountId: sms.accountId,
        number: sms.from,
        channel: 'SMS',
        direction: 'sent',
        to: sms.to,
        text: sms.text,
        messageId: stored!.messageId,
        receivedAt: sms.receivedAt,
      });
      return {
        messageId: stored!.messageId,
        from: sms.from,
        to: sms.to,
        text: sms.text,
        smsCount: sms.smsCount,
        receivedAt: formatInfobipTime(sms.receivedAt),
      };
    },
  );

  registerSandboxPhoneRoutes(app, ctx);

  app.get(
    '/sandbox/1/rules',
    {
      schema: {
        tags: [TAG],
        summary: "The account's sandbox outcome rules",
        description: 'Rules are kept in memory by each server process and are lost on restart.',
        response: { 200: rulesResponseSchema },
      },
    },
    async (request) => ({ rules: await ctx.engine.sandboxRules(request.accountId) }),
  );

  app.put<{ Body: { rules: unknown[] } }>(
    '/sandbox/1/rules',
    {
      schema: {
        tags: [TAG],
        summary: "Replace the account's sandbox outcome rules",
        description:
          'Rules are checked in order before the rules file and the built-in suffix table; the first ' +
          'match decides the outcome. Kept in memory by this server process only.',
        body: rulesBodySchema,
        response: { 200: rulesResponseSchema },
      },
    },
    async (request) => {
      const parsed = parseSandboxRules(request.body.rules);
      if ('problems' in parsed) throw badRequest(parsed.problems.map((p) => ({ property: p.path, violation: p.problem })));
      const rules: SandboxRule[] = parsed.rules;
      await ctx.engine.setSandboxRules(request.accountId, rules);
      return { rules: await ctx.engine.sandboxRules(request.accountId) };
    },
  );
}
