import { violation } from '../core/errors/api-problem.js';
import {
  analyzeText,
  isLanguageCode,
  isTransliterationCode,
  transliterate,
  type LanguageCode,
} from './encoding/index.js';

export interface PreviewRequest {
  text: string;
  languageCode?: string;
  transliteration?: string;
}

export interface PreviewConfiguration {
  language?: { languageCode: string };
  transliteration?: string;
}

export interface TextPreview {
  textPreview: string;
  messageCount: number;
  charactersRemaining: number;
  configuration: PreviewConfiguration;
}

export interface PreviewResponse {
  originalText: string;
  previews: TextPreview[];
}

/**
 * `POST /sms/1/preview`: the text as is (empty configuration), then with the transliteration,
 * then with the language, then with both, each variant only when its option is given and not NONE.
 *
 * A language preview counts with that language's single shift table, the only shift a preview
 * request can imply (it carries no singleShift/lockingShift flags).
 *
 * A `languageCode` or `transliteration` that is not one of Infobip's values is a 400 naming the field
 * (the route's schema refuses them first; this keeps the function safe on its own).
 */
export function previewText(request: PreviewRequest): PreviewResponse {
  const language = optionalCode(request.languageCode, 'languageCode', isLanguageCode);
  const transliteration = optionalCode(request.transliteration, 'transliteration', isTransliterationCode);
  const text = request.text;
  const transliterated = transliteration === undefined ? text : transliterate(text, transliteration);

  const previews: TextPreview[] = [preview(text, undefined, {})];
  if (transliteration !== undefined) {
    previews.push(preview(transliterated, undefined, { transliteration }));
  }
  if (language !== undefined) {
    previews.push(preview(text, language, { language: { languageCode: language } }));
  }
  if (language !== undefined && transliteration !== undefined) {
    previews.push(preview(transliterated, language, { language: { languageCode: language }, transliteration }));
  }
  return { originalText: text, previews };
}

function preview(text: string, language: LanguageCode | undefined, configuration: PreviewConfiguration): TextPreview {
  const analysis = analyzeText(text, language === undefined ? {} : { languageCode: language, singleShift: true });
  return {
    textPreview: text,
    messageCount: analysis.messageCount,
    charactersRemaining: analysis.charactersRemaining,
    configuration,
  };
}

function optionalCode<T extends string>(
  value: string | undefined,
  field: string,
  isValid: (code: string) => code is T,
): T | undefined {
  if (value === undefined || value === 'NONE') return undefined;
  if (!isValid(value)) throw violation(field, `"${value}" is not supported`);
  return value;
}
