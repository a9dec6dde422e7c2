import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../core/errors/api-problem.js';
import type { TwoFactorTemplate } from '../../core/store/types.js';
import { readTemplate } from '../read/template.js';
import { applicationParamsSchema, TAGS, type ApplicationParams } from '../schemas/applications.js';
import {
  createTemplateBodySchema,
  templateParamsSchema,
  templateSchema,
  templatesSchema,
  updateTemplateBodySchema,
  type TemplateBody,
  type TemplateParams,
} from '../schemas/templates.js';
import { newVerifyId } from '../verify-ids.js';
import { wireTemplate } from '../wire.js';

/** An application's SMS and voice message templates. */
export function registerTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { store, clock } = ctx;
  const requireApplication = async (accountId: string, appId: string): Promise<void> => {
    if (!(await store.twoFactorApplications.get(accountId, appId))) throw notFound();
  };
  const templateOf = async (accountId: string, appId: string, msgId: string): Promise<TwoFactorTemplate> => {
    const found = await store.twoFactorTemplates.get(accountId, appId, msgId);
    if (!found) throw notFound();
    return found;
  };

  app.post<{ Params: ApplicationParams; Body: TemplateBody }>(
    '/2fa/2/applications/:appId/messages',
    {
      schema: {
        tags: TAGS,
        summary: 'Create 2FA message template',
        params: applicationParamsSchema,
        body: createTemplateBodySchema,
        response: { 200: templateSchema },
      },
    },
    async (request) => {
      const { appId } = request.params;
      await requireApplication(request.accountId, appId);
      const now = clock.now();
      const template: TwoFactorTemplate = {
        accountId: request.accountId,
        applicationId: appId,
        messageId: newVerifyId(),
        ...readTemplate(request.body),
        createdAt: now,
        updatedAt: now,
      };
      await store.twoFactorTemplates.create(template);
      return wireTemplate(template);
    },
  );

  app.get<{ Params: ApplicationParams }>(
    '/2fa/2/applications/:appId/messages',
    { schema: { tags: TAGS, summary: 'Get 2FA message templates', params: applicationParamsSchema, response: { 200: templatesSchema } } },
    async (request) => {
      await requireApplication(request.accountId, request.params.appId);
      return (await store.twoFactorTemplates.list(request.accountId, request.params.appId)).map(wireTemplate);
    },
  );

  app.get<{ Params: TemplateParams }>(
    '/2fa/2/applications/:appId/messages/:msgId',
    { schema: { tags: TAGS, summary: 'Get 2FA message template', params: templateParamsSchema, response: { 200: templateSchema } } },
    async (request) => wireTemplate(await templateOf(request.accountId, request.params.appId, request.params.msgId)),
  );

  app.put<{ Params: TemplateParams; Body: TemplateBody }>(
    '/2fa/2/applications/:appId/messages/:msgId',
    {
      schema: {
        tags: TAGS,
        summary: 'Update 2FA message template',
        description: 'Fields left out keep their values. PINs already sent keep their alphabet and length.',
        params: templateParamsSchema,
        body: updateTemplateBodySchema,
        response: { 200: templateSchema },
      },
    },
    async (request) => {
      const current = await templateOf(request.accountId, request.params.appId, request.params.msgId);
      const updated: TwoFactorTemplate = { ...current, ...readTemplate(request.body, current), updatedAt: clock.now() };
      if (!(await store.twoFactorTemplates.update(updated))) throw notFound();
      ctx.verify.settingsChanged(request.accountId, updated.applicationId);
      return wireTemplate(updated);
    },
  );
}
