import type { CallRecord, NewCallTimer, TimelineEntry } from '../../core/store/types.js';

/** A call event as the machine decides it; `properties` are filled from the call for call-state events. */
export interface MachineEvent {
  type: string;
  properties?: Record<string, unknown>;
}

/** What the far end heard: speech, as text, for the sandbox phone's list. */
export interface Heard {
  text: string;
  actionId: number;
  language: string;
}

/** Everything one step of a call decides, before it is rendered for the store and the outbox. */
export class StepOutput {
  readonly events: MachineEvent[] = [];
  readonly addTimers: NewCallTimer[] = [];
  readonly removeTimerIds: number[] = [];
  readonly removeTimerKinds: string[] = [];
  removeAllTimers = false;
  readonly timeline: TimelineEntry[] = [];
  readonly heard: Heard[] = [];

  constructor(
    public call: CallRecord,
    readonly now: number,
  ) {}

  emit(type: string, properties?: Record<string, unknown>): void {
    this.events.push(properties === undefined ? { type } : { type, properties });
  }

  timer(kind: string, afterMs: number, data?: Record<string, unknown>): void {
    this.addTimers.push(data === undefined ? { kind, dueAt: this.now + Math.max(0, Math.round(afterMs)) } : { kind, dueAt: this.now + Math.max(0, Math.round(afterMs)), data });
  }

  cancel(kind: string): void {
    this.removeTimerKinds.push(kind);
    // A timer added earlier in this same step is not in the store yet.
    for (let i = this.addTimers.length - 1; i >= 0; i--) if (this.addTimers[i]!.kind === kind) this.addTimers.splice(i, 1);
  }

  note(type: string, data: Record<string, unknown>): void {
    this.timeline.push({ at: this.now, type, data });
  }

  update(changes: Partial<CallRecord>): void {
    this.call = { ...this.call, ...changes, updatedAt: this.now };
  }
}
