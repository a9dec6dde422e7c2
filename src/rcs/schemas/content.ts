import { stringSchema as str } from '../../sms/schemas/send-common.js';
import { text } from '../../core/schema-fragments.js';
import { MAX_CARD_SUGGESTIONS, MAX_MESSAGE_SUGGESTIONS, MAX_RESOURCE_URL_LENGTH, suggestionsSchema, type SuggestionBody } from './suggestions.js';

/**
 * The content of an RCS message, discriminated by `type`. As with suggestions, one object schema
 * holds the fields of every type with their bounds, so a violation names the field (an unknown type
 * names `content.type`); which fields each type requires is checked in read/content.
 */
// UNCONFIRMED: a field of another type (a `text` on FILE content) is still bounded when present, where Infobip's typed models would ignore it as unknown.

export const CONTENT_TYPES = ['TEXT', 'FILE', 'CARD', 'CAROUSEL', 'PROVIDER_TEMPLATE'] as const;
export const CARD_ORIENTATIONS = ['HORIZONTAL', 'VERTICAL'] as const;
export const CARD_ALIGNMENTS = ['LEFT', 'RIGHT'] as const;
export const MEDIA_HEIGHTS = ['SHORT', 'MEDIUM', 'TALL'] as const;
export const CARD_WIDTHS = ['SMALL', 'MEDIUM'] as const;

export type ContentType = (typeof CONTENT_TYPES)[number];

export interface ResourceBody {
  url: string;
}

export interface CardMediaBody {
  file: ResourceBody;
  thumbnail?: ResourceBody;
  height: (typeof MEDIA_HEIGHTS)[number];
}

export interface CardContentBody {
  title?: string;
  description?: string;
  media?: CardMediaBody;
  suggestions?: SuggestionBody[];
}

export interface TemplateParameterBody {
  name: string;
  value: string;
}

/** Every field any content type has; `type` says which of them apply. */
export interface RcsContentBody {
  type: ContentType;
  /** TEXT */
  text?: string;
  /** FILE */
  file?: ResourceBody;
  thumbnail?: ResourceBody;
  /** CARD */
  orientation?: (typeof CARD_ORIENTATIONS)[number];
  alignment?: (typeof CARD_ALIGNMENTS)[number];
  content?: CardContentBody;
  /** CAROUSEL */
  cardWidth?: (typeof CARD_WIDTHS)[number];
  contents?: CardContentBody[];
  /** PROVIDER_TEMPLATE */
  templateId?: string;
  parameters?: TemplateParameterBody[];
  /** TEXT, FILE, CARD, CAROUSEL */
  suggestions?: SuggestionBody[];
}

const resourceSchema = (description: string) =>
  ({
    type: 'object',
    required: ['url'],
    properties: { url: text(MAX_RESOURCE_URL_LENGTH, 1, description) },
  }) as const;

export const cardContentSchema = {
  type: 'object',
  description: 'A card: it must have `media` or `title`.',
  properties: {
    title: text(200, 1, 'Shown in bold.'),
    description: text(2000, 1),
    media: {
      type: 'object',
      required: ['file', 'height'],
      properties: {
        file: resourceSchema('Absolute http or https URL of the image or video.'),
        thumbnail: resourceSchema('Absolute http or https URL of a thumbnail; for video files only.'),
        height: { type: 'string', enum: [...MEDIA_HEIGHTS] },
      },
    },
    suggestions: suggestionsSchema(MAX_CARD_SUGGESTIONS),
  },
} as const;

export const contentSchema = {
  type: 'object',
  description:
    'By `type`: TEXT `{text, suggestions?}`; FILE `{file, thumbnail?, suggestions?}`; ' +
    'CARD `{orientation, alignment, content, suggestions?}`; CAROUSEL `{cardWidth, contents, suggestions?}`; ' +
    'PROVIDER_TEMPLATE `{templateId, parameters?}`.',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: [...CONTENT_TYPES] },
    text: str(3072, 'TEXT: the message text.'),
    file: resourceSchema(
      'FILE: absolute http or https URL of the file (image jpeg/gif/png, audio, video or pdf; at most 100 MB).',
    ),
    thumbnail: resourceSchema('FILE: absolute http or https URL of a thumbnail; for video files only.'),
    orientation: { type: 'string', enum: [...CARD_ORIENTATIONS], description: 'CARD.' },
    alignment: { type: 'string', enum: [...CARD_ALIGNMENTS], description: 'CARD: side of the image in a horizontal card.' },
    content: cardContentSchema,
    cardWidth: { type: 'string', enum: [...CARD_WIDTHS], description: 'CAROUSEL.' },
    contents: { type: 'array', minItems: 2, maxItems: 10, items: cardContentSchema, description: 'CAROUSEL: its cards.' },
    templateId: str(undefined, 'PROVIDER_TEMPLATE: the template registered with the provider.'),
    parameters: {
      type: 'array',
      description: 'PROVIDER_TEMPLATE: values of the template parameters.',
      items: { type: 'object', required: ['name', 'value'], properties: { name: str(), value: str() } },
    },
    suggestions: suggestionsSchema(MAX_MESSAGE_SUGGESTIONS),
  },
} as const;
