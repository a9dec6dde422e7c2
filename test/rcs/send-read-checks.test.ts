import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiProblem } from '../../src/core/errors/api-problem.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { readRcsSendRequest } from '../../src/rcs/read/read-send.js';
import type { RcsSendBody } from '../../src/rcs/schemas/send.js';
import { assertAccepted, assertViolations, DAY, HOUR, NOW, startRcsApp, withField, type Json, type RcsApp } from './rcs-app.js';
import { bodyWith, CALENDAR_START, card, cardBody, carouselBody, fileBody, templateBody, textBody } from './rcs-bodies.js';

/** The checks the schema cannot express, run by the reader on a schema-valid body. */

const CONTENT = 'messages.0.content';
const C = 'messages[0].content';
const S = `${CONTENT}.suggestions`;
const SP = `${C}.suggestions`;
const NOT_HTTP = 'must be an absolute http or https URL';
const time = (ms: number) => formatInfobipTime(ms);

interface Case {
  name: string;
  body: () => object;
  edits: Array<[at: string, value: Json | undefined]>;
  violations: Array<[property: string, violation: string]>;
}

const CASES: Case[] = [
  { name: 'TEXT without text', body: textBody, edits: [[`${CONTENT}.text`, undefined]], violations: [[`${C}.text`, 'must not be null']] },
  { name: 'FILE without file', body: fileBody, edits: [[`${CONTENT}.file`, undefined]], violations: [[`${C}.file`, 'must not be null']] },
  {
    name: 'CARD without orientation, alignment or content',
    body: () => bodyWith({ type: 'CARD' }),
    edits: [],
    violations: [[`${C}.orientation`, 'must not be null'], [`${C}.alignment`, 'must not be null'], [`${C}.content`, 'must not be null']],
  },
  { name: 'CAROUSEL without cardWidth or contents', body: () => bodyWith({ type: 'CAROUSEL' }), edits: [], violations: [[`${C}.cardWidth`, 'must not be null'], [`${C}.contents`, 'must not be null']] },
  { name: 'PROVIDER_TEMPLATE without templateId', body: templateBody, edits: [[`${CONTENT}.templateId`, undefined]], violations: [[`${C}.templateId`, 'must not be null']] },
  { name: 'TEXT content carrying only another type’s field', body: () => bodyWith({ type: 'TEXT', templateId: 'x' }), edits: [], violations: [[`${C}.text`, 'must not be null']] },
  { name: 'OPEN_URL without url', body: textBody, edits: [[`${S}.1.url`, undefined]], violations: [[`${SP}[1].url`, 'must not be null']] },
  { name: 'DIAL_PHONE without phoneNumber', body: textBody, edits: [[`${S}.2.phoneNumber`, undefined]], violations: [[`${SP}[2].phoneNumber`, 'must not be null']] },
  {
    name: 'SHOW_LOCATION without coordinates',
    body: textBody,
    edits: [[`${S}.3.latitude`, undefined], [`${S}.3.longitude`, undefined]],
    violations: [[`${SP}[3].latitude`, 'must not be null'], [`${SP}[3].longitude`, 'must not be null']],
  },
  {
    name: 'CREATE_CALENDAR_EVENT without times or title',
    body: textBody,
    edits: [[`${S}.5.startTime`, undefined], [`${S}.5.endTime`, undefined], [`${S}.5.title`, undefined]],
    violations: [[`${SP}[5].startTime`, 'must not be null'], [`${SP}[5].endTime`, 'must not be null'], [`${SP}[5].title`, 'must not be null']],
  },
  { name: 'WEBVIEW without webviewViewMode', body: textBody, edits: [[`${S}.1.webviewViewMode`, undefined]], violations: [[`${SP}[1].webviewViewMode`, 'must not be null when application is WEBVIEW']] },
  { name: 'OPEN_URL to a javascript: URL', body: textBody, edits: [[`${S}.1.url`, 'javascript:alert(1)']], violations: [[`${SP}[1].url`, NOT_HTTP]] },
  { name: 'file on ftp', body: fileBody, edits: [[`${CONTENT}.file.url`, 'ftp://cdn.example.com/clip.mp4']], violations: [[`${C}.file.url`, NOT_HTTP]] },
  { name: 'relative thumbnail', body: fileBody, edits: [[`${CONTENT}.thumbnail.url`, 'clip.jpg']], violations: [[`${C}.thumbnail.url`, NOT_HTTP]] },
  { name: 'card media on a data: URL', body: cardBody, edits: [[`${CONTENT}.content.media.file.url`, 'data:image/png;base64,AAAA']], violations: [[`${C}.content.media.file.url`, NOT_HTTP]] },
  { name: 'carousel card media with credentials', body: carouselBody, edits: [[`${CONTENT}.contents.1.media.file.url`, 'https://user:secret@cdn.example.com/a.mp4']], violations: [[`${C}.contents[1].media.file.url`, 'must not contain credentials']] },
  { name: 'thumbnail of an image file', body: fileBody, edits: [[`${CONTENT}.file.url`, 'https://cdn.example.com/photo.JPG']], violations: [[`${C}.thumbnail`, 'is allowed only for video files']] },
  { name: 'thumbnail of a pdf card media', body: cardBody, edits: [[`${CONTENT}.content.media.file.url`, 'https://cdn.example.com/menu.pdf']], violations: [[`${C}.content.media.thumbnail`, 'is allowed only for video files']] },
  { name: 'card with neither media nor title', body: cardBody, edits: [[`${CONTENT}.content`, { description: 'Only words' }]], violations: [[`${C}.content`, 'must contain media or title']] },
  { name: 'carousel card with neither media nor title', body: carouselBody, edits: [[`${CONTENT}.contents.1`, { description: 'Only words' }]], violations: [[`${C}.contents[1]`, 'must contain media or title']] },
  { name: 'card suggestion without its url', body: cardBody, edits: [[`${CONTENT}.content.suggestions`, [{ type: 'OPEN_URL', text: 'Go', postbackData: 'go' }]]], violations: [[`${C}.content.suggestions[0].url`, 'must not be null']] },
  { name: 'event start not a date-time', body: textBody, edits: [[`${S}.5.startTime`, 'next Monday']], violations: [[`${SP}[5].startTime`, 'must be a date-time such as 2025-03-04T10:15:30.000+0000']] },
  { name: 'event starting in the past', body: textBody, edits: [[`${S}.5.startTime`, time(NOW - HOUR)]], violations: [[`${SP}[5].startTime`, 'must be in the future']] },
  { name: 'event starting now', body: textBody, edits: [[`${S}.5.startTime`, time(NOW)]], violations: [[`${SP}[5].startTime`, 'must be in the future']] },
  { name: 'event ending before it starts', body: textBody, edits: [[`${S}.5.endTime`, '2025-03-10T14:59:59.999+01:00']], violations: [[`${SP}[5].endTime`, 'must be after startTime']] },
  { name: 'event ending as it starts', body: textBody, edits: [[`${S}.5.endTime`, '2025-03-10T14:00:00Z']], violations: [[`${SP}[5].endTime`, 'must be after startTime']] },
  { name: 'delivery webhook on ftp', body: textBody, edits: [['messages.0.webhooks.delivery.url', 'ftp://hooks.example.com/dlr']], violations: [['messages[0].webhooks.delivery.url', NOT_HTTP]] },
  { name: 'seen webhook relative', body: textBody, edits: [['messages.0.webhooks.seen.url', '/seen']], violations: [['messages[0].webhooks.seen.url', NOT_HTTP]] },
  { name: 'empty seen webhook', body: textBody, edits: [['messages.0.webhooks.seen.url', '']], violations: [['messages[0].webhooks.seen.url', 'must not be blank']] },
  {
    name: 'both smsFailover and mmsFailover',
    body: textBody,
    edits: [['messages.0.options', { smsFailover: { text: 'a' }, mmsFailover: { content: { messageSegments: [{ type: 'TEXT', text: 'a' }] } } }]],
    violations: [['messages[0].options.mmsFailover', 'must not be given together with smsFailover']],
  },
  {
    name: 'MMS segments without what their type requires',
    body: textBody,
    edits: [['messages.0.options.mmsFailover', { content: { messageSegments: [{ type: 'TEXT' }, { type: 'LINK', contentType: 'image/png' }, { type: 'SMIL' }, { type: 'UPLOADED_REFERENCE' }] } }]],
    violations: [
      ['messages[0].options.mmsFailover.content.messageSegments[0].text', 'must not be null'],
      ['messages[0].options.mmsFailover.content.messageSegments[1].contentUrl', 'must not be null'],
      ['messages[0].options.mmsFailover.content.messageSegments[2].contentType', 'must not be null'],
      ['messages[0].options.mmsFailover.content.messageSegments[2].smil', 'must not be null'],
      ['messages[0].options.mmsFailover.content.messageSegments[3].uploadedContentId', 'must not be null'],
    ],
  },
  { name: 'MMS link not on http', body: textBody, edits: [['messages.0.options.mmsFailover', { content: { messageSegments: [{ type: 'LINK', contentUrl: 'file:///etc/passwd' }] } }]], violations: [['messages[0].options.mmsFailover.content.messageSegments[0].contentUrl', NOT_HTTP]] },
  { name: 'delivery window with from only', body: textBody, edits: [['messages.0.options.deliveryTimeWindow', { days: ['MONDAY'], from: { hour: 8, minute: 0 } }]], violations: [['messages[0].options.deliveryTimeWindow.to', 'must be given together with from']] },
  { name: 'delivery window under an hour', body: textBody, edits: [['messages.0.options.deliveryTimeWindow', { days: ['MONDAY'], from: { hour: 8, minute: 0 }, to: { hour: 8, minute: 59 } }]], violations: [['messages[0].options.deliveryTimeWindow.to', 'must be at least 1 hour after from']] },
  { name: 'sendAt beyond 180 days', body: textBody, edits: [['options.schedule.sendAt', time(NOW + 181 * DAY)]], violations: [['options.schedule.sendAt', 'must not be more than 180 days in the future']] },
  { name: 'sendAt not a date-time', body: textBody, edits: [['options.schedule.sendAt', '2025-02-30T10:00:00Z']], violations: [['options.schedule.sendAt', 'must be a date-time such as 2025-03-04T10:15:30.000+0000']] },
];

