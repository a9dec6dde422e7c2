import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { fullTime, shortTime } from '../format';
import type { Status } from '../types';

/** A status by its group: green delivered, amber pending, red undeliverable or rejected, grey expired. */
export function StatusPill({ status }: { status: Pick<Status, 'groupName' | 'name' | 'description'> }) {
  return (
    <span class={`pill pill-${status.groupName.toLowerCase()}`} title={`${status.name}: ${status.description}`}>
      {status.name}
    </span>
  );
}

export function Time({ value, full = false }: { value: string | undefined; full?: boolean }) {
  if (!value) return null;
  return (
    <time dateTime={value} title={fullTime(value)}>
      {full ? fullTime(value) : shortTime(value)}
    </time>
  );
}

export function Fields({ rows }: { rows: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="fields">
      {rows
        .filter(([, value]) => value !== undefined && value !== null && value !== '')
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="copy"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
      aria-label={`${label} ${text}`}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function Problem({ text }: { text: string | undefined }) {
  return text ? (
    <p class="problem" role="alert">
      {text}
    </p>
  ) : null;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Code({ text }: { text: string }) {
  return <pre class="code">{text}</pre>;
}
