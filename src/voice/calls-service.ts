import type { Clock } from '../core/clock.js';
import { notFound, violation } from '../core/errors/api-problem.js';
import { timeOrderedUuid } from '../core/ids.js';
import { normalizeNumber } from '../core/phone-number.js';
import type { CallRecord, CallScript, NewCall, Store } from '../core/store/types.js';
import type { CallRequest } from './read/create-call.js';
import type { CallSteps } from './call-steps.js';
import type { CallInput } from './machine/call-input.js';
import { dialStep, receiveStep, type MachineContext } from './machine/call-machine.js';

/** Infobip's default `maxDuration`: eight hours. */
export const DEFAULT_MAX_DURATION_MS = 28_800_000;
/** UNCONFIRMED: Infobip documents no default `connectTimeout`; its maximum, 60 s, is the default here. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

/** A call the platform makes on its own behalf (a voice PIN): it runs its script and sends no events. */
export interface ScriptedCallRequest {
  to: string;
  from: string;
  script: CallScript;
  /** The call's id when the caller must know it before the call exists; generated when absent. */
  callId?: string;
}

/** The calls configuration id scripted calls are kept under. */
export const SCRIPTED_CALLS_CONFIGURATION = 'verify';

/** A call from a virtual phone to one of the account's numbers (the sandbox API). */
export interface InboundCallRequest {
  from: string;
  to: string;
  configurationId?: string;
  connectTimeoutMs: number;
  maxDurationMs: number;
}

export interface CallsServiceDeps {
  store: Store;
  clock: Clock;
  steps: CallSteps;
  machine: MachineContext;
  nodeId: string;
}

/**
 * What the HTTP side does with calls: create outbound calls, receive inbound ones from the sandbox's
 * phones, and apply the application's actions and the far end's doings (as the sandbox lets a test
 * act for it). Every change is a step through CallSteps, stored before the answer.
 */
export class CallsService {
  constructor(private readonly deps: CallsServiceDeps) {}

  async createOutbound(accountId: string, request: CallRequest): Promise<CallRecord> {
    await this.configuration(accountId, request.configurationId);
    const call: NewCall = { ...this.base(accountId, request.configurationId, 'OUTBOUND'), ...request };
    return this.deps.steps.create(call, (record, now) => dialStep(record, now, this.deps.machine));
  }

  async createInbound(accountId: string, request: InboundCallRequest): Promise<CallRecord> {
    const configurationId = request.configurationId ?? (await this.onlyConfiguration(accountId));
    await this.configuration(accountId, configurationId);
    const from = normalizeNumber(request.from);
    const call: NewCall = {
      ...this.base(accountId, configurationId, 'INBOUND'),
      endpoint: { type: 'PHONE', phoneNumber: from },
      from,
      to: normalizeNumber(request.to),
      connectTimeoutMs: request.connectTimeoutMs,
      maxDurationMs: request.maxDurationMs,
    };
    return this.deps.steps.create(call, (record, now) => receiveStep(record, now));
  }

  async createScripted(accountId: string, request: ScriptedCallRequest): Promise<CallRecord> {
    const to = normalizeNumber(request.to);
    const call: NewCall = {
      ...this.base(accountId, SCRIPTED_CALLS_CONFIGURATION, 'OUTBOUND'),
      endpoint: { type: 'PHONE', phoneNumber: to },
      from: request.from,
      to,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      maxDurationMs: DEFAULT_MAX_DURATION_MS,
      script: request.script,
    };
    if (request.callId !== undefined) call.callId = request.callId;
    return this.deps.steps.create(call, (record, now) => dialStep(record, now, this.deps.machine));
  }

  /** Applies an input to the account's call; a call it does not have is a 404. */
  async act(accountId: string, callId: string, input: CallInput): Promise<CallRecord> {
    const call = await this.deps.steps.apply(accountId, callId, input);
    if (!call) throw notFound();
    return call;
  }

  async get(accountId: string, callId: string): Promise<CallRecord> {
    const call = await this.deps.store.calls.get(accountId, callId);
    if (!call) throw notFound();
    return call;
  }

  private base(accountId: string, configurationId: string, direction: NewCall['direction']): Omit<NewCall, 'endpoint' | 'from' | 'to' | 'connectTimeoutMs' | 'maxDurationMs'> {
    const now = this.deps.clock.now();
    return {
      accountId,
      callId: timeOrderedUuid(now),
      configurationId,
      direction,
      state: 'CALLING',
      startTime: now,
      network: this.deps.machine.telephony.name,
      nodeId: this.deps.nodeId,
      media: { nextId: 1, queue: [] },
      updatedAt: now,
    };
  }

  /** Infobip answers an unknown calls configuration with 404. */
  private async configuration(accountId: string, id: string): Promise<void> {
    if (!(await this.deps.store.callsConfigurations.get(accountId, id))) throw notFound('calls configuration not found');
  }

  private async onlyConfiguration(accountId: string): Promise<string> {
    const { results, total } = await this.deps.store.callsConfigurations.list(accountId, 0, 2);
    if (total !== 1) {
      throw violation('callsConfigurationId', total === 0 ? 'create a calls configuration first' : 'name one: the account has several calls configurations');
    }
    return results[0]!.id;
  }
}