describe('POST /rcs/2/messages: checks beyond the schema', () => {
  let rcs: RcsApp;
  before(async () => {
    rcs = await startRcsApp();
  });
  after(() => rcs.close());

  for (const c of CASES) {
    it(`${c.name} → 400 naming ${c.violations.map(([property]) => property).join(', ')}`, async () => {
      const body = c.edits.reduce((b, [at, value]) => withField(b, at, value), c.body());
      assertViolations(await rcs.send(body), c.violations.map(([property, violation]) => ({ property, violation })));
    });
  }

  it('accepts a thumbnail when the file URL does not say it is not a video', async () => {
    for (const url of ['https://cdn.example.com/stream', 'https://cdn.example.com/get?name=photo.jpg', 'https://cdn.example.com/clip.webm', 'https://cdn.example.com/a.3gp']) {
      assertAccepted(await rcs.send(withField(fileBody(), `${CONTENT}.file.url`, url)));
    }
  });

  it('accepts OPEN_URL in a browser without a view mode, and WEBVIEW with one', async () => {
    assertAccepted(await rcs.send(withField(withField(textBody(), `${S}.1.application`, 'BROWSER'), `${S}.1.webviewViewMode`, undefined)));
    assertAccepted(await rcs.send(withField(textBody(), `${S}.1.application`, undefined)));
  });

  it('accepts a card with only a title, and one with only media', async () => {
    assertAccepted(await rcs.send(withField(cardBody(), `${CONTENT}.content`, { title: 'Just a title' })));
    assertAccepted(await rcs.send(withField(cardBody(), `${CONTENT}.content`, { media: card().media! })));
  });

  it('reports the violations of every message together', async () => {
    const body = { messages: [...(textBody().messages as Json[]), ...(fileBody().messages as Json[])] };
    const broken = withField(withField(body, `${S}.1.url`, 'mailto:a@example.com'), 'messages.1.content.file.url', 'ftp://x/y.mp4');
    assertViolations(await rcs.send(broken), [
      { property: `${SP}[1].url`, violation: NOT_HTTP },
      { property: 'messages[1].content.file.url', violation: NOT_HTTP },
    ]);
  });

  it('judges calendar events by the clock it is given', () => {
    const body = withField(textBody(), `${S}.5.endTime`, '2025-03-10T18:00:00Z') as unknown as RcsSendBody;
    const start = Date.parse('2025-03-10T14:00:00Z');
    assert.equal(Date.parse(CALENDAR_START), start);
    assert.equal(readRcsSendRequest(body, start - 1).messages.length, 1);
    assert.throws(
      () => readRcsSendRequest(body, start),
      (error: unknown) =>
        error instanceof ApiProblem &&
        error.statusCode === 400 &&
        JSON.stringify(error.violations) === JSON.stringify([{ property: `${SP}[5].startTime`, violation: 'must be in the future' }]),
    );
  });
});
