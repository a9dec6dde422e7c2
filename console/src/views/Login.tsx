import { useState } from 'preact/hooks';
import { keyWorks } from '../api';
import { storeKey } from '../key';

/** Asks for an API key once; the tab keeps it until it is closed or the key stops working. */
export function Login({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string>();
  const [checking, setChecking] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const trimmed = key.trim().replace(/^App\s+/i, '');
    if (!trimmed) return;
    setChecking(true);
    setProblem(undefined);
    try {
      if (await keyWorks(trimmed)) {
        storeKey(trimmed);
        onSignedIn();
      } else {
        setProblem('This key is not accepted. Check it, or create one with `switchboard keys create`.');
      }
    } catch (error) {
      setProblem(`The server cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setChecking(false);
    }
  };

  return (
    <main class="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Switchboard console</h1>
        <p>
          Enter an API key. The console sees what that key's account sees, and this tab keeps the key until you close it. The server prints a key the first time
          it starts.
        </p>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required autoFocus />
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Open the console'}
        </button>
      </form>
    </main>
  );
}
