/**
 * UCS-2 as carriers use it today, i.e. UTF-16 big-endian: a character outside the Basic
 * Multilingual Plane is a surrogate pair and takes two 16-bit units.
 */

/** Number of UTF-16 code units (JavaScript strings are already UTF-16). */
export function utf16UnitCount(text: string): number {
  return text.length;
}

export function encodeUcs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 * i] = unit >> 8;
    out[2 * i + 1] = unit & 0xff;
  }
  return out;
}

/** Throws a RangeError on an odd number of bytes; unpaired surrogates are passed through as is. */
export function decodeUcs2(bytes: ArrayLike<number>): string {
  if (bytes.length % 2 !== 0) {
    throw new RangeError(`UCS-2 payload must have an even number of bytes, got ${bytes.length}`);
  }
  const units: number[] = [];
  let text = '';
  for (let i = 0; i < bytes.length; i += 2) {
    units.push((((bytes[i] ?? 0) & 0xff) << 8) | ((bytes[i + 1] ?? 0) & 0xff));
    // Flush in chunks: spreading a very long array into fromCharCode overflows the call stack.
    if (units.length === 4096) {
      text += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return text + String.fromCharCode(...units);
}
