import type { MessageContent, RcsContent, RcsInteractionType } from './types.js';

/** RCS content names its `type`; SMS content has text or hex. */
export const isRcsContent = (content: MessageContent): content is RcsContent => 'type' in content;

/** Longest text, in characters, of a basic RCS message. */
export const BASIC_MESSAGE_MAX_CHARS = 160;

/**
 * The interaction type of RCS content, after the RCS basic/single classification: a text-only
 * message of at most 160 characters without suggestions is BASIC_MESSAGE; anything richer (longer
 * text, suggestions, files, cards, carousels, templates) is SINGLE_MESSAGE. UNCONFIRMED: Infobip
 * documents only that the value describes the message's structure; RICH_MESSAGE and
 * RICH_MEDIA_MESSAGE (the per-message categories of some markets) are never emitted.
 */
export function rcsInteractionType(content: RcsContent): RcsInteractionType {
  if (content.type !== 'TEXT' || typeof content.text !== 'string') return 'SINGLE_MESSAGE';
  const suggestions = Array.isArray(content.suggestions) ? content.suggestions.length : 0;
  const basic = suggestions === 0 && [...content.text].length <= BASIC_MESSAGE_MAX_CHARS;
  return basic ? 'BASIC_MESSAGE' : 'SINGLE_MESSAGE';
}
