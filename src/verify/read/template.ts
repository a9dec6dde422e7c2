import { badRequest, type Violation } from '../../core/errors/api-problem.js';
import type { PinType, TwoFactorTemplate } from '../../core/store/types.js';
import { DEFAULT_PIN_LENGTH, PIN_PLACEHOLDER, type TemplateBody } from '../schemas/templates.js';

export type TemplateInput = Omit<TwoFactorTemplate, 'accountId' | 'applicationId' | 'messageId' | 'createdAt' | 'updatedAt'>;

/**
 * A template as a create (every required field) or an update (the fields given, over the current
 * template) asks for it; the text must keep its `{{pin}}`.
 */
export function readTemplate(body: TemplateBody, current?: TemplateInput): TemplateInput {
  const out: Violation[] = [];
  const messageText = body.messageText ?? current?.messageText ?? '';
  if (!messageText.includes(PIN_PLACEHOLDER)) out.push({ property: 'messageText', violation: `must contain the PIN placeholder ${PIN_PLACEHOLDER}` });
  if (out.length > 0) throw badRequest(out);
  const template: TemplateInput = {
    messageText,
    pinType: (body.pinType ?? current?.pinType) as PinType,
    pinLength: body.pinLength ?? current?.pinLength ?? DEFAULT_PIN_LENGTH,
    language: body.language ?? current?.language ?? 'en',
    speechRate: body.speechRate ?? current?.speechRate ?? 1,
  };
  const senderId = body.senderId ?? current?.senderId;
  if (senderId !== undefined) template.senderId = senderId;
  const voiceName = body.voiceName ?? current?.voiceName;
  if (voiceName !== undefined) template.voiceName = voiceName;
  const repeatDTMF = body.repeatDTMF ?? current?.repeatDTMF;
  if (repeatDTMF !== undefined) template.repeatDTMF = repeatDTMF;
  const regional = body.regional ?? current?.regional;
  if (regional !== undefined) template.regional = regional;
  return template;
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * The template's text with its placeholders filled: `{{pin}}` with the PIN (as `pinText` gives it,
 * spaced out for a voice call), others from the request. A placeholder without a value stays as
 * written (Infobip does not say; a visible `{{name}}` shows the mistake rather than hiding it).
 */
export function fillTemplate(text: string, pinText: string, placeholders: Record<string, string> | undefined): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'pin') return pinText;
    return placeholders !== undefined && Object.hasOwn(placeholders, name) ? placeholders[name]! : whole;
  });
}
