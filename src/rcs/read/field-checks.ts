import type { Violation } from '../../core/errors/api-problem.js';
import { parseInfobipTime } from '../../core/infobip-time.js';
import { validateWebhookUrl } from '../../core/webhook-url.js';

/**
 * Checks the RCS schemas cannot express. Each appends a violation naming the field (Infobip's
 * path form, `messages[0].content.file.url`) when it is wrong.
 */

/**
 * The fields a discriminated object's `type` requires: one violation per missing field, worded as
 * the schema's own `required`. Returns whether all are present.
 */
export function requireFields<T extends object>(value: T, fields: ReadonlyArray<keyof T & string>, path: string, out: Violation[]): boolean {
  let present = true;
  for (const field of fields) {
    if (value[field] !== undefined) continue;
    out.push({ property: `${path}.${field}`, violation: 'must not be null' });
    present = false;
  }
  return present;
}

/**
 * A URL in the content (file, thumbnail, OPEN_URL, MMS link): the webhook URL rules — absolute
 * http or https, no white space, no credentials (the content is echoed in logs and reports).
 */
// UNCONFIRMED: Infobip documents only "http or https"; refusing credentials and white space is ours, as for voice audio URLs.
export function checkContentUrl(url: string, property: string, out: Violation[]): void {
  const problem = validateWebhookUrl(url);
  if (problem !== undefined) out.push({ property, violation: problem });
}

/** A date-time in any of the forms Infobip accepts, as epoch ms. */
export function readTime(value: string, property: string, out: Violation[]): number | undefined {
  const at = parseInfobipTime(value);
  if (at === undefined) out.push({ property, violation: 'must be a date-time such as 2025-03-04T10:15:30.000+0000' });
  return at;
}

/**
 * File name extensions of the documented RCS file types that are never video. Only these refuse a
 * thumbnail: `.mp4`, `.mpeg`, `.3gp` and `.ogg` may hold audio or video, and a URL without an
 * extension (or with a query naming the file) says nothing, so those are given the benefit of the
 * doubt.
 */
// UNCONFIRMED: Infobip decides "video only" from the fetched file's MIME type; we fetch nothing at validation, so only the URL's extension can refuse.
const NEVER_VIDEO_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'pdf', 'mp3', 'aac', 'm4a']);

/** Whether the URL's path names a file type that cannot be a video. */
export function namesNonVideoFile(url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return false;
  }
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && NEVER_VIDEO_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

/** A thumbnail next to `fileUrl`: a valid URL, and only for what may be a video. */
export function checkThumbnail(thumbnailUrl: string, fileUrl: string, path: string, out: Violation[]): void {
  checkContentUrl(thumbnailUrl, `${path}.url`, out);
  if (namesNonVideoFile(fileUrl)) out.push({ property: path, violation: 'is allowed only for video files' });
}
