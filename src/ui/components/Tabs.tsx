import { useEffect, useRef } from 'react';
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
  const row = useRef<HTMLDivElement>(null);
  // A row wider than the screen scrolls sideways; keep the chosen tab fully in view by scrolling
  // the row only (never the page: the row may sit below the fold).
  useEffect(() => {
    const r = row.current;
    const el = r?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!r || !el) return;
    const rb = r.getBoundingClientRect();
    const eb = el.getBoundingClientRect();
    if (eb.left < rb.left) r.scrollLeft -= rb.left - eb.left;
    else if (eb.right > rb.right) r.scrollLeft += eb.right - rb.right;
  }, [active]);
  return (
    <div className="rf-tabs" role="tablist" aria-label={label} ref={row}>
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
