import { buildGsm7Charset, ESC, type ExtensionTable, type Gsm7Charset } from './gsm7-charset.js';

/** 3GPP TS 23.038 §6.2.1 default alphabet, indexed by septet value (0x1B = escape). */
export const GSM7_DEFAULT_TABLE =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNO' +
  'PQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmno' +
  'pqrstuvwxyzäöñüà';

/** 3GPP TS 23.038 §6.2.1.1 extension table: each of these costs the escape plus one septet. */
export const GSM7_DEFAULT_EXTENSION: ExtensionTable = {
  0x0a: '\f',
  0x14: '^',
  0x28: '{',
  0x29: '}',
  0x2f: '\\',
  0x3c: '[',
  0x3d: '~',
  0x3e: ']',
  0x40: '|',
  0x65: '€',
};

export const GSM7_DEFAULT_CHARSET: Gsm7Charset = buildGsm7Charset(GSM7_DEFAULT_TABLE, GSM7_DEFAULT_EXTENSION);

/** Septets one character takes (1 basic, 2 escaped), or undefined when the charset cannot represent it. */
export function gsm7CharSeptets(char: string, charset: Gsm7Charset = GSM7_DEFAULT_CHARSET): 1 | 2 | undefined {
  if (charset.basicCodes.has(char)) return 1;
  if (charset.extensionCodes.has(char)) return 2;
  return undefined;
}

/** Total septets of `text`, or undefined when some character is not representable. */
export function gsm7SeptetCount(text: string, charset: Gsm7Charset = GSM7_DEFAULT_CHARSET): number | undefined {
  let septets = 0;
  for (const char of text) {
    const cost = gsm7CharSeptets(char, charset);
    if (cost === undefined) return undefined;
    septets += cost;
  }
  return septets;
}

export function isGsm7(text: string, charset: Gsm7Charset = GSM7_DEFAULT_CHARSET): boolean {
  return gsm7SeptetCount(text, charset) !== undefined;
}

/**
 * Unpacked septets, one per byte; extension characters become 0x1B followed by their code.
 * Throws a RangeError on a character the charset cannot represent, so that text is never
 * silently altered: check with `isGsm7` (or transliterate) first.
 */
export function encodeGsm7(text: string, charset: Gsm7Charset = GSM7_DEFAULT_CHARSET): Uint8Array {
  const out: number[] = [];
  let index = 0;
  for (const char of text) {
    const basic = charset.basicCodes.get(char);
    if (basic !== undefined) {
      out.push(basic);
    } else {
      const extended = charset.extensionCodes.get(char);
      if (extended === undefined) {
        const codePoint = char.codePointAt(0) ?? 0;
        throw new RangeError(
          `character U+${codePoint.toString(16).toUpperCase().padStart(4, '0')} at index ${index} is not representable in GSM 7-bit`,
        );
      }
      out.push(ESC, extended);
    }
    index += char.length;
  }
  return Uint8Array.from(out);
}

/**
 * Decodes unpacked septets. Bytes are masked to 7 bits. Following 3GPP TS 23.038, an escape
 * followed by a code missing from the extension table shows the basic-table character for that
 * code, a doubled escape (reserved for a further table) shows a space, and a trailing escape is dropped.
 */
export function decodeGsm7(septets: ArrayLike<number>, charset: Gsm7Charset = GSM7_DEFAULT_CHARSET): string {
  let text = '';
  for (let i = 0; i < septets.length; i++) {
    const code = (septets[i] ?? 0) & 0x7f;
    if (code !== ESC) {
      text += charset.basic[code];
      continue;
    }
    if (i + 1 >= septets.length) break;
    const next = (septets[++i] ?? 0) & 0x7f;
    text += next === ESC ? ' ' : (charset.extension.get(next) ?? charset.basic[next]);
  }
  return text;
}
