import { performance } from 'node:perf_hooks';
import { serveRequests } from '../worker/serve-requests.js';
import { EspeakEngine } from './espeak-engine.js';
import type { SpeechWorkReply, SpeechWorkRequest } from './speech-protocol.js';

/** Entry of the speech worker thread: one engine, one synthesis at a time, in the order asked. */
const engine = EspeakEngine.load();
// A failed load is answered to each request; without this it would end the thread before the first one.
engine.catch(() => {});

/**
 * This thread's CPU time. Node 20 cannot measure one thread (process.cpuUsage counts all of them);
 * there the busy time of the synchronous synthesis stands in, which on an idle core is the same.
 */
const threadCpu = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
const cpuNowMs = threadCpu
  ? (): number => {
      const { user, system } = threadCpu();
      return (user + system) / 1000;
    }
  : (): number => performance.now();

serveRequests<SpeechWorkRequest, SpeechWorkReply>(async ({ job, maxSeconds }) => {
  try {
    const loaded = await engine;
    const started = cpuNowMs();
    const result = loaded.synthesize(job.voice, job.wordsPerMinute, job.text, maxSeconds * loaded.sampleRate);
    const cpuMs = cpuNowMs() - started;
    if ('refused' in result) return { reply: { error: result.refused, refused: true } };
    return { reply: { samples: result.samples, sampleRate: loaded.sampleRate, cpuMs }, transfer: [result.samples.buffer as ArrayBuffer] };
  } catch (error) {
    return { reply: { error: error instanceof Error ? error.message : String(error), refused: false } };
  }
});
