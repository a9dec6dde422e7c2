import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props<T> {
  items: T[];
  /** Every row has this height in pixels, so only the rows in view are rendered. */
  rowHeight: number;
  rowKey: (item: T) => string;
  renderRow: (item: T) => ComponentChildren;
  onOpen: (item: T) => void;
  label: string;
}

const OVERSCAN = 8;

/**
 * A list of any length that renders only the rows in view. It is one tab stop: arrow keys, Page
 * Up/Down, Home and End move the active row, Enter opens it.
 */
export function VirtualList<T>({ items, rowHeight, rowKey, renderRow, onOpen, label }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [active, setActive] = useState(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (active >= items.length) setActive(Math.max(0, items.length - 1));
  }, [items.length, active]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible = items.slice(first, last);

  const moveTo = (index: number): void => {
    const next = Math.max(0, Math.min(items.length - 1, index));
    setActive(next);
    const element = scroller.current;
    if (!element) return;
    const top = next * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) moveTo(active + moves[event.key]!);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(items.length - 1);
    else if (event.key === 'Enter' && items[active]) onOpen(items[active]!);
    else return;
    event.preventDefault();
  };

  const activeItem = items[active];
  return (
    <div
      ref={scroller}
      class="virtual-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={activeItem ? `row-${rowKey(activeItem)}` : undefined}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLDivElement).scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: `${items.length * rowHeight}px`, position: 'relative' }}>
        {visible.map((item, offset) => {
          const index = first + offset;
          return (
            <div
              key={rowKey(item)}
              id={`row-${rowKey(item)}`}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'row active' : 'row'}
              style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
              onClick={() => {
                setActive(index);
                onOpen(item);
              }}
            >
              {renderRow(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
