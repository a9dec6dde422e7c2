import type { FastifyInstance } from 'fastify';
import { LANGUAGE_CODES, TRANSLITERATION_CODES } from '../encoding/index.js';
import { previewText, type PreviewRequest } from '../preview.js';

const previewBodySchema = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', description: 'Text to preview.' },
    languageCode: { type: 'string', enum: [...LANGUAGE_CODES], description: 'Also preview with this national language table.' },
    transliteration: { type: 'string', enum: [...TRANSLITERATION_CODES], description: 'Also preview transliterated.' },
  },
} as const;

const previewResponseSchema = {
  type: 'object',
  properties: {
    originalText: { type: 'string' },
    previews: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          textPreview: { type: 'string' },
          messageCount: { type: 'integer' },
          charactersRemaining: { type: 'integer' },
          configuration: {
            type: 'object',
            properties: {
              language: { type: 'object', properties: { languageCode: { type: 'string' } } },
              transliteration: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;

/** `POST /sms/1/preview`: how a text would be split, as is and with the given language/transliteration. */
export function registerSmsPreviewRoutes(app: FastifyInstance): void {
  app.post<{ Body: PreviewRequest }>(
    '/sms/1/preview',
    {
      schema: {
        tags: ['SMS'],
        summary: 'Preview how a text is split into SMS parts',
        body: previewBodySchema,
        response: { 200: previewResponseSchema },
      },
    },
    async (request) => previewText(request.body),
  );
}
