import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The WAL checkpointer's thread: its own connection to the database file, copying committed WAL
 * frames into the database every `intervalMs` with PASSIVE checkpoints, which never wait for
 * readers or writers, and rewinding the WAL once it holds `restartFrames`. While the WAL does not
 * change it looks half as often each time, down to once every IDLE_FACTOR intervals, so an idle
 * store costs next to no wake-ups; the first change seen brings it back to every interval. It
 * answers 'stop' with a last checkpoint and closes.
 */
if (!parentPort) throw new Error('checkpoint-worker must run in a worker thread');
const port = parentPort;
const { path, intervalMs, restartFrames } = workerData as { path: string; intervalMs: number; restartFrames: number };

const db = new Database(path, { timeout: 5000 });
// A checkpoint syncs the WAL before copying and the database file after, unless synchronous=OFF;
// acceptance's durability relies on that for frames copied out before its own WAL sync.
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
// How long a RESTART may hold writers off while it waits for the write lock and for readers.
db.pragma('busy_timeout = 100');

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** The last failure reported: a lasting one (a full disk) is reported once, not four times a second. */
let lastError: string | undefined;

/** The slowest pace of an unchanged WAL, in intervals (4 s at the server's 250 ms). */
const IDLE_FACTOR = 16;
let wait = intervalMs;
let last: CheckpointResult | undefined;

const checkpoint = (): void => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
    const unchanged = passive !== undefined && last !== undefined && passive.log === last.log && passive.checkpointed === last.checkpointed;
    wait = unchanged ? Math.min(wait * 2, intervalMs * IDLE_FACTOR) : intervalMs;
    last = passive;
    // A WAL is only rewound by a writer that finds it wholly copied and no reader in it, which a
    // steady load of overlapping reads seldom leaves: with passive checkpoints alone the WAL grew to
    // 466 MB in the 50 000-message benchmark, with this to 42 MB. RESTART copies what the passive
    // pass left (little) and waits for readers, so the next commit starts the WAL over.
    if (passive && passive.log >= restartFrames) db.pragma('wal_checkpoint(RESTART)');
    lastError = undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message !== lastError) port.postMessage({ type: 'error', message });
    lastError = message;
  }
};

let timer: NodeJS.Timeout;
const next = (): void => {
  timer = setTimeout(() => {
    checkpoint();
    next();
  }, wait);
};
next();
port.on('message', (message: { type: 'stop' }) => {
  if (message.type !== 'stop') return;
  clearTimeout(timer);
  checkpoint();
  db.close();
  port.close();
});
