import { MAX_PARTS, MAX_PAYLOAD_OCTETS } from './segmenter.js';

const SINGLE_PART_OCTETS = 140;
// 6 octets of User Data Header (length + 8-bit reference concatenation IE) in every part.
const MULTI_PART_OCTETS = 134;
/** esm_class bit meaning the payload already starts with a User Data Header. */
export const ESM_CLASS_UDHI = 0x40;

const HEX_GROUP = /^[0-9a-fA-F]+$/;

/**
 * Parses Infobip's binary `hex` content. Accepted: whitespace-separated groups of hex digits,
 * each of even length ("0f c2 4a", "0048 0065"), which includes one contiguous string ("0fc24a").
 * Returns the bytes, or a message describing why the input is invalid.
 */
export function parseHexContent(hex: string): Uint8Array | string {
  const trimmed = hex.trim();
  if (trimmed === '') return 'hex content must contain at least one byte';
  const groups = trimmed.split(/\s+/);
  for (const [index, group] of groups.entries()) {
    if (!HEX_GROUP.test(group)) {
      return `hex group ${index + 1} ("${group}") contains characters other than hex digits`;
    }
    if (group.length % 2 !== 0) {
      return `hex group ${index + 1} ("${group}") has an odd number of hex digits`;
    }
  }
  const digits = groups.join('');
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  }
  return bytes;
}

export interface BinaryAnalysis {
  messageCount: number;
  octets: number;
  tooLong: boolean;
}

/**
 * Parts needed for a binary payload. Without a UDH it is split into 134-octet parts when it
 * exceeds 140 octets. With the UDHI bit set the caller supplies its own header, so the payload
 * goes as is in a single part and anything over 140 octets cannot be sent (`tooLong`).
 * An empty payload is one part, as for text.
 */
export function analyzeBinary(bytes: Uint8Array, esmClass = 0): BinaryAnalysis {
  const octets = bytes.length;
  if ((esmClass & ESM_CLASS_UDHI) !== 0) {
    return { messageCount: 1, octets, tooLong: octets > SINGLE_PART_OCTETS };
  }
  const messageCount = octets <= SINGLE_PART_OCTETS ? 1 : Math.ceil(octets / MULTI_PART_OCTETS);
  return { messageCount, octets, tooLong: messageCount > MAX_PARTS || octets > MAX_PAYLOAD_OCTETS };
}
