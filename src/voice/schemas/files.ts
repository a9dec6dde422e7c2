import { idParamSchema, pageOf, pageQuerySchema, wireDateTime, wireString } from './common.js';

/**
 * Audio files: the answer of `POST /calls/1/files` (a multipart upload the route reads itself),
 * `GET /calls/1/files`, `GET/DELETE /calls/1/files/{fileId}`.
 */

export const FILE_FORMATS = ['MP3', 'WAV', 'MP4'] as const;

export interface FileParams {
  fileId: string;
}

export const fileParamsSchema = {
  type: 'object',
  required: ['fileId'],
  properties: { fileId: idParamSchema('Id of the file.') },
} as const;

// Infobip caps this list at 100 pages; Switchboard pages through every file.
export const filesQuerySchema = pageQuerySchema;

export const fileSchema = {
  type: 'object',
  required: ['name', 'fileFormat'],
  additionalProperties: false,
  properties: {
    id: wireString,
    name: wireString,
    fileFormat: { type: 'string', enum: [...FILE_FORMATS] },
    size: { type: 'integer', description: 'Size in bytes.' },
    creationTime: wireDateTime,
    expirationTime: { ...wireDateTime, description: 'When the file will be removed.' },
    duration: { type: 'integer', description: 'Length of the audio in seconds.' },
  },
} as const;

export const filesPageSchema = pageOf(fileSchema);
