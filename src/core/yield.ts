/**
 * Lets timers and I/O run. Store calls that complete synchronously (SQLite) resolve their promises
 * as microtasks, so a loop of awaits over them would otherwise never give the event loop a turn:
 * HTTP responses, webhook POSTs and receipts would wait until the whole backlog was done.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
