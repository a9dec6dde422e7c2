import type { Violation } from '../../core/errors/api-problem.js';
import type { SuggestionBody, SuggestionType } from '../schemas/suggestions.js';
import { checkContentUrl, readTime, requireFields } from './field-checks.js';

/** Fields each suggestion type requires besides `type`, `text` and `postbackData` (which the schema requires of all). */
const REQUIRED_BY_TYPE: Record<SuggestionType, ReadonlyArray<keyof SuggestionBody & string>> = {
  REPLY: [],
  OPEN_URL: ['url'],
  DIAL_PHONE: ['phoneNumber'],
  SHOW_LOCATION: ['latitude', 'longitude'],
  REQUEST_LOCATION: [],
  CREATE_CALENDAR_EVENT: ['startTime', 'endTime', 'title'],
};

/** Checks each suggestion of a list at `path` (`messages[0].content.suggestions`). */
export function checkSuggestions(suggestions: SuggestionBody[] | undefined, path: string, now: number, out: Violation[]): void {
  if (suggestions === undefined) return;
  suggestions.forEach((suggestion, i) => checkSuggestion(suggestion, `${path}[${i}]`, now, out));
}

function checkSuggestion(suggestion: SuggestionBody, path: string, now: number, out: Violation[]): void {
  if (!requireFields(suggestion, REQUIRED_BY_TYPE[suggestion.type], path, out)) return;
  switch (suggestion.type) {
    case 'OPEN_URL':
      checkContentUrl(suggestion.url!, `${path}.url`, out);
      if (suggestion.application === 'WEBVIEW' && suggestion.webviewViewMode === undefined) {
        out.push({ property: `${path}.webviewViewMode`, violation: 'must not be null when application is WEBVIEW' });
      }
      return;
    case 'CREATE_CALENDAR_EVENT':
      checkEventTimes(suggestion.startTime!, suggestion.endTime!, path, now, out);
      return;
    default:
      return;
  }
}

/** The event starts in the future and ends after it starts (so it ends in the future too). */
// UNCONFIRMED: "future" is judged at acceptance (`now`), not at a scheduled `sendAt`, which may lie after the event.
function checkEventTimes(startTime: string, endTime: string, path: string, now: number, out: Violation[]): void {
  const start = readTime(startTime, `${path}.startTime`, out);
  const end = readTime(endTime, `${path}.endTime`, out);
  if (start !== undefined && start <= now) out.push({ property: `${path}.startTime`, violation: 'must be in the future' });
  if (start !== undefined && end !== undefined && end <= start) out.push({ property: `${path}.endTime`, violation: 'must be after startTime' });
}
