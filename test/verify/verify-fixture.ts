import assert from 'node:assert/strict';
import { eventually, type TestResponse, type TestServer } from '../helpers/server.js';

/** Limits loose enough that a test meets only the limit it is about. */
export const LOOSE = {
  verifyPinLimit: '1000000/1s',
  sendPinPerPhoneNumberLimit: '1000000/1d',
  sendPinPerApplicationLimit: '1000000/1d',
};

export const TEXT = 'Your code is {{pin}}.';
const CODE = /code is ([0-9A-Z ]+)\./;

export async function createApplication(server: TestServer, configuration: Record<string, unknown> = LOOSE, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await server.request('POST', '/2fa/2/applications', { body: { name: 'Login', configuration, ...extra } });
  assert.equal(response.status, 200, response.text);
  return response.json().applicationId;
}

export async function createTemplate(server: TestServer, appId: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await server.request('POST', `/2fa/2/applications/${appId}/messages`, { body: { messageText: TEXT, pinType: 'NUMERIC', pinLength: 6, ...body } });
  assert.equal(response.status, 200, response.text);
  return response.json().messageId;
}

/** An application with loose limits (or the configuration given) and one template. */
export async function createFlow(server: TestServer, configuration: Record<string, unknown> = LOOSE, template: Record<string, unknown> = {}) {
  const applicationId = await createApplication(server, configuration);
  const messageId = await createTemplate(server, applicationId, template);
  return { applicationId, messageId };
}

export async function sendPin(server: TestServer, body: Record<string, unknown>, path = '/2fa/2/pin'): Promise<TestResponse> {
  return server.request('POST', path, { body });
}

/** What the virtual phone received, newest first. */
export async function phoneMessages(server: TestServer, number: string): Promise<Array<{ channel: string; text: string; messageId: string; from?: string }>> {
  return (await server.request('GET', `/sandbox/1/phones/${number}/messages`)).json().messages;
}

/** The PIN in the `count`-th message the phone received, read as a user would (spaces of a voice PIN removed). */
export async function readPin(server: TestServer, number: string, count = 1): Promise<string> {
  return eventually(async () => {
    const messages = await phoneMessages(server, number);
    if (messages.length < count) return undefined;
    const match = CODE.exec(messages[0]!.text);
    return match?.[1]?.replaceAll(' ', '');
  });
}

export async function verify(server: TestServer, pinId: string, pin: string): Promise<TestResponse> {
  return server.request('POST', `/2fa/2/pin/${pinId}/verify`, { body: { pin } });
}

/** A legacy error: its status, messageId and the fields its validation errors name. */
export function legacyError(response: TestResponse): { status: number; messageId: string; fields: string[] } {
  const exception = response.json().requestError.serviceException;
  return { status: response.status, messageId: exception.messageId, fields: Object.keys(exception.validationErrors ?? {}) };
}
