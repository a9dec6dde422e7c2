import type { MessageContent, RcsContent } from './types.js';

/** RCS content names its `type`; SMS content has text or hex. */
export const isRcsContent = (content: MessageContent): content is RcsContent => 'type' in content;
