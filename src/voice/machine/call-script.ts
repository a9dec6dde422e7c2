import type { CallScript } from '../../core/store/types.js';
import { enqueue } from './media-queue.js';
import type { StepOutput } from './step-output.js';

export const SCRIPT_END = 'script-end';
/** How long a scripted call stays after its last words, for the repeat key (in audio time). */
export const SCRIPT_LINGER_MS = 4_000;

function sayScript(o: StepOutput, script: CallScript, loopCount: number): void {
  enqueue(o, { type: 'SAY', source: script.speech, loopCount });
  o.cancel(SCRIPT_END);
}

/** A scripted call was answered: it starts speaking. */
export function scriptAnswered(o: StepOutput): void {
  const script = o.call.script;
  if (script) sayScript(o, script, script.plays);
}

/** Nothing plays or waits any more: a scripted call lingers for the repeat key, then hangs up. */
export function scriptQuiet(o: StepOutput, scale: number): void {
  if (o.call.script && o.call.media.queue.length === 0 && !o.call.media.capture) o.timer(SCRIPT_END, SCRIPT_LINGER_MS * scale);
}

/** A key at the far end: the repeat sequence says the text again. */
export function scriptKey(o: StepOutput, digit: string): void {
  const script = o.call.script;
  if (!script?.repeatDtmf) return;
  const keys = ((script.keys ?? '') + digit).slice(-script.repeatDtmf.length);
  if (keys === script.repeatDtmf) {
    o.update({ script: { ...script, keys: '' } });
    sayScript(o, o.call.script!, 1);
  } else {
    o.update({ script: { ...script, keys } });
  }
}
