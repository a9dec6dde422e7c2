/** Bytes that are not audio we can decode; the message is short enough for an API's errorDetails. */
export class AudioDecodeError extends Error {
  override name = 'AudioDecodeError';
}

/** The longest audio decoded: a small MP3 at a low bit rate can otherwise unpack to gigabytes of samples. */
export const MAX_DECODED_SECONDS = 60 * 60;
