import { omitUndefined } from '../../core/omit-undefined.js';

export interface MessagePrice {
  pricePerMessage: number;
  currency: string;
}

export interface Platform {
  entityId?: string;
  applicationId?: string;
}

/**
 * A self-hosted platform charges nothing, so every price is 0 EUR. It is always emitted: Infobip's
 * examples always carry it and SDK users read it without null checks.
 */
export const price = (): MessagePrice => ({ pricePerMessage: 0, currency: 'EUR' });

/** `{entityId?, applicationId?}`, or undefined when both are absent so the key is omitted. */
export function platformOf(ids: { entityId?: string | undefined; applicationId?: string | undefined }): Platform | undefined {
  if (ids.entityId === undefined && ids.applicationId === undefined) return undefined;
  return omitUndefined({ entityId: ids.entityId, applicationId: ids.applicationId });
}
