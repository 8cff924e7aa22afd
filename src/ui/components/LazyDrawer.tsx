import { lazy, Suspense, useEffect, useState } from 'react';
import type { DrawerProps } from './Drawer.tsx';

const load = () => import('./Drawer.tsx');
const Drawer = lazy(() => load().then((m) => ({ default: m.Drawer })));

/**
 * {@link Drawer} for the shell (mobile menu, language picker, trade sheet) without Radix Dialog in
 * the first paint's script (issue 30): nothing is rendered until the drawer first opens, and its
 * code loads once the page is idle after the first paint, so a tap finds it here.
 */
export function LazyDrawer(props: DrawerProps) {
  const [wanted, setWanted] = useState(props.open);
  if (props.open && !wanted) setWanted(true);
  useEffect(() => {
    const w = window as Window & { requestIdleCallback?: (fn: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
    if (w.requestIdleCallback && w.cancelIdleCallback) {
      const id = w.requestIdleCallback(() => void load(), { timeout: 4000 });
      return () => w.cancelIdleCallback?.(id);
    }
    // no idle callback (Safari): after the first commit
    void load();
    return undefined;
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}
