import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound, violation } from '../../core/errors/api-problem.js';
import { randomHex } from '../../core/ids.js';
import { formatInfobipTime } from '../../core/infobip-time.js';
import { dropEmptyQueryValues } from '../../core/query-params.js';
import type { StoredAudio } from '../../core/store/types.js';
import { audioMs } from '../media/audio.js';
import { AudioDecodeError } from '../media/codecs/audio-decode-error.js';
import { decodeAudio } from '../media/codecs/decode-audio.js';
import type { PageQuery } from '../schemas/common.js';
import { fileParamsSchema, fileSchema, filesPageSchema, filesQuerySchema, type FileParams } from '../schemas/files.js';
import { paging, TAGS } from './route-common.js';

/** Largest audio file an upload may carry. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Infobip removes a file it has not played for 90 days; Switchboard removes it 90 days after the upload. */
export const UPLOAD_KEPT_MS = 90 * 24 * 3_600_000;

const uploadSchema = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: `A WAV or MP3 file of at most ${MAX_UPLOAD_BYTES} bytes.` } },
} as const;

function wire(audio: StoredAudio): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: audio.id,
    name: audio.name,
    fileFormat: audio.format,
    size: audio.size,
    creationTime: formatInfobipTime(audio.createdAt),
  };
  if (audio.expiresAt !== undefined) out.expirationTime = formatInfobipTime(audio.expiresAt);
  out.duration = Math.round(audio.durationMs / 1000);
  return out;
}

/**
 * Audio files to play on calls (`play` with content FILE): upload, list, read, delete. The multipart
 * plugin lives in a context of these routes only: it adds request decorations and a response hook
 * that every other request (an SMS accepted) would otherwise pay for.
 */
export async function registerCallFileRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  await root.register(async (app) => {
    await app.register(multipart, { limits: { files: 1, fileSize: MAX_UPLOAD_BYTES, fields: 10, parts: 11 } });
    registerRoutes(app, ctx);
  });
}

function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/calls/1/files',
    {
      schema: { tags: TAGS, summary: 'Upload audio file', consumes: ['multipart/form-data'], body: uploadSchema, response: { 200: fileSchema } },
      // The multipart part is read by the handler, not by schema validation; the schema documents it.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      if (!request.isMultipart()) throw violation('file', 'must be sent as multipart/form-data');
      const part = await request.file();
      if (!part) throw violation('file', 'must not be null');
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch {
        throw violation('file', `must be at most ${MAX_UPLOAD_BYTES} bytes`);
      }
      let decoded;
      try {
        decoded = await decodeAudio(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } catch (error) {
        if (error instanceof AudioDecodeError) throw violation('file', error.message);
        throw error;
      }
      const now = ctx.clock.now();
      const audio: StoredAudio = {
        accountId: request.accountId,
        id: randomHex(12),
        origin: 'upload',
        name: (part.filename || 'audio').slice(0, 255),
        format: decoded.format,
        size: bytes.byteLength,
        durationMs: audioMs(decoded.audio),
        createdAt: now,
        expiresAt: now + UPLOAD_KEPT_MS,
      };
      await ctx.store.audio.put(audio, bytes);
      return wire(audio);
    },
  );

  app.get<{ Querystring: PageQuery }>(
    '/calls/1/files',
    { preValidation: dropEmptyQueryValues, schema: { tags: TAGS, summary: 'Get files', querystring: filesQuerySchema, response: { 200: filesPageSchema } } },
    async (request) => {
      const { page, size } = request.query;
      const { results, total } = await ctx.store.audio.list(request.accountId, 'upload', page, size);
      return { results: results.map(wire), paging: paging(page, size, total) };
    },
  );

  app.get<{ Params: FileParams }>(
    '/calls/1/files/:fileId',
    { schema: { tags: TAGS, summary: 'Get file', params: fileParamsSchema, response: { 200: fileSchema } } },
    async (request) => {
      const audio = await ctx.store.audio.describe(request.accountId, request.params.fileId);
      if (!audio || audio.origin !== 'upload') throw notFound();
      return wire(audio);
    },
  );

  app.delete<{ Params: FileParams }>(
    '/calls/1/files/:fileId',
    { schema: { tags: TAGS, summary: 'Delete file', params: fileParamsSchema, response: { 200: fileSchema } } },
    async (request) => {
      const audio = await ctx.store.audio.describe(request.accountId, request.params.fileId);
      if (!audio || audio.origin !== 'upload') throw notFound();
      await ctx.store.audio.delete(request.accountId, audio.id);
      return wire(audio);
    },
  );
}
