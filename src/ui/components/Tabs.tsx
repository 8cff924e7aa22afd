import type { ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
}

/** A controlled tab strip (ARIA tablist); the caller renders the active panel. */
export function Tabs<K extends string>({
  items,
  active,
  onChange,
  label,
}: {
  items: readonly TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
}) {
  return (
    <div className="rf-tabs" role="tablist" aria-label={label}>
      {items.map((it) => (
        <button
          key={it.key}
          type="button"
          role="tab"
          aria-selected={it.key === active}
          className={`rf-tab ${it.key === active ? 'is-active' : ''}`}
          onClick={() => onChange(it.key)}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
