import type { Violation } from '../../core/errors/api-problem.js';
import type { RecordingBody } from '../schemas/common.js';
import { readStringMap } from './field-checks.js';

/** The `recording` request of create-call and answer, with its documented fields only; channels MONO unless given. */
export function readRecording(body: RecordingBody, property: string, out: Violation[]): Record<string, unknown> | undefined {
  const recording: Record<string, unknown> = { recordingType: body.recordingType, channels: body.channels ?? 'MONO' };
  if (body.filePrefix !== undefined) recording.filePrefix = body.filePrefix;
  if (body.customData !== undefined) {
    const customData = readStringMap(body.customData, `${property}.customData`, out);
    if (customData === undefined) return undefined;
    recording.customData = customData;
  }
  return recording;
}
