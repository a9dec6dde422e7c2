import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccepted, assertViolations, startRcsApp, withField, type Json, type RcsApp } from './rcs-app.js';
import { bodyWith, card, cardBody, carouselBody, CONTENTS, fileBody, reply, templateBody, textBody } from './rcs-bodies.js';

/** Each case breaks one documented bound of a valid body and names the one violation it must cause. */
interface Case {
  name: string;
  body: () => object;
  /** Dotted path, array indexes as numbers; undefined removes the field. */
  at: string;
  value: Json | undefined;
  property: string;
  violation: string;
}

const SUGGESTION_TYPES = 'must be one of [REPLY, OPEN_URL, DIAL_PHONE, SHOW_LOCATION, REQUEST_LOCATION, CREATE_CALENDAR_EVENT]';
const CONTENT = 'messages.0.content';
const C = 'messages[0].content';
/** Suggestions of the TEXT body, by index: 0 REPLY, 1 OPEN_URL, 2 DIAL_PHONE, 3 SHOW_LOCATION, 4 REQUEST_LOCATION, 5 CREATE_CALENDAR_EVENT. */
const S = `${CONTENT}.suggestions`;
const SP = `${C}.suggestions`;
const replies = (count: number): Json[] => Array.from({ length: count }, (_, i) => reply(`r${i}`));
const long = (length: number) => 'x'.repeat(length);
const phonePattern = 'must match pattern "^\\+?[0-9]\\d{1,14}$"';

