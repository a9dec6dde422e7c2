import type { BinaryContent, TextContent } from '../../core/store/types.js';
import { analyzeBinary, analyzeText, isTooLong, transliterate, type TransliterationCode } from '../encoding/index.js';
import type { PreparedContent } from './send-request.js';

export interface TextInput {
  text: string;
  transliteration?: TransliterationCode;
  language?: { languageCode?: string; singleShift?: boolean; lockingShift?: boolean };
}

/**
 * Transliterates, then counts parts. The stored text is the transliterated one, the text that goes
 * on the wire; `transliteration` is kept as a record of what was applied.
 */
export function prepareText(input: TextInput): PreparedContent {
  const code = input.transliteration;
  const text = code === undefined || code === 'NONE' ? input.text : transliterate(input.text, code);
  const language = input.language;
  const analysis = analyzeText(text, language ?? {});
  const content: TextContent = { text };
  if (code !== undefined) content.transliteration = code;
  if (language !== undefined) content.language = language;
  return { content, encoding: analysis.encoding, messageCount: analysis.messageCount, tooLong: isTooLong(analysis) };
}

export interface BinaryInput {
  hex: string;
  bytes: Uint8Array;
  dataCoding?: number;
  esmClass?: number;
}

export function prepareBinary(input: BinaryInput): PreparedContent {
  const analysis = analyzeBinary(input.bytes, input.esmClass ?? 0);
  const content: BinaryContent = { hex: input.hex };
  if (input.dataCoding !== undefined) content.dataCoding = input.dataCoding;
  if (input.esmClass !== undefined) content.esmClass = input.esmClass;
  return { content, encoding: 'BINARY', messageCount: analysis.messageCount, tooLong: analysis.tooLong };
}
