/**
 * How many accepted messages may wait in the dispatcher's memory at once, shared between the HTTP
 * thread (which reserves slots before storing messages already claimed) and the engine thread
 * (which frees them as it takes the messages). A SharedArrayBuffer, so the engine can sit in a
 * worker thread and neither side waits for the other to ask.
 *
 * The bound keeps a slow carrier from piling up messages in memory and keeps each handed-over
 * message well inside its lease; when no slot is free, acceptance stores messages `queued` and the
 * dispatcher claims them from the store as before.
 */
export class HandoffSlots {
  private readonly used: Int32Array;

  constructor(
    readonly limit: number,
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT),
  ) {
    this.used = new Int32Array(buffer);
  }

  /** Takes up to `wanted` slots; returns how many it got (0 when none is free). */
  reserve(wanted: number): number {
    for (;;) {
      const current = Atomics.load(this.used, 0);
      const granted = Math.min(wanted, this.limit - current);
      if (granted <= 0) return 0;
      if (Atomics.compareExchange(this.used, 0, current, current + granted) === current) return granted;
    }
  }

  release(count: number): void {
    if (count > 0) Atomics.sub(this.used, 0, count);
  }

  get inUse(): number {
    return Atomics.load(this.used, 0);
  }
}