const REQUEST_CASES: Case[] = [
  { name: 'no messages', body: textBody, at: 'messages', value: undefined, property: 'messages', violation: 'must not be null' },
  { name: 'empty messages', body: textBody, at: 'messages', value: [], property: 'messages', violation: 'must not be empty' },
  { name: 'no destinations', body: textBody, at: 'messages.0.destinations', value: undefined, property: 'messages[0].destinations', violation: 'must not be null' },
  { name: 'empty destinations', body: textBody, at: 'messages.0.destinations', value: [], property: 'messages[0].destinations', violation: 'must not be empty' },
  { name: 'destination without to', body: textBody, at: 'messages.0.destinations', value: [{ messageId: 'm1' }], property: 'messages[0].destinations[0].to', violation: 'must not be null' },
  { name: 'to over 64', body: textBody, at: 'messages.0.destinations.0.to', value: '4'.repeat(65), property: 'messages[0].destinations[0].to', violation: 'size must be between 0 and 64' },
  { name: 'messageId over 200', body: textBody, at: 'messages.0.destinations.0.messageId', value: long(201), property: 'messages[0].destinations[0].messageId', violation: 'size must be between 0 and 200' },
  { name: 'sender not a string', body: textBody, at: 'messages.0.sender', value: 7, property: 'messages[0].sender', violation: 'must be string' },
  { name: 'entityId over 255', body: textBody, at: 'messages.0.options.platform.entityId', value: long(256), property: 'messages[0].options.platform.entityId', violation: 'size must be between 0 and 255' },
  { name: 'applicationId over 255', body: textBody, at: 'messages.0.options.platform.applicationId', value: long(256), property: 'messages[0].options.platform.applicationId', violation: 'size must be between 0 and 255' },
  { name: 'validity without amount', body: textBody, at: 'messages.0.options.validityPeriod', value: { timeUnit: 'HOURS' }, property: 'messages[0].options.validityPeriod.amount', violation: 'must not be null' },
  { name: 'validity unit', body: textBody, at: 'messages.0.options.validityPeriod', value: { amount: 1, timeUnit: 'DAYS' }, property: 'messages[0].options.validityPeriod.timeUnit', violation: 'must be one of [SECONDS, MINUTES, HOURS]' },
  { name: 'window without days', body: textBody, at: 'messages.0.options.deliveryTimeWindow', value: { days: [] }, property: 'messages[0].options.deliveryTimeWindow.days', violation: 'must not be empty' },
  { name: 'window hour 24', body: textBody, at: 'messages.0.options.deliveryTimeWindow', value: { days: ['MONDAY'], from: { hour: 24, minute: 0 }, to: { hour: 23, minute: 0 } }, property: 'messages[0].options.deliveryTimeWindow.from.hour', violation: 'must be less than or equal to 23' },
  { name: 'campaignReferenceId over 255', body: textBody, at: 'messages.0.options.campaignReferenceId', value: long(256), property: 'messages[0].options.campaignReferenceId', violation: 'size must be between 0 and 255' },
  { name: 'smsFailover without text', body: textBody, at: 'messages.0.options.smsFailover', value: { sender: 'Shop' }, property: 'messages[0].options.smsFailover.text', violation: 'must not be null' },
  { name: 'smsFailover validity unit', body: textBody, at: 'messages.0.options.smsFailover', value: { text: 'a', validityPeriod: { amount: 1, timeUnit: 'WEEKS' } }, property: 'messages[0].options.smsFailover.validityPeriod.timeUnit', violation: 'must be one of [SECONDS, MINUTES, HOURS]' },
  { name: 'smsFailover indiaDlt without principalEntityId', body: textBody, at: 'messages.0.options.smsFailover', value: { text: 'a', regional: { indiaDlt: {} } }, property: 'messages[0].options.smsFailover.regional.indiaDlt.principalEntityId', violation: 'must not be null' },
  { name: 'mmsFailover without content', body: textBody, at: 'messages.0.options.mmsFailover', value: { sender: 'Shop' }, property: 'messages[0].options.mmsFailover.content', violation: 'must not be null' },
  { name: 'mms content without segments', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { title: 'T' } }, property: 'messages[0].options.mmsFailover.content.messageSegments', violation: 'must not be null' },
  { name: 'mms with no segment', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { messageSegments: [] } }, property: 'messages[0].options.mmsFailover.content.messageSegments', violation: 'must not be empty' },
  { name: 'mms title over 66', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { title: long(67), messageSegments: [{ type: 'TEXT', text: 'a' }] } }, property: 'messages[0].options.mmsFailover.content.title', violation: 'size must be between 0 and 66' },
  { name: 'mms segment type', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { messageSegments: [{ type: 'VIDEO' }] } }, property: 'messages[0].options.mmsFailover.content.messageSegments[0].type', violation: 'must be one of [TEXT, LINK, SMIL, UPLOADED_REFERENCE]' },
  { name: 'mms segment without type', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { messageSegments: [{ text: 'a' }] } }, property: 'messages[0].options.mmsFailover.content.messageSegments[0].type', violation: 'must not be null' },
  { name: 'mms text over 4096', body: textBody, at: 'messages.0.options.mmsFailover', value: { content: { messageSegments: [{ type: 'TEXT', text: long(4097) }] } }, property: 'messages[0].options.mmsFailover.content.messageSegments[0].text', violation: 'size must be between 0 and 4096' },
  { name: 'delivery URL over 2048', body: textBody, at: 'messages.0.webhooks.delivery.url', value: `https://e.com/${long(2035)}`, property: 'messages[0].webhooks.delivery.url', violation: 'size must be between 0 and 2048' },
  { name: 'intermediateReport type', body: textBody, at: 'messages.0.webhooks.delivery.intermediateReport', value: 'yes', property: 'messages[0].webhooks.delivery.intermediateReport', violation: 'must be boolean' },
  { name: 'notify type', body: textBody, at: 'messages.0.webhooks.delivery.notify', value: 0, property: 'messages[0].webhooks.delivery.notify', violation: 'must be boolean' },
  { name: 'receiveTriggeredFailoverReports type', body: textBody, at: 'messages.0.webhooks.delivery.receiveTriggeredFailoverReports', value: 'true', property: 'messages[0].webhooks.delivery.receiveTriggeredFailoverReports', violation: 'must be boolean' },
  { name: 'contentType type', body: textBody, at: 'messages.0.webhooks.contentType', value: ['application/json'], property: 'messages[0].webhooks.contentType', violation: 'must be string' },
  { name: 'callbackData over 4000', body: textBody, at: 'messages.0.webhooks.callbackData', value: long(4001), property: 'messages[0].webhooks.callbackData', violation: 'size must be between 0 and 4000' },
  { name: 'seen URL over 2048', body: textBody, at: 'messages.0.webhooks.seen.url', value: `https://e.com/${long(2035)}`, property: 'messages[0].webhooks.seen.url', violation: 'size must be between 0 and 2048' },
  { name: 'bulkId over 100', body: textBody, at: 'options.schedule.bulkId', value: long(101), property: 'options.schedule.bulkId', violation: 'size must be between 0 and 100' },
  { name: 'speed limit amount 0', body: textBody, at: 'options.schedule.sendingSpeedLimit', value: { amount: 0 }, property: 'options.schedule.sendingSpeedLimit.amount', violation: 'must be greater than or equal to 1' },
  { name: 'speed limit unit', body: textBody, at: 'options.schedule.sendingSpeedLimit', value: { amount: 5, timeUnit: 'SECOND' }, property: 'options.schedule.sendingSpeedLimit.timeUnit', violation: 'must be one of [MINUTE, HOUR, DAY]' },
  { name: 'tracking flag type', body: textBody, at: 'options.tracking.shortenUrl', value: 'no', property: 'options.tracking.shortenUrl', violation: 'must be boolean' },
  { name: 'respectOrder type', body: textBody, at: 'options.messageOrdering.respectOrder', value: 'yes', property: 'options.messageOrdering.respectOrder', violation: 'must be boolean' },
  { name: 'stopOnFailure type', body: textBody, at: 'options.messageOrdering.stopOnFailure', value: 1, property: 'options.messageOrdering.stopOnFailure', violation: 'must be boolean' },
];

