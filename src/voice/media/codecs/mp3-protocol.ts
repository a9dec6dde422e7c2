/** What MP3 decoding asks its worker thread. */
export type Mp3WorkRequest = { bytes: Uint8Array; maxSeconds: number };

export type Mp3WorkReply = { samples: Int16Array; sampleRate: number } | { error: string };
