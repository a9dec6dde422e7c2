import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type Changes, live } from './live';

/** Calls `listener` for each change event while the component is shown. */
export function useChanges(listener: (changes: Changes) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => live.onChange((changes) => latest.current(changes)), []);
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Data loaded by `load`, again whenever `deps` change or `reload` is called; the last answer wins. */
export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(abort.signal).then(
      (data) => !abort.signal.aborted && setState({ data, error: undefined, loading: false }),
      (error: unknown) => !abort.signal.aborted && setState((s) => ({ ...s, error: error instanceof Error ? error.message : String(error), loading: false })),
    );
    return () => abort.abort();
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}

/** Reloads at most once per `ms` however many times it is asked, so a burst of changes costs one request. */
export function useThrottled(action: () => void, ms = 300): () => void {
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  }, [ms]);
}
