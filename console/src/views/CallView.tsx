import { useEffect, useState } from 'preact/hooks';
import { api, request } from '../api';
import { Fields, Problem, Time } from '../components/bits';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href } from '../router';
import type { Call, TimelineEntry } from '../types';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];
const ENDED = new Set(['FINISHED', 'FAILED', 'BUSY', 'NO_ANSWER', 'CANCELLED']);

/** One call: its state, its timeline, its recording, and the phone's keypad and hang-up button. */
export function CallView({ callId }: { callId: string }) {
  const id = encodeURIComponent(callId);
  const loaded = useLoaded(async (signal) => {
    const [call, timeline] = await Promise.all([
      api<Call>(`/calls/1/calls/${id}`, { signal }).catch(() => api<Call>(`/calls/1/calls/${id}/history`, { signal })),
      api<{ entries: TimelineEntry[] }>(`/sandbox/1/calls/${id}/timeline`, { signal }),
    ]);
    return { call, timeline: timeline.entries };
  }, [callId]);
  const reload = useThrottled(loaded.reload, 250);
  useChanges((changes) => {
    if (changes.callsOverflow || changes.calls?.includes(callId)) reload();
  });
  const [problem, setProblem] = useState<string>();

  const act = async (path: string, body: unknown): Promise<void> => {
    setProblem(undefined);
    try {
      await api(path, { body });
      reload();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const call = loaded.data?.call;
  const ended = call ? ENDED.has(call.state) : false;
  return (
    <section class="view detail" aria-labelledby="call-title">
      <a class="back" href={href('calls')}>
        ← Calls
      </a>
      <Problem text={loaded.error ?? problem} />
      {call && (
        <>
          <div class="view-head">
            <h1 id="call-title">
              {call.direction === 'INBOUND' ? 'Inbound' : 'Outbound'} call {call.from} → {call.to}
            </h1>
            <span class={`pill pill-call-${call.state.toLowerCase()}`} data-testid="call-state">
              {call.state}
            </span>
          </div>
          <Fields
            rows={[
              ['Call id', <code>{call.id}</code>],
              ['Configuration', call.callsConfigurationId],
              ['Started', <Time value={call.startTime} full />],
              ['Answered', call.answerTime && <Time value={call.answerTime} full />],
              ['Ended', call.endTime && <Time value={call.endTime} full />],
              ['Hang-up', call.errorCode ? `${call.errorCode.name}${call.hangupSource ? ` by ${call.hangupSource}` : ''}` : undefined],
            ]}
          />
          {!ended && (
            <div class="phone-controls" role="group" aria-label="The phone's keypad">
              <div class="keypad">
                {KEYS.map((key) => (
                  <button key={key} type="button" aria-label={`Press ${key}`} onClick={() => act(`/sandbox/1/calls/${id}/dtmf`, { digits: key })}>
                    {key}
                  </button>
                ))}
              </div>
              <button type="button" class="danger" onClick={() => act(`/sandbox/1/calls/${id}/hangup`, {})}>
                Hang up as the phone
              </button>
            </div>
          )}
          <h2>Recording</h2>
          <Recording callId={callId} version={loaded.data?.timeline.length ?? 0} />
          <h2>Timeline</h2>
          <ol class="life">
            {loaded.data?.timeline.map((entry, index) => (
              <li key={index}>
                <Time value={entry.at} full />
                <span class="life-event">{entry.type.toLowerCase()}</span>
                <span class="life-detail">{describe(entry)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function describe(entry: TimelineEntry): string {
  const skip = new Set(['at', 'type', 'audioRef', 'actionId']);
  if (typeof entry.text === 'string') return `“${entry.text}”${entry.language ? ` (${String(entry.language)})` : ''}`;
  if (typeof entry.state === 'string') return entry.state;
  return Object.entries(entry)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

/** The call's audio as the far end heard it, fetched with the key (an <audio> element cannot send it). */
function Recording({ callId, version }: { callId: string; version: number }) {
  const [url, setUrl] = useState<string>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => () => url && URL.revokeObjectURL(url), [url]);
  const load = async (): Promise<void> => {
    setProblem(undefined);
    try {
      const response = await request(`/sandbox/1/calls/${encodeURIComponent(callId)}/audio`);
      setUrl(URL.createObjectURL(await response.blob()));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div class="recording">
      {url && <audio controls src={url} data-testid="call-audio" />}
      <button type="button" class="quiet" onClick={load}>
        {url ? 'Reload the recording' : 'Listen to the call'}
      </button>
      {version > 0 && url && <span class="muted"> (the recording grows as the call goes on)</span>}
      <Problem text={problem} />
    </div>
  );
}