const CONTENT_CASES: Case[] = [
  { name: 'no content', body: textBody, at: CONTENT, value: undefined, property: C, violation: 'must not be null' },
  { name: 'content without type', body: textBody, at: `${CONTENT}.type`, value: undefined, property: `${C}.type`, violation: 'must not be null' },
  { name: 'unknown content type', body: textBody, at: `${CONTENT}.type`, value: 'VIDEO', property: `${C}.type`, violation: 'must be one of [TEXT, FILE, CARD, CAROUSEL, PROVIDER_TEMPLATE]' },
  { name: 'lower-case content type', body: textBody, at: `${CONTENT}.type`, value: 'text', property: `${C}.type`, violation: 'must be one of [TEXT, FILE, CARD, CAROUSEL, PROVIDER_TEMPLATE]' },
  { name: 'text over 3072', body: textBody, at: `${CONTENT}.text`, value: long(3073), property: `${C}.text`, violation: 'size must be between 0 and 3072' },
  { name: '12 suggestions', body: textBody, at: S, value: replies(12), property: SP, violation: 'must contain at most 11 items' },
  { name: 'suggestion not an object', body: textBody, at: `${S}.4`, value: 'REPLY', property: `${SP}[4]`, violation: 'must be object' },
  { name: 'suggestion without type', body: textBody, at: `${S}.0.type`, value: undefined, property: `${SP}[0].type`, violation: 'must not be null' },
  { name: 'unknown suggestion type', body: textBody, at: `${S}.0.type`, value: 'SHARE', property: `${SP}[0].type`, violation: SUGGESTION_TYPES },
  { name: 'suggestion without text', body: textBody, at: `${S}.4.text`, value: undefined, property: `${SP}[4].text`, violation: 'must not be null' },
  { name: 'suggestion text empty', body: textBody, at: `${S}.2.text`, value: '', property: `${SP}[2].text`, violation: 'must not be blank' },
  { name: 'suggestion text over 25', body: textBody, at: `${S}.2.text`, value: long(26), property: `${SP}[2].text`, violation: 'size must be between 0 and 25' },
  { name: 'suggestion without postbackData', body: textBody, at: `${S}.0.postbackData`, value: undefined, property: `${SP}[0].postbackData`, violation: 'must not be null' },
  { name: 'postbackData empty', body: textBody, at: `${S}.5.postbackData`, value: '', property: `${SP}[5].postbackData`, violation: 'must not be blank' },
  { name: 'postbackData over 2024', body: textBody, at: `${S}.5.postbackData`, value: long(2025), property: `${SP}[5].postbackData`, violation: 'size must be between 0 and 2024' },
  { name: 'OPEN_URL url empty', body: textBody, at: `${S}.1.url`, value: '', property: `${SP}[1].url`, violation: 'must not be blank' },
  { name: 'OPEN_URL url over 2048', body: textBody, at: `${S}.1.url`, value: `https://e.com/${long(2035)}`, property: `${SP}[1].url`, violation: 'size must be between 0 and 2048' },
  { name: 'OPEN_URL application', body: textBody, at: `${S}.1.application`, value: 'APP', property: `${SP}[1].application`, violation: 'must be one of [BROWSER, WEBVIEW]' },
  { name: 'OPEN_URL webviewViewMode', body: textBody, at: `${S}.1.webviewViewMode`, value: 'QUARTER', property: `${SP}[1].webviewViewMode`, violation: 'must be one of [FULL, HALF, TALL]' },
  { name: 'phoneNumber with letters', body: textBody, at: `${S}.2.phoneNumber`, value: '+44 113 496', property: `${SP}[2].phoneNumber`, violation: phonePattern },
  { name: 'phoneNumber of one digit', body: textBody, at: `${S}.2.phoneNumber`, value: '+4', property: `${SP}[2].phoneNumber`, violation: phonePattern },
  { name: 'phoneNumber of 16 digits', body: textBody, at: `${S}.2.phoneNumber`, value: '4'.repeat(16), property: `${SP}[2].phoneNumber`, violation: phonePattern },
  { name: 'latitude above 90', body: textBody, at: `${S}.3.latitude`, value: 90.5, property: `${SP}[3].latitude`, violation: 'must be less than or equal to 90' },
  { name: 'latitude below -90', body: textBody, at: `${S}.3.latitude`, value: -90.01, property: `${SP}[3].latitude`, violation: 'must be greater than or equal to -90' },
  { name: 'latitude as a string', body: textBody, at: `${S}.3.latitude`, value: '45.8', property: `${SP}[3].latitude`, violation: 'must be number' },
  { name: 'longitude above 180', body: textBody, at: `${S}.3.longitude`, value: 180.5, property: `${SP}[3].longitude`, violation: 'must be less than or equal to 180' },
  { name: 'longitude below -180', body: textBody, at: `${S}.3.longitude`, value: -181, property: `${SP}[3].longitude`, violation: 'must be greater than or equal to -180' },
  { name: 'label empty', body: textBody, at: `${S}.3.label`, value: '', property: `${SP}[3].label`, violation: 'must not be blank' },
  { name: 'label over 100', body: textBody, at: `${S}.3.label`, value: long(101), property: `${SP}[3].label`, violation: 'size must be between 0 and 100' },
  { name: 'event title empty', body: textBody, at: `${S}.5.title`, value: '', property: `${SP}[5].title`, violation: 'must not be blank' },
  { name: 'event title over 100', body: textBody, at: `${S}.5.title`, value: long(101), property: `${SP}[5].title`, violation: 'size must be between 0 and 100' },
  { name: 'event description empty', body: textBody, at: `${S}.5.description`, value: '', property: `${SP}[5].description`, violation: 'must not be blank' },
  { name: 'event description over 500', body: textBody, at: `${S}.5.description`, value: long(501), property: `${SP}[5].description`, violation: 'size must be between 0 and 500' },
  { name: 'event startTime not a string', body: textBody, at: `${S}.5.startTime`, value: 1741600800000, property: `${SP}[5].startTime`, violation: 'must be string' },
  { name: 'file without url', body: fileBody, at: `${CONTENT}.file`, value: {}, property: `${C}.file.url`, violation: 'must not be null' },
  { name: 'file url empty', body: fileBody, at: `${CONTENT}.file.url`, value: '', property: `${C}.file.url`, violation: 'must not be blank' },
  { name: 'file url over 2048', body: fileBody, at: `${CONTENT}.file.url`, value: `https://e.com/${long(2035)}`, property: `${C}.file.url`, violation: 'size must be between 0 and 2048' },
  { name: 'thumbnail url over 2048', body: fileBody, at: `${CONTENT}.thumbnail.url`, value: `https://e.com/${long(2035)}`, property: `${C}.thumbnail.url`, violation: 'size must be between 0 and 2048' },
  { name: 'file suggestions over 11', body: fileBody, at: S, value: replies(12), property: SP, violation: 'must contain at most 11 items' },
  { name: 'card orientation', body: cardBody, at: `${CONTENT}.orientation`, value: 'DIAGONAL', property: `${C}.orientation`, violation: 'must be one of [HORIZONTAL, VERTICAL]' },
  { name: 'card alignment', body: cardBody, at: `${CONTENT}.alignment`, value: 'CENTER', property: `${C}.alignment`, violation: 'must be one of [LEFT, RIGHT]' },
  { name: 'card title empty', body: cardBody, at: `${CONTENT}.content.title`, value: '', property: `${C}.content.title`, violation: 'must not be blank' },
  { name: 'card title over 200', body: cardBody, at: `${CONTENT}.content.title`, value: long(201), property: `${C}.content.title`, violation: 'size must be between 0 and 200' },
  { name: 'card description empty', body: cardBody, at: `${CONTENT}.content.description`, value: '', property: `${C}.content.description`, violation: 'must not be blank' },
  { name: 'card description over 2000', body: cardBody, at: `${CONTENT}.content.description`, value: long(2001), property: `${C}.content.description`, violation: 'size must be between 0 and 2000' },
  { name: 'media height', body: cardBody, at: `${CONTENT}.content.media.height`, value: 'HUGE', property: `${C}.content.media.height`, violation: 'must be one of [SHORT, MEDIUM, TALL]' },
  { name: 'media without height', body: cardBody, at: `${CONTENT}.content.media.height`, value: undefined, property: `${C}.content.media.height`, violation: 'must not be null' },
  { name: 'media without file', body: cardBody, at: `${CONTENT}.content.media.file`, value: undefined, property: `${C}.content.media.file`, violation: 'must not be null' },
  { name: 'media file url over 2048', body: cardBody, at: `${CONTENT}.content.media.file.url`, value: `https://e.com/${long(2035)}`, property: `${C}.content.media.file.url`, violation: 'size must be between 0 and 2048' },
  { name: '5 suggestions on a card', body: cardBody, at: `${CONTENT}.content.suggestions`, value: replies(5), property: `${C}.content.suggestions`, violation: 'must contain at most 4 items' },
  { name: 'carousel cardWidth', body: carouselBody, at: `${CONTENT}.cardWidth`, value: 'LARGE', property: `${C}.cardWidth`, violation: 'must be one of [SMALL, MEDIUM]' },
  { name: 'carousel of one card', body: carouselBody, at: `${CONTENT}.contents`, value: [card()], property: `${C}.contents`, violation: 'must contain at least 2 items' },
  { name: 'carousel of 11 cards', body: carouselBody, at: `${CONTENT}.contents`, value: Array.from({ length: 11 }, () => card()), property: `${C}.contents`, violation: 'must contain at most 10 items' },
  { name: '5 suggestions on a carousel card', body: carouselBody, at: `${CONTENT}.contents.1.suggestions`, value: replies(5), property: `${C}.contents[1].suggestions`, violation: 'must contain at most 4 items' },
  { name: 'carousel card suggestion text', body: carouselBody, at: `${CONTENT}.contents.1.suggestions`, value: [...replies(3), reply(long(26))], property: `${C}.contents[1].suggestions[3].text`, violation: 'size must be between 0 and 25' },
  { name: 'carousel card title over 200', body: carouselBody, at: `${CONTENT}.contents.0.title`, value: long(201), property: `${C}.contents[0].title`, violation: 'size must be between 0 and 200' },
  { name: 'template parameter without value', body: templateBody, at: `${CONTENT}.parameters`, value: [{ name: 'name' }], property: `${C}.parameters[0].value`, violation: 'must not be null' },
  { name: 'template parameter without name', body: templateBody, at: `${CONTENT}.parameters`, value: [{ value: 'Ana' }], property: `${C}.parameters[0].name`, violation: 'must not be null' },
  { name: 'templateId not a string', body: templateBody, at: `${CONTENT}.templateId`, value: 7, property: `${C}.templateId`, violation: 'must be string' },
];

