import { text } from '../../core/schema-fragments.js';

/**
 * RCS suggestions (chips and card buttons), discriminated by `type`. One object schema holds the
 * fields of every type, each with its documented bound: no two types give the same field different
 * bounds, so nothing is lost, and a violation names the field itself
 * (`messages[0].content.suggestions[2].text`). Our Ajv has no `discriminator` support, and `oneOf`
 * or `if/then` add a violation on the suggestion object (or every other type's failures) to each
 * real one. Which fields a type requires, and the checks between fields, are in read/suggestions.
 */

export const SUGGESTION_TYPES = ['REPLY', 'OPEN_URL', 'DIAL_PHONE', 'SHOW_LOCATION', 'REQUEST_LOCATION', 'CREATE_CALENDAR_EVENT'] as const;
export const OPEN_URL_APPLICATIONS = ['BROWSER', 'WEBVIEW'] as const;
export const WEBVIEW_VIEW_MODES = ['FULL', 'HALF', 'TALL'] as const;

export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

/** At most this many suggestions on a message; a card (alone or in a carousel) holds fewer. */
export const MAX_MESSAGE_SUGGESTIONS = 11;
export const MAX_CARD_SUGGESTIONS = 4;
export const MAX_RESOURCE_URL_LENGTH = 2048;

export interface SuggestionBody {
  type: SuggestionType;
  text: string;
  postbackData: string;
  url?: string;
  application?: (typeof OPEN_URL_APPLICATIONS)[number];
  webviewViewMode?: (typeof WEBVIEW_VIEW_MODES)[number];
  phoneNumber?: string;
  latitude?: number;
  longitude?: number;
  label?: string;
  startTime?: string;
  endTime?: string;
  title?: string;
  description?: string;
}

export const suggestionSchema = {
  type: 'object',
  description:
    'By `type`: REPLY and REQUEST_LOCATION `{text, postbackData}`; OPEN_URL adds `{url, application?, webviewViewMode?}`; ' +
    'DIAL_PHONE `{phoneNumber}`; SHOW_LOCATION `{latitude, longitude, label?}`; ' +
    'CREATE_CALENDAR_EVENT `{startTime, endTime, title, description?}`.',
  required: ['type', 'text', 'postbackData'],
  properties: {
    type: { type: 'string', enum: [...SUGGESTION_TYPES] },
    text: text(25, 1, 'Text shown on the suggestion.'),
    postbackData: text(2024, 1, 'Sent back to you when the suggestion is tapped.'),
    url: text(MAX_RESOURCE_URL_LENGTH, 1, 'OPEN_URL: absolute http or https URL to open.'),
    application: { type: 'string', enum: [...OPEN_URL_APPLICATIONS], description: 'OPEN_URL: BROWSER when absent.' },
    webviewViewMode: { type: 'string', enum: [...WEBVIEW_VIEW_MODES], description: 'OPEN_URL: required when application is WEBVIEW.' },
    phoneNumber: { type: 'string', pattern: '^\\+?[0-9]\\d{1,14}$', description: 'DIAL_PHONE: number to dial.' },
    latitude: { type: 'number', minimum: -90, maximum: 90, description: 'SHOW_LOCATION.' },
    longitude: { type: 'number', minimum: -180, maximum: 180, description: 'SHOW_LOCATION.' },
    label: text(100, 1, 'SHOW_LOCATION: label of the location.'),
    startTime: { type: 'string', description: 'CREATE_CALENDAR_EVENT: date-time in the future, before endTime.' },
    endTime: { type: 'string', description: 'CREATE_CALENDAR_EVENT: date-time after startTime.' },
    title: text(100, 1, 'CREATE_CALENDAR_EVENT: event title.'),
    description: text(500, 1, 'CREATE_CALENDAR_EVENT: event description.'),
  },
} as const;

export const suggestionsSchema = (maxItems: number) => ({ type: 'array', maxItems, items: suggestionSchema }) as const;
