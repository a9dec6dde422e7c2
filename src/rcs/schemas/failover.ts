import {
  regionalSchema,
  stringSchema as str,
  validityPeriodSchema,
  type RegionalBody,
  type ValidityPeriodBody,
} from '../../sms/schemas/send-common.js';

/**
 * The SMS or MMS sent when an RCS message cannot be delivered (at most one of the two per message,
 * checked in read/failover). MMS segments are discriminated by `type` the way RCS content is: one
 * object schema with every segment field, the fields each type requires checked by the reader.
 */

export const MMS_SEGMENT_TYPES = ['TEXT', 'LINK', 'SMIL', 'UPLOADED_REFERENCE'] as const;

export interface SmsFailoverBody {
  sender?: string;
  text: string;
  validityPeriod?: ValidityPeriodBody;
  regional?: RegionalBody;
}

export interface MmsSegmentBody {
  type: (typeof MMS_SEGMENT_TYPES)[number];
  contentId?: string;
  /** TEXT */
  text?: string;
  /** LINK (contentType also SMIL) */
  contentUrl?: string;
  contentType?: string;
  /** SMIL */
  smil?: string;
  /** UPLOADED_REFERENCE */
  uploadedContentId?: string;
}

export interface MmsFailoverBody {
  sender?: string;
  validityPeriod?: ValidityPeriodBody;
  content: { title?: string; messageSegments: MmsSegmentBody[] };
}

export const smsFailoverSchema = {
  type: 'object',
  description: 'SMS sent when the RCS message cannot be delivered; not together with mmsFailover.',
  required: ['text'],
  properties: {
    sender: str(),
    text: str(),
    validityPeriod: validityPeriodSchema,
    regional: regionalSchema,
  },
} as const;

const mmsSegmentSchema = {
  type: 'object',
  description:
    'By `type`: TEXT `{text}`; LINK `{contentUrl, contentType?}`; SMIL `{contentType, smil}`; ' +
    'UPLOADED_REFERENCE `{uploadedContentId}`; each may have a `contentId`.',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: [...MMS_SEGMENT_TYPES] },
    contentId: str(),
    text: str(4096, 'TEXT: the segment text.'),
    contentUrl: str(undefined, 'LINK: absolute http or https URL of the content.'),
    contentType: str(undefined, 'LINK, SMIL: content type, e.g. image/png or application/smil.'),
    smil: str(undefined, 'SMIL: the segment in SMIL.'),
    uploadedContentId: str(undefined, 'UPLOADED_REFERENCE: id of previously uploaded content.'),
  },
} as const;

export const mmsFailoverSchema = {
  type: 'object',
  description: 'MMS sent when the RCS message cannot be delivered; not together with smsFailover.',
  required: ['content'],
  properties: {
    sender: str(),
    validityPeriod: validityPeriodSchema,
    content: {
      type: 'object',
      required: ['messageSegments'],
      properties: {
        title: str(66),
        // UNCONFIRMED bound: Infobip sets no minimum; an MMS without a segment would carry nothing.
        messageSegments: { type: 'array', minItems: 1, items: mmsSegmentSchema },
      },
    },
  },
} as const;
