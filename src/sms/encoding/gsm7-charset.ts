/**
 * A GSM 7-bit character set: a 128-entry basic table (the default alphabet or a
 * national locking shift table) plus the table reached through the 0x1B escape
 * (the default extension table or a national single shift table).
 */

export const ESC = 0x1b;

export type NationalLanguage = 'TR' | 'ES' | 'PT';

/** Which national language tables a charset uses; absent for the default alphabet. */
export interface NationalShift {
  readonly languageCode: NationalLanguage;
  readonly singleShift: boolean;
  readonly lockingShift: boolean;
}

/** Septet value → character, for the characters reached through the escape. */
export type ExtensionTable = Readonly<Record<number, string>>;

export interface Gsm7Charset {
  /** Septet value → character; index 0x1B is the escape and holds no character. */
  readonly basic: readonly string[];
  readonly extension: ReadonlyMap<number, string>;
  readonly basicCodes: ReadonlyMap<string, number>;
  readonly extensionCodes: ReadonlyMap<string, number>;
  readonly national?: NationalShift;
}

export function buildGsm7Charset(
  basicTable: string,
  extensionTable: ExtensionTable,
  national?: NationalShift,
): Gsm7Charset {
  const basic = [...basicTable];
  if (basic.length !== 128) {
    throw new Error(`GSM 7-bit basic table must have 128 entries, got ${basic.length}`);
  }
  const basicCodes = new Map<string, number>();
  basic.forEach((char, code) => {
    if (code !== ESC && !basicCodes.has(char)) basicCodes.set(char, code);
  });
  const extension = new Map<number, string>();
  const extensionCodes = new Map<string, number>();
  for (const [key, char] of Object.entries(extensionTable)) {
    const code = Number(key);
    extension.set(code, char);
    // A character present in the basic table is always sent as one septet.
    if (!basicCodes.has(char)) extensionCodes.set(char, code);
  }
  return national === undefined
    ? { basic, extension, basicCodes, extensionCodes }
    : { basic, extension, basicCodes, extensionCodes, national };
}

/** Number of National Language Identifier information elements the charset adds to the UDH. */
export function nationalIeCount(charset: Gsm7Charset): number {
  const national = charset.national;
  if (national === undefined) return 0;
  return (national.singleShift ? 1 : 0) + (national.lockingShift ? 1 : 0);
}
