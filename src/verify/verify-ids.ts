import { randomBytes } from 'node:crypto';

/** 32 upper-case hex characters, as Infobip's pinIds, application and message ids are. */
export const newVerifyId = (): string => randomBytes(16).toString('hex').toUpperCase();
