import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT, assertAccepted, assertRefused, SINCE, startCallsApp, type CallsApp } from './calls-app.js';

const T = Date.UTC(2025, 2, 4, 10, 15, 30);

describe('GET /calls/1/calls and /calls/1/calls/history', () => {
  let calls: CallsApp;
  before(async () => {
    calls = await startCallsApp();
  });
  after(() => calls.close());
  const list = (query: string, history = false) => calls.request('GET', `/calls/1/calls${history ? '/history' : ''}${query}`);

  it('reads no query as the first page of 20 live calls, or of finished calls for the history', async () => {
    const live = await list('');
    assertAccepted(live);
    assert.deepEqual(live.body, { filter: { accountId: ACCOUNT, live: true, since: SINCE, page: 0, size: 20 }, matchesNothing: false });
    const history = await list('', true);
    assertAccepted(history);
    assert.deepEqual(history.body.filter, { accountId: ACCOUNT, live: false, since: SINCE, page: 0, size: 20 });
  });

  it('reads every filter; `status` filters on the state and phone numbers lose their +', async () => {
    const query =
      '?type=PHONE&callsConfigurationId=conf-1&applicationId=app-1&from=%2B41790000001&to=41793026727' +
      '&direction=OUTBOUND&status=RINGING&startTimeAfter=2025-03-04T10%3A15%3A30.000%2B0000&page=2&size=50';
    const answer = await list(query, true);
    assertAccepted(answer);
    assert.deepEqual(answer.body, {
      filter: {
        accountId: ACCOUNT,
        live: false,
        since: SINCE,
        page: 2,
        size: 50,
        type: 'PHONE',
        configurationId: 'conf-1',
        applicationId: 'app-1',
        from: '41790000001',
        to: '41793026727',
        direction: 'OUTBOUND',
        state: 'RINGING',
        startTimeAfter: T,
      },
      matchesNothing: false,
    });
  });

  it('keeps addresses that are not phone numbers as given', async () => {
    const answer = await list('?to=%2Balice&from=sip%3Abob%40example.com');
    assertAccepted(answer);
    assert.equal(answer.body.filter.to, '+alice');
    assert.equal(answer.body.filter.from, 'sip:bob@example.com');
  });

  it('reads startTimeAfter in every accepted form, a plus lost to URL decoding included', async () => {
    for (const value of ['2025-03-04T10:15:30.000+0000', '2025-03-04T10:15:30Z', '2025-03-04T11:15:30.000+01:00', '2025-03-04T10:15:30', '2025-03-04T10:15:30.000 0000']) {
      const answer = await list(`?startTimeAfter=${encodeURIComponent(value)}`);
      assertAccepted(answer);
      assert.equal(answer.body.filter.startTimeAfter, T, value);
    }
  });

  it('refuses a startTimeAfter that is not a timestamp', async () => {
    for (const value of ['yesterday', '2025-13-01T00:00:00', '1741083330000']) {
      assertRefused(await list(`?startTimeAfter=${value}`), 'startTimeAfter', /date-time/);
    }
  });

  it('matches nothing when filtering on a conference, dialog or bulk, which Switchboard does not have', async () => {
    for (const name of ['conferenceId', 'dialogId', 'bulkId']) {
      const answer = await list(`?${name}=x-1`);
      assertAccepted(answer);
      assert.equal(answer.body.matchesNothing, true, name);
    }
    const blank = await list('?conferenceId=&dialogId=%20');
    assertAccepted(blank);
    assert.equal(blank.body.matchesNothing, false);
  });

  it('treats blank text filters as absent', async () => {
    const answer = await list('?from=&to=%20&callsConfigurationId=&applicationId=');
    assertAccepted(answer);
    assert.deepEqual(answer.body.filter, { accountId: ACCOUNT, live: true, since: SINCE, page: 0, size: 20 });
  });

  const refused: Array<[string, string, (string | RegExp)?]> = [
    ['?type=FAX', 'type', /^must be one of \[PHONE/],
    ['?status=DONE', 'status', /^must be one of \[CALLING, RINGING/],
    ['?status=ringing', 'status'],
    ['?direction=SIDEWAYS', 'direction', 'must be one of [INBOUND, OUTBOUND]'],
    ['?page=-1', 'page', 'must be greater than or equal to 0'],
    ['?page=2147483648', 'page', 'must be less than or equal to 2147483647'],
    ['?page=first', 'page', 'must be integer'],
    ['?size=0', 'size', 'must be greater than or equal to 1'],
    ['?size=101', 'size', 'must be less than or equal to 100'],
    ['?size=1.5', 'size', 'must be integer'],
    ['?from=a&from=b', 'from', 'must be string'],
    [`?callsConfigurationId=${'c'.repeat(129)}`, 'callsConfigurationId', 'size must be between 0 and 128'],
    [`?to=${'1'.repeat(256)}`, 'to'],
    [`?conferenceId=${'c'.repeat(129)}`, 'conferenceId'],
  ];
  for (const [query, property, violation] of refused) {
    it(`refuses ${query.slice(0, 40)}, naming ${property}`, async () => {
      assertRefused(await list(query), property, violation);
      assertRefused(await list(query, true), property, violation);
    });
  }

  it('accepts the edges of page and size', async () => {
    const answer = await list('?page=2147483647&size=100');
    assertAccepted(answer);
    assert.deepEqual([answer.body.filter.page, answer.body.filter.size], [2147483647, 100]);
    const smallest = await list('?size=1');
    assertAccepted(smallest);
    assert.equal(smallest.body.filter.size, 1);
  });
});
