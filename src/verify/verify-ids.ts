import { randomFillSync } from 'node:crypto';

/** Random bytes drawn a page at a time: one call into the generator per 256 ids, not one each. */
const POOL = Buffer.alloc(4096);
let used = POOL.length;

/** 32 upper-case hex characters, as Infobip's pinIds, application and message ids are. */
export function newVerifyId(): string {
  if (used + 16 > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  const id = POOL.toString('hex', used, used + 16).toUpperCase();
  used += 16;
  return id;
}
