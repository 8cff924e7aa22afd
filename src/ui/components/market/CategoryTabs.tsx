import type { KeyboardEvent } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

export interface CategoryTabsProps<K extends string> {
  items: readonly TabItem<K>[];
  value: K;
  onChange: (key: K) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** `pill` for the contract-kind switch, `line` for the category row. */
  variant?: 'pill' | 'line';
  /** Prefix of the tab ids, so two tab lists on one page do not collide. */
  idPrefix: string;
}

/**
 * A horizontally scrollable tab list (contract kinds, asset categories). Arrow keys move the
 * selection as the WAI-ARIA tabs pattern asks; on narrow screens the row scrolls instead of
 * wrapping.
 */
export function CategoryTabs<K extends string>({ items, value, onChange, label, variant = 'line', idPrefix }: CategoryTabsProps<K>) {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = items.findIndex((it) => it.key === value);
    const next = items[(i + (e.key === 'ArrowRight' ? 1 : items.length - 1)) % items.length];
    if (next) onChange(next.key);
  };
  return (
    <div role="tablist" aria-label={label} className={`mk-tabs mk-tabs--${variant}`} onKeyDown={onKey}>
      {items.map((it) => (
        <button
          key={it.key}
          id={`${idPrefix}-${it.key}`}
          type="button"
          role="tab"
          aria-selected={it.key === value}
          tabIndex={it.key === value ? 0 : -1}
          className={`mk-tab${it.key === value ? ' mk-tab--active' : ''}`}
          onClick={() => onChange(it.key)}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
