import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../core/errors/api-problem.js';
import type { TwoFactorApplication } from '../../core/store/types.js';
import { readApplication, readProtection } from '../read/application.js';
import {
  applicationBodySchema,
  applicationParamsSchema,
  applicationSchema,
  applicationsSchema,
  protectionBodySchema,
  protectionSchema,
  TAGS,
  type ApplicationBody,
  type ApplicationParams,
  type ProtectionBody,
} from '../schemas/applications.js';
import { newVerifyId } from '../verify-ids.js';
import { wireApplication, wireProtection } from '../wire.js';

/** 2FA applications, and Switchboard's protections of one (under /switchboard/1). */
export function registerApplicationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { store, clock } = ctx;
  const applicationOf = async (accountId: string, appId: string): Promise<TwoFactorApplication> => {
    const found = await store.twoFactorApplications.get(accountId, appId);
    if (!found) throw notFound();
    return found;
  };

  app.post<{ Body: ApplicationBody }>(
    '/2fa/2/applications',
    {
      schema: {
        tags: TAGS,
        summary: 'Create 2FA application',
        description: "Answers 200 (Infobip's current document says 201; its Python SDK parses only a 200 here).",
        body: applicationBodySchema,
        response: { 200: applicationSchema },
      },
    },
    async (request) => {
      const now = clock.now();
      const application: TwoFactorApplication = { accountId: request.accountId, applicationId: newVerifyId(), ...readApplication(request.body), createdAt: now, updatedAt: now };
      await store.twoFactorApplications.create(application);
      return wireApplication(application);
    },
  );

  app.get(
    '/2fa/2/applications',
    { schema: { tags: TAGS, summary: 'Get 2FA applications', response: { 200: applicationsSchema } } },
    async (request) => (await store.twoFactorApplications.list(request.accountId)).map(wireApplication),
  );

  app.get<{ Params: ApplicationParams }>(
    '/2fa/2/applications/:appId',
    { schema: { tags: TAGS, summary: 'Get 2FA application', params: applicationParamsSchema, response: { 200: applicationSchema } } },
    async (request) => wireApplication(await applicationOf(request.accountId, request.params.appId)),
  );

  app.put<{ Params: ApplicationParams; Body: ApplicationBody }>(
    '/2fa/2/applications/:appId',
    {
      schema: {
        tags: TAGS,
        summary: 'Update 2FA application',
        description: 'Configuration fields left out keep their values.',
        params: applicationParamsSchema,
        body: applicationBodySchema,
        response: { 200: applicationSchema },
      },
    },
    async (request) => {
      const current = await applicationOf(request.accountId, request.params.appId);
      const updated: TwoFactorApplication = { ...current, ...readApplication(request.body, current), updatedAt: clock.now() };
      if (!(await store.twoFactorApplications.update(updated))) throw notFound();
      ctx.verify.settingsChanged(request.accountId, updated.applicationId);
      return wireApplication(updated);
    },
  );

  app.get<{ Params: ApplicationParams }>(
    '/switchboard/1/2fa/applications/:appId/protection',
    {
      schema: {
        tags: TAGS,
        summary: "An application's protections (Switchboard)",
        description: 'Country calling codes PINs may or may not go to, and the guard against SMS pumping. Off until set.',
        params: applicationParamsSchema,
        response: { 200: protectionSchema },
      },
    },
    async (request) => wireProtection((await applicationOf(request.accountId, request.params.appId)).protection),
  );

  app.put<{ Params: ApplicationParams; Body: ProtectionBody }>(
    '/switchboard/1/2fa/applications/:appId/protection',
    {
      schema: {
        tags: TAGS,
        summary: "Set an application's protections (Switchboard)",
        description: 'Replaces every protection: a field left out turns its protection off.',
        params: applicationParamsSchema,
        body: protectionBodySchema,
        response: { 200: protectionSchema },
      },
    },
    async (request) => {
      const current = await applicationOf(request.accountId, request.params.appId);
      const { protection: _old, ...rest } = current;
      const protection = readProtection(request.body);
      const updated: TwoFactorApplication = { ...rest, ...(Object.keys(protection).length === 0 ? {} : { protection }), updatedAt: clock.now() };
      if (!(await store.twoFactorApplications.update(updated))) throw notFound();
      ctx.verify.settingsChanged(request.accountId, updated.applicationId);
      return wireProtection(updated.protection);
    },
  );
}
