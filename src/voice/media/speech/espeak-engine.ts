import createModule, { type ESpeakNGModule, type ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';

/** Room for the engine text of the longest request (its text after escaping can grow fivefold). */
const TEXT_BUFFER_BYTES = 128 * 1024;

/** What one synthesis produced, or why it stopped. */
export type EngineResult = { samples: Int16Array } | { refused: string };

/**
 * eSpeak seeds the noise of breathy voices (the female variants) with the time when it starts. The
 * engine starts on a clock stopped at zero, so that every process has the same seed and a
 * recording rendered after a restart sounds as it did. Only the engine's thread sees this clock,
 * and only while it starts.
 */
function withFixedClock<T>(start: () => T): T {
  const now = Date.now;
  Date.now = () => 0;
  try {
    return start();
  } finally {
    Date.now = now;
  }
}

interface SampleCollector {
  chunks: Int16Array[];
  total: number;
  limit: number;
}

/**
 * eSpeak NG compiled to WebAssembly, driven synchronously: the caller is the speech worker thread.
 *
 * eSpeak carries state from one utterance to the next (the pitch flutter's phase, the gain control,
 * the breath noise generator), so the same request would not sound the same twice. Every synthesis
 * therefore starts from a copy of the module's memory taken once the engine was loaded: the same
 * request gives the same samples whatever was spoken before, which lets a call's recording be
 * rendered again later. The copy is the whole memory (17 MB; restoring it costs about a millisecond)
 * because the allocator's state lives in it too: restoring only eSpeak's variables would leave the
 * heap inconsistent.
 */
export class EspeakEngine {
  private constructor(
    private readonly module: ESpeakNGModule,
    private readonly worker: ESpeakNGWorker,
    private readonly textAddress: number,
    private readonly callback: number,
    private readonly collector: SampleCollector,
    private readonly loadedMemory: Uint8Array,
  ) {}

  static async load(): Promise<EspeakEngine> {
    const module = await createModule();
    const worker = withFixedClock(() => new module.eSpeakNGWorker());
    // Allocated before the memory is copied, so that both stay valid after every restore.
    const textAddress = module._malloc(TEXT_BUFFER_BYTES);
    const collector: SampleCollector = { chunks: [], total: 0, limit: 0 };
    const callback = module.addFunction((address: number, count: number): number => {
      if (count > 0) {
        const start = address >> 1;
        collector.chunks.push(module.HEAP16.slice(start, start + count));
        collector.total += count;
      }
      return collector.total > collector.limit ? 1 : 0;
    }, 'iiii');
    // The binding keeps a buffer for string arguments, allocated on first use: allocate it now too.
    if (worker.set_voice('gmw/en-US') !== 0) throw new Error('the speech engine has no default voice');
    return new EspeakEngine(module, worker, textAddress, callback, collector, module.HEAPU8.slice());
  }

  get sampleRate(): number {
    return this.worker.samplerate;
  }

  /** Speaks `text` (SSML, see engineText) with an eSpeak voice name, refusing output past `maxSamples`. */
  synthesize(voice: string, wordsPerMinute: number, text: string, maxSamples: number): EngineResult {
    this.module.HEAPU8.set(this.loadedMemory);
    if (this.worker.set_voice(voice) !== 0) throw new Error(`the speech engine has no voice ${voice}`);
    this.worker.set_rate(wordsPerMinute);

    const buffer = this.module.HEAPU8.subarray(this.textAddress, this.textAddress + TEXT_BUFFER_BYTES - 1);
    const { read, written } = new TextEncoder().encodeInto(text, buffer);
    if (read < text.length) return { refused: 'text is too long' };
    this.module.HEAPU8[this.textAddress + written] = 0;

    const collector = this.collector;
    collector.chunks = [];
    collector.total = 0;
    collector.limit = maxSamples;
    this.module._emscripten_bind_eSpeakNGWorker_synth__2(this.worker.ptr, this.textAddress, this.callback);
    const chunks = collector.chunks;
    collector.chunks = [];
    if (collector.total > maxSamples) return { refused: `speech is longer than ${Math.round(maxSamples / this.sampleRate)} s` };

    const samples = new Int16Array(collector.total);
    let offset = 0;
    for (const chunk of chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    return { samples };
  }
}
