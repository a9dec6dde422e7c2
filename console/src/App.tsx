import { useEffect, useState } from 'preact/hooks';
import { onSignedOut } from './api';
import { forgetKey, storedKey } from './key';
import { live, type LiveState } from './live';
import { href, useRoute } from './router';
import { Login } from './views/Login';
import { Messages } from './views/Messages';
import { MessageView } from './views/MessageView';
import { Phones } from './views/Phones';
import { PhoneView } from './views/PhoneView';
import { Calls } from './views/Calls';
import { CallView } from './views/CallView';
import { Verifications } from './views/Verifications';
import { Webhooks } from './views/Webhooks';
import { WebhookItemView } from './views/WebhookItemView';
import { Rules } from './views/Rules';

const SECTIONS = [
  ['messages', 'Messages'],
  ['phones', 'Phones'],
  ['calls', 'Calls'],
  ['verifications', 'Verifications'],
  ['webhooks', 'Webhooks'],
  ['rules', 'Sandbox rules'],
] as const;

const LIVE_LABEL: Record<LiveState, string> = { live: 'Live', connecting: 'Connecting…', offline: 'Offline, retrying' };

function useLiveState(): LiveState {
  const [state, setState] = useState<LiveState>(live.state);
  useEffect(() => live.onState(setState), []);
  return state;
}

export function App() {
  const [signedIn, setSignedIn] = useState(storedKey() !== null);
  const route = useRoute();
  const liveState = useLiveState();

  useEffect(() => onSignedOut(() => setSignedIn(false)), []);
  useEffect(() => {
    if (!signedIn) return;
    live.start();
    return () => live.stop();
  }, [signedIn]);

  if (!signedIn) return <Login onSignedIn={() => setSignedIn(true)} />;

  const [section = 'messages', id] = route;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Switchboard</span>
        <nav aria-label="Sections">
          {SECTIONS.map(([key, label]) => (
            <a key={key} href={href(key)} aria-current={section === key ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class={`live live-${liveState}`} role="status" aria-live="polite">
          {LIVE_LABEL[liveState]}
        </span>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            forgetKey();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Section section={section} id={id} />
      </main>
    </div>
  );
}

function Section({ section, id }: { section: string; id: string | undefined }) {
  switch (section) {
    case 'messages':
      return id ? <MessageView messageId={id} /> : <Messages />;
    case 'phones':
      return id ? <PhoneView number={id} /> : <Phones />;
    case 'calls':
      return id ? <CallView callId={id} /> : <Calls />;
    case 'verifications':
      return <Verifications applicationId={id} />;
    case 'webhooks':
      return id ? <WebhookItemView itemId={id} /> : <Webhooks />;
    case 'rules':
      return <Rules />;
    default:
      return <Messages />;
  }
}
