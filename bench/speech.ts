/**
 * Speech synthesis as a call server sees it (part of `npm run bench:voice`). Prints the time to the first
 * audio of a new synthesizer (worker start and engine load included), seconds of audio per CPU
 * second of the engine for sentences spoken the first time and again (a new sentence each time,
 * once the engine has warmed up), what 1 000 concurrent calls saying the same sentence cost, and
 * the process's memory before and after.
 */
import { performance } from 'node:perf_hooks';
import { SpeechSynthesizer } from '../src/voice/media/speech/speech-synthesizer.js';

const SENTENCES = [
  'Welcome to Switchboard. Please hold while we connect your call.',
  'Your verification code is 4 7 1 9 3 2. I repeat, 4 7 1 9 3 2.',
  'Press 1 for sales, press 2 for support, or stay on the line for an operator.',
  'Thank you for calling. All our agents are busy; your call is important to us.',
  'The parcel with tracking number 58 21 90 will be delivered tomorrow between 9 and 11.',
];

const rssMb = (): number => Math.round(process.memoryUsage().rss / 1e6);
const processCpuMs = (since: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

type Print = (line: string) => void;

function rate(print: Print, label: string, before: ReturnType<SpeechSynthesizer['stats']>, after: ReturnType<SpeechSynthesizer['stats']>): void {
  const audioS = (after.audioMs - before.audioMs) / 1000;
  const cpuS = (after.cpuMs - before.cpuMs) / 1000;
  print(`${label}: ${audioS.toFixed(1)} s of audio in ${(cpuS * 1000).toFixed(0)} ms of engine CPU = ${(audioS / cpuS).toFixed(0)} s of audio per CPU second`);
}

/** Prints the speech engine's figures: first audio, cold, warm and cached speed, memory. */
export async function measureSpeech(print: Print): Promise<void> {
  const rssAtStart = rssMb();
  const synthesizer = new SpeechSynthesizer();
  let started = performance.now();
  await synthesizer.synthesize({ text: 'Hello.', language: 'en', speechRate: 1 });
  print(`first audio of a new synthesizer: ${(performance.now() - started).toFixed(0)} ms (worker start, engine load, first synthesis)`);
  const rssLoaded = rssMb();

  let before = synthesizer.stats();
  for (const text of SENTENCES) await synthesizer.synthesize({ text, language: 'en', speechRate: 1 });
  rate(print, 'cold (first sentences of a new engine)', before, synthesizer.stats());

  before = synthesizer.stats();
  for (let round = 0; round < 20; round++) {
    for (const text of SENTENCES) await synthesizer.synthesize({ text: `${text} (${round})`, language: 'en', speechRate: 1 });
  }
  rate(print, 'warm (100 new sentences)', before, synthesizer.stats());

  before = synthesizer.stats();
  const cpu = process.cpuUsage();
  started = performance.now();
  await Promise.all(Array.from({ length: 1000 }, () => synthesizer.synthesize({ text: 'Everyone on this call hears the same sentence.', language: 'en', speechRate: 1 })));
  const after = synthesizer.stats();
  print(
    `1 000 concurrent identical requests: ${after.synthesized - before.synthesized} synthesis, ${after.cacheHits - before.cacheHits} cache hits, ` +
      `${(performance.now() - started).toFixed(0)} ms, ${processCpuMs(cpu).toFixed(0)} ms of CPU in all (the synthesis included)`,
  );

  const cachedCpu = process.cpuUsage();
  let cachedAudioMs = 0;
  for (let i = 0; i < 10_000; i++) {
    const audio = await synthesizer.synthesize({ text: SENTENCES[i % SENTENCES.length]!, language: 'en', speechRate: 1 });
    cachedAudioMs += (audio.samples.length * 1000) / audio.sampleRate;
  }
  const cachedCpuMs = processCpuMs(cachedCpu);
  print(`cached: ${(cachedCpuMs / 10).toFixed(1)} µs of CPU per request = ${Math.round(cachedAudioMs / cachedCpuMs).toLocaleString('en-US')} s of audio per CPU second`);

  print(`RSS: ${rssAtStart} MB before, ${rssLoaded} MB once the engine spoke, ${rssMb()} MB with ${Math.round(synthesizer.stats().audioMs / 1000)} s of speech cached`);
  await synthesizer.close();
}
