/** Text as the API gives it, turned into what the engine reads. */

const SSML_DOCUMENT = /^\s*(?:<\?xml[^>]*\?>\s*)?<speak[\s>/]/i;

/** SSML is a `<speak>` document (optionally after an XML declaration); anything else is plain text. */
export const isSsml = (text: string): boolean => SSML_DOCUMENT.test(text);

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * The engine reads every input as SSML and `[[…]]` as phoneme codes. Plain text is escaped so that
 * `a < b` or `R&D` is read as written. `[[` is split by a space in both kinds, which is not heard:
 * escaping it would not do, since eSpeak takes brackets written as entities as phoneme codes too.
 * NUL would end the engine's C string early.
 */
export function engineText(text: string): string {
  const markup = isSsml(text) ? text : text.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
  return markup.replace(/\[(?=\[)/g, '[ ').replace(/\0/g, ' ');
}
