/** The part of the eSpeak NG WebAssembly build that the speech engine uses. */
declare module '@echogarden/espeak-ng-emscripten' {
  export interface ESpeakNGWorker {
    /** The worker's address in the module's memory. */
    readonly ptr: number;
    readonly samplerate: number;
    /** 0 when the voice was found and loaded. */
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): void;
  }

  export interface ESpeakNGModule {
    readonly HEAPU8: Uint8Array;
    readonly HEAP16: Int16Array;
    eSpeakNGWorker: new () => ESpeakNGWorker;
    _malloc(bytes: number): number;
    addFunction(fn: (...args: number[]) => number, signature: string): number;
    /** Synthesizes a NUL-terminated UTF-8 text with the current voice, calling back with each block of samples. */
    _emscripten_bind_eSpeakNGWorker_synth__2(worker: number, text: number, callback: number): void;
  }

  const createModule: (options?: object) => Promise<ESpeakNGModule>;
  export default createModule;
}
