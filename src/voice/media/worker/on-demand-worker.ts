import { Worker, type ResourceLimits } from 'node:worker_threads';

/** What goes to and comes back from a worker run by OnDemandWorker and serveRequests. */
export interface Envelope<Body> {
  id: number;
  body: Body;
}

interface Pending<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/**
 * A worker thread that answers requests, started by the first request. It holds the process open
 * only while requests are pending, so an idle one never keeps a process from exiting. If it dies,
 * its pending requests fail and the next request starts a new one.
 */
export class OnDemandWorker<Request, Reply> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending<Reply>>();

  constructor(
    private readonly script: URL,
    private readonly name: string,
    private readonly resourceLimits: ResourceLimits = {},
  ) {}

  request(body: Request, transfer: ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, body } satisfies Envelope<Request>, transfer);
    });
  }

  /** Terminates the thread; pending requests fail. The next request starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error(`the ${this.name} was stopped`));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.script, { resourceLimits: this.resourceLimits });
    worker.on('message', ({ id, body }: Envelope<Reply>) => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(body);
    });
    const died = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the ${this.name} exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of pending) reject(error);
  }
}
