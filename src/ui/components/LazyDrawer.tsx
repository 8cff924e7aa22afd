import { useEffect, useState, type ComponentType } from 'react';
import type { DrawerProps } from './Drawer.tsx';

let loaded: ComponentType<DrawerProps> | null = null;
let loading: Promise<ComponentType<DrawerProps>> | null = null;
const load = (): Promise<ComponentType<DrawerProps>> =>
  (loading ??= import('./Drawer.tsx').then((m) => {
    loaded = m.Drawer;
    return m.Drawer;
  }));

type IdleWindow = Window & { requestIdleCallback?: (fn: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };

/**
 * {@link Drawer} for the shell (mobile menu, language picker, trade sheet) without Radix Dialog in
 * the first paint's script (issue 30): its code loads when the page is idle after the first paint
 * (or at once when the drawer is opened first), and nothing is rendered until it is here. No
 * Suspense boundary: a drawer still loading never holds back what is around it.
 */
export function LazyDrawer(props: DrawerProps) {
  const [Drawer, setDrawer] = useState<ComponentType<DrawerProps> | null>(() => loaded);
  const { open } = props;
  useEffect(() => {
    if (Drawer) return undefined;
    let live = true;
    const take = () => void load().then((d) => live && setDrawer(() => d));
    if (open) {
      take();
      return () => {
        live = false;
      };
    }
    const w = window as IdleWindow;
    if (w.requestIdleCallback && w.cancelIdleCallback) {
      const id = w.requestIdleCallback(take, { timeout: 4000 });
      return () => {
        live = false;
        w.cancelIdleCallback?.(id);
      };
    }
    // no idle callback (Safari): after the first commit
    take();
    return () => {
      live = false;
    };
  }, [Drawer, open]);
  return Drawer ? <Drawer {...props} /> : null;
}
