/**
 * GSM 7-bit packing (3GPP TS 23.038 §6.1.2.1): septets are laid out least significant bit
 * first, eight septets in seven octets. `fillBits` leading zero bits align the first septet to
 * a septet boundary when a User Data Header precedes the text (e.g. 1 fill bit after a 6-octet UDH).
 */

export function packSeptets(septets: ArrayLike<number>, fillBits = 0): Uint8Array {
  assertFillBits(fillBits);
  const totalBits = fillBits + septets.length * 7;
  const out = new Uint8Array(Math.ceil(totalBits / 8));
  let bit = fillBits;
  for (let i = 0; i < septets.length; i++) {
    const value = (septets[i] ?? 0) & 0x7f;
    const byte = bit >> 3;
    const shift = bit & 7;
    out[byte] |= (value << shift) & 0xff;
    if (shift > 1) out[byte + 1] |= value >> (8 - shift);
    bit += 7;
  }
  return out;
}

/**
 * Inverse of `packSeptets`. Pass `septetCount` (the TP-UDL / sm_length in septets) whenever it
 * is known: without it, seven spare zero bits at the end are indistinguishable from a final '@'.
 */
export function unpackSeptets(packed: ArrayLike<number>, septetCount?: number, fillBits = 0): Uint8Array {
  assertFillBits(fillBits);
  const available = Math.floor(Math.max(0, packed.length * 8 - fillBits) / 7);
  const count = septetCount ?? available;
  if (!Number.isInteger(count) || count < 0 || count > available) {
    throw new RangeError(`cannot unpack ${count} septets from ${packed.length} octets`);
  }
  const out = new Uint8Array(count);
  let bit = fillBits;
  for (let i = 0; i < count; i++) {
    const byte = bit >> 3;
    const shift = bit & 7;
    let value = (packed[byte] ?? 0) >> shift;
    if (shift > 1) value |= (packed[byte + 1] ?? 0) << (8 - shift);
    out[i] = value & 0x7f;
    bit += 7;
  }
  return out;
}

function assertFillBits(fillBits: number): void {
  if (!Number.isInteger(fillBits) || fillBits < 0 || fillBits > 6) {
    throw new RangeError(`fill bits must be an integer from 0 to 6, got ${fillBits}`);
  }
}
