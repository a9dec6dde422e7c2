import type { Json } from './rcs-app.js';

/** Valid RCS send bodies, one per content type; tests break one field at a time. */

type Body = { [key: string]: Json };

export const CALENDAR_START = '2025-03-10T15:00:00.000+01:00';
export const CALENDAR_END = '2025-03-10T17:00:00.000+01:00';

export const reply = (text = 'Yes'): Body => ({ type: 'REPLY', text, postbackData: `answer-${text}` });

/** One suggestion of each type, in this order: REPLY, OPEN_URL, DIAL_PHONE, SHOW_LOCATION, REQUEST_LOCATION, CREATE_CALENDAR_EVENT. */
export const everySuggestion = (): Body[] => [
  reply(),
  { type: 'OPEN_URL', text: 'Open', postbackData: 'open', url: 'https://shop.example.com/offer', application: 'WEBVIEW', webviewViewMode: 'HALF' },
  { type: 'DIAL_PHONE', text: 'Call us', postbackData: 'dial', phoneNumber: '+441134960000' },
  { type: 'SHOW_LOCATION', text: 'Find us', postbackData: 'map', latitude: 45.8, longitude: -15.97, label: 'Store' },
  { type: 'REQUEST_LOCATION', text: 'Share location', postbackData: 'where' },
  {
    type: 'CREATE_CALENDAR_EVENT',
    text: 'Save the date',
    postbackData: 'event',
    startTime: CALENDAR_START,
    endTime: CALENDAR_END,
    title: 'Opening',
    description: 'Grand opening',
  },
];

export const card = (title = 'Offer'): Body => ({
  title,
  description: 'Half price today',
  media: { file: { url: 'https://cdn.example.com/offer.mp4' }, thumbnail: { url: 'https://cdn.example.com/offer-thumb.jpg' }, height: 'MEDIUM' },
  suggestions: [reply('Buy')],
});

export const CONTENTS: Record<string, () => Body> = {
  TEXT: () => ({ type: 'TEXT', text: 'Hello', suggestions: everySuggestion() }),
  FILE: () => ({
    type: 'FILE',
    file: { url: 'https://cdn.example.com/clip.mp4' },
    thumbnail: { url: 'https://cdn.example.com/clip.jpg' },
    suggestions: [reply()],
  }),
  CARD: () => ({ type: 'CARD', orientation: 'HORIZONTAL', alignment: 'LEFT', content: card(), suggestions: [reply()] }),
  CAROUSEL: () => ({ type: 'CAROUSEL', cardWidth: 'SMALL', contents: [card('First'), card('Second')], suggestions: [reply()] }),
  PROVIDER_TEMPLATE: () => ({ type: 'PROVIDER_TEMPLATE', templateId: 'welcome', parameters: [{ name: 'name', value: 'Ana' }] }),
};

export const bodyWith = (content: Body, message: Body = {}): Body => ({
  messages: [{ sender: 'DemoSender', destinations: [{ to: '441134960001' }], content, ...message }],
});

export const textBody = (): Body => bodyWith(CONTENTS.TEXT!());
export const fileBody = (): Body => bodyWith(CONTENTS.FILE!());
export const cardBody = (): Body => bodyWith(CONTENTS.CARD!());
export const carouselBody = (): Body => bodyWith(CONTENTS.CAROUSEL!());
export const templateBody = (): Body => bodyWith(CONTENTS.PROVIDER_TEMPLATE!());

/** An ordered-send message: what ordering requires to be shared is the same in each. */
export const orderedMessage = (text: string, extra: Body = {}): Body => ({
  sender: 'DemoSender',
  destinations: [{ to: '441134960001' }],
  content: { type: 'TEXT', text },
  ...extra,
});
