import type { Violation } from '../../core/errors/api-problem.js';
import type { CardContentBody, ContentType, RcsContentBody } from '../schemas/content.js';
import { checkContentUrl, checkThumbnail, requireFields } from './field-checks.js';
import { checkSuggestions } from './suggestions.js';

/** Fields each content type requires besides `type`. */
const REQUIRED_BY_TYPE: Record<ContentType, ReadonlyArray<keyof RcsContentBody & string>> = {
  TEXT: ['text'],
  FILE: ['file'],
  CARD: ['orientation', 'alignment', 'content'],
  CAROUSEL: ['cardWidth', 'contents'],
  PROVIDER_TEMPLATE: ['templateId'],
};

/**
 * Checks a schema-valid content at `path` (`messages[0].content`) for what the schema cannot say:
 * the fields its type requires, URLs, cards, suggestions. Fields of other types are not read (the
 * schema has bounded them); the content is stored as given.
 */
export function checkContent(content: RcsContentBody, path: string, now: number, out: Violation[]): void {
  if (!requireFields(content, REQUIRED_BY_TYPE[content.type], path, out)) return;
  switch (content.type) {
    case 'TEXT':
      break;
    case 'FILE': {
      const fileUrl = content.file!.url;
      checkContentUrl(fileUrl, `${path}.file.url`, out);
      if (content.thumbnail !== undefined) checkThumbnail(content.thumbnail.url, fileUrl, `${path}.thumbnail`, out);
      break;
    }
    case 'CARD':
      checkCard(content.content!, `${path}.content`, now, out);
      break;
    case 'CAROUSEL':
      content.contents!.forEach((card, i) => checkCard(card, `${path}.contents[${i}]`, now, out));
      break;
    case 'PROVIDER_TEMPLATE':
      // The template is the provider's: it has no suggestions of its own to check.
      return;
  }
  checkSuggestions(content.suggestions, `${path}.suggestions`, now, out);
}

function checkCard(card: CardContentBody, path: string, now: number, out: Violation[]): void {
  if (card.media === undefined && card.title === undefined) out.push({ property: path, violation: 'must contain media or title' });
  const media = card.media;
  if (media !== undefined) {
    checkContentUrl(media.file.url, `${path}.media.file.url`, out);
    if (media.thumbnail !== undefined) checkThumbnail(media.thumbnail.url, media.file.url, `${path}.media.thumbnail`, out);
  }
  checkSuggestions(card.suggestions, `${path}.suggestions`, now, out);
}
