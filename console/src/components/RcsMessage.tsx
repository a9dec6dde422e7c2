import type { CardContent, RcsContent, Suggestion } from '../types';

interface Props {
  content: RcsContent;
  /** Called when the phone's user taps a suggestion; without it suggestions are shown, not tappable. */
  onTap?: (suggestion: Suggestion) => void;
}

/** An RCS message as a handset shows it: text, a file, a card or a carousel of cards, with suggestion chips. */
export function RcsMessage({ content, onTap }: Props) {
  return (
    <div class="rcs">
      {content.type === 'TEXT' && <p class="rcs-text">{content.text}</p>}
      {content.type === 'FILE' && <Media url={content.file?.url} thumbnail={content.thumbnail?.url} />}
      {content.type === 'CARD' && content.content && <Card card={content.content} onTap={onTap} />}
      {content.type === 'CAROUSEL' && (
        <div class="carousel" role="group" aria-label="Carousel">
          {(content.contents ?? []).map((card, index) => (
            <Card key={index} card={card} onTap={onTap} />
          ))}
        </div>
      )}
      {content.type === 'PROVIDER_TEMPLATE' && <p class="rcs-text">Template {content.templateId}</p>}
      <Suggestions suggestions={content.suggestions} onTap={onTap} />
    </div>
  );
}

/** Only http(s) addresses become links or images: content is data, never script. */
const webUrl = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

function Media({ url: given, thumbnail: givenThumbnail }: { url: string | undefined; thumbnail?: string | undefined }) {
  const url = webUrl(given);
  const thumbnail = webUrl(givenThumbnail);
  if (!url) return given ? <span class="rcs-file">📎 {given}</span> : null;
  const name = url.split('/').pop() || url;
  return (
    <a class="rcs-file" href={url} target="_blank" rel="noreferrer noopener">
      {thumbnail ? <img src={thumbnail} alt="" loading="lazy" referrerpolicy="no-referrer" /> : null}
      <span>📎 {name}</span>
    </a>
  );
}

function Card({ card, onTap }: { card: CardContent; onTap: Props['onTap'] }) {
  return (
    <article class="rcs-card">
      {card.media?.file?.url && <Media url={card.media.file.url} thumbnail={card.media.thumbnail?.url} />}
      {card.title && <h4>{card.title}</h4>}
      {card.description && <p>{card.description}</p>}
      <Suggestions suggestions={card.suggestions} onTap={onTap} />
    </article>
  );
}

const SUGGESTION_ICON: Record<string, string> = {
  REPLY: '',
  OPEN_URL: '🔗 ',
  DIAL_PHONE: '📞 ',
  SHOW_LOCATION: '📍 ',
  REQUEST_LOCATION: '📍 ',
  CREATE_CALENDAR_EVENT: '📅 ',
};

function Suggestions({ suggestions, onTap }: { suggestions: Suggestion[] | undefined; onTap: Props['onTap'] }) {
  if (!suggestions?.length) return null;
  return (
    <div class="chips" role="group" aria-label="Suggestions">
      {suggestions.map((suggestion, index) => (
        <button key={index} type="button" class="chip" disabled={!onTap} onClick={() => onTap?.(suggestion)} title={suggestion.type}>
          {SUGGESTION_ICON[suggestion.type] ?? ''}
          {suggestion.text}
        </button>
      ))}
    </div>
  );
}