describe('POST /rcs/2/messages: request schema', () => {
  let rcs: RcsApp;
  before(async () => {
    rcs = await startRcsApp();
  });
  after(() => rcs.close());

  for (const [type, content] of Object.entries(CONTENTS)) {
    it(`accepts a valid ${type} message, its content kept as given`, async () => {
      const answer = await rcs.send(bodyWith(content()));
      assertAccepted(answer);
      assert.deepEqual(answer.body.messages[0].content, content());
    });
  }

  it('accepts the most a message may hold: 11 suggestions, 10 cards of 4 suggestions each', async () => {
    const cards = Array.from({ length: 10 }, (_, i) => ({ ...card(`Card ${i}`), suggestions: replies(4) }));
    const carousel = { type: 'CAROUSEL', cardWidth: 'MEDIUM', contents: cards, suggestions: replies(11) };
    const answer = await rcs.send(bodyWith(carousel));
    assertAccepted(answer);
    assert.equal(answer.body.messages[0].content.contents.length, 10);
  });

  it('accepts a card message with 11 suggestions of its own and the bounds exactly reached', async () => {
    let body = withField(cardBody(), S, replies(11));
    body = withField(body, `${S}.0.text`, long(25));
    body = withField(body, `${S}.0.postbackData`, long(2024));
    body = withField(body, `${CONTENT}.content.title`, long(200));
    body = withField(body, `${CONTENT}.content.description`, long(2000));
    assertAccepted(await rcs.send(body));
  });

  it('ignores unknown properties, at every level', async () => {
    let body = withField(textBody(), 'extra', true);
    body = withField(body, 'messages.0.unknown', { nested: 1 });
    body = withField(body, `${S}.0.colour`, 'red');
    body = withField(body, `${CONTENT}.font`, 'bold');
    assertAccepted(await rcs.send(body));
  });

  for (const c of [...REQUEST_CASES, ...CONTENT_CASES]) {
    it(`${c.name} → 400 naming ${c.property}`, async () => {
      const answer = await rcs.send(withField(c.body(), c.at, c.value));
      assertViolations(answer, [{ property: c.property, violation: c.violation }]);
    });
  }

  it('reports every schema violation of a request at once', async () => {
    let body = withField(textBody(), `${S}.2.text`, long(26));
    body = withField(body, `${S}.3.latitude`, 91);
    body = withField(body, 'messages.0.webhooks.callbackData', long(4001));
    assertViolations(await rcs.send(body), [
      { property: `${SP}[2].text`, violation: 'size must be between 0 and 25' },
      { property: `${SP}[3].latitude`, violation: 'must be less than or equal to 90' },
      { property: 'messages[0].webhooks.callbackData', violation: 'size must be between 0 and 4000' },
    ]);
  });
});
