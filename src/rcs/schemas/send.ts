import { MAX_WEBHOOK_URL_LENGTH } from '../../core/webhook-url.js';
import {
  deliveryTimeWindowSchema,
  platformSchema,
  scheduleSchema,
  stringSchema as str,
  urlOptionsSchema,
  validityPeriodSchema,
  type DeliveryTimeWindowBody,
  type PlatformBody,
  type ScheduleBody,
  type UrlOptionsBody,
  type ValidityPeriodBody,
} from '../../sms/schemas/send-common.js';
import { contentSchema, type RcsContentBody } from './content.js';
import { mmsFailoverSchema, smsFailoverSchema, type MmsFailoverBody, type SmsFailoverBody } from './failover.js';

/**
 * `POST /rcs/2/messages` body (reference §4.1). The SMS v3 fragments are reused where RCS has the
 * same objects (platform, validity, delivery window, schedule, tracking). Unknown properties are
 * ignored, as Infobip does.
 */

export interface RcsSendBody {
  messages: RcsMessageBody[];
  options?: {
    schedule?: ScheduleBody;
    tracking?: UrlOptionsBody;
    messageOrdering?: MessageOrderingBody;
  };
}

export interface MessageOrderingBody {
  respectOrder?: boolean;
  stopOnFailure?: boolean;
}

export interface RcsDestinationBody {
  to: string;
  messageId?: string;
}

export interface RcsMessageBody {
  sender?: string;
  destinations: RcsDestinationBody[];
  content: RcsContentBody;
  options?: {
    platform?: PlatformBody;
    validityPeriod?: ValidityPeriodBody;
    deliveryTimeWindow?: DeliveryTimeWindowBody;
    campaignReferenceId?: string;
    smsFailover?: SmsFailoverBody;
    mmsFailover?: MmsFailoverBody;
  };
  webhooks?: RcsWebhooksBody;
}

export interface RcsWebhooksBody {
  delivery?: { url?: string; intermediateReport?: boolean; notify?: boolean; receiveTriggeredFailoverReports?: boolean };
  contentType?: string;
  callbackData?: string;
  seen?: { url?: string };
}

const destinationSchema = {
  type: 'object',
  required: ['to'],
  properties: {
    // UNCONFIRMED bound: Infobip publishes no maximum for an RCS `to`; SMS v3 allows 64 characters, and RCS destinations are phone numbers too.
    to: str(64, 'Phone number in international format, e.g. 441134960001.'),
    messageId: str(200, 'Your id for this message; generated when absent. Must be unique in the account.'),
  },
} as const;

const webhookUrl = (description: string) => str(MAX_WEBHOOK_URL_LENGTH, description);

const webhooksSchema = {
  type: 'object',
  properties: {
    delivery: {
      type: 'object',
      properties: {
        url: webhookUrl('Absolute http(s) URL delivery reports are pushed to.'),
        intermediateReport: { type: 'boolean' },
        notify: { type: 'boolean', description: 'false: push no delivery report at all.' },
        receiveTriggeredFailoverReports: {
          type: 'boolean',
          description: 'true: a report for every failover step, not only the final one. Default false.',
        },
      },
    },
    contentType: str(undefined, 'application/json or application/xml.'),
    callbackData: str(4000),
    seen: { type: 'object', properties: { url: webhookUrl('Absolute http(s) URL seen reports are pushed to.') } },
  },
} as const;

const messageSchema = {
  type: 'object',
  required: ['destinations', 'content'],
  properties: {
    sender: str(undefined, 'The RCS agent sending the message.'),
    destinations: { type: 'array', minItems: 1, items: destinationSchema },
    content: contentSchema,
    options: {
      type: 'object',
      properties: {
        platform: platformSchema,
        validityPeriod: validityPeriodSchema,
        deliveryTimeWindow: deliveryTimeWindowSchema,
        campaignReferenceId: str(255),
        smsFailover: smsFailoverSchema,
        mmsFailover: mmsFailoverSchema,
      },
    },
    webhooks: webhooksSchema,
  },
} as const;

export const rcsSendBodySchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    messages: { type: 'array', minItems: 1, items: messageSchema },
    options: {
      type: 'object',
      properties: {
        schedule: scheduleSchema,
        tracking: urlOptionsSchema,
        messageOrdering: {
          type: 'object',
          description:
            'respectOrder (default true): send the messages in request order; then the request holds 2 to 10 messages, ' +
            'none with failover (or exactly 2, only the first with failover), all to the same destinations with the same ' +
            'sender, platform, delivery window, campaign and webhooks. stopOnFailure (default true): stop at the first failure.',
          properties: { respectOrder: { type: 'boolean' }, stopOnFailure: { type: 'boolean' } },
        },
      },
    },
  },
} as const;
