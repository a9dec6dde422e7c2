/**
 * Whether anyone watches the live feed: consoles connected to this node, or to another node of the
 * same database. It lives in shared memory, so the engine thread reads it as cheaply as the HTTP
 * thread: every publisher checks it first and does nothing when nobody listens.
 */
export class ListenerFlag {
  readonly buffer: SharedArrayBuffer;
  private readonly view: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.buffer = buffer;
    this.view = new Int32Array(buffer);
  }

  get active(): boolean {
    return this.view[0] !== 0;
  }

  set(active: boolean): void {
    Atomics.store(this.view, 0, active ? 1 : 0);
  }
}
