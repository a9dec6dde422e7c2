import { idParamSchema, MAX_ID_LENGTH, pageOf, pageQuerySchema, text, wireString } from './common.js';

/** Calls configurations: `POST/GET /calls/1/configurations` and `GET/PUT/DELETE …/{callsConfigurationId}`. */

export interface CreateConfigurationBody {
  id?: string;
  name?: string;
}

export interface UpdateConfigurationBody {
  name?: string;
}

export interface ConfigurationParams {
  callsConfigurationId: string;
}

const nameSchema = text(MAX_ID_LENGTH, 1, 'Name of the calls configuration: 1 to 128 characters.');

export const createConfigurationBodySchema = {
  type: 'object',
  properties: {
    id: {
      ...text(MAX_ID_LENGTH, 1, 'Id of the calls configuration: 1 to 128 letters, digits, _ and -; generated when absent.'),
      pattern: '^[a-zA-Z0-9_-]*$',
    },
    name: nameSchema,
  },
} as const;

export const updateConfigurationBodySchema = {
  type: 'object',
  properties: { name: nameSchema },
} as const;

export const configurationParamsSchema = {
  type: 'object',
  required: ['callsConfigurationId'],
  properties: { callsConfigurationId: idParamSchema('Id of the calls configuration.') },
} as const;

export const configurationsQuerySchema = pageQuerySchema;

export const configurationSchema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: wireString, name: wireString },
} as const;

export const configurationsPageSchema = pageOf(configurationSchema);
