import { useEffect, useState, type ComponentType } from 'react';

export { TOAST_CLASSES } from './toastClasses.ts';

let loaded: ComponentType | null = null;
const loadHost = () =>
  import('./AppToasterHost.tsx').then((m) => {
    loaded = m.AppToasterHost;
    return m.AppToasterHost;
  });

/**
 * The single sonner host, themed with the app theme. Mounted once by the shell; sonner comes in its
 * own chunk after the first paint, not in the entry (issue 30). Until it is here nothing is
 * rendered: no Suspense boundary, so the toaster never holds back the screen beside it; toasts
 * asked for meanwhile wait and show once it mounts (toast.ts).
 */
export function AppToaster() {
  const [Host, setHost] = useState<ComponentType | null>(() => loaded);
  useEffect(() => {
    if (Host) return undefined;
    let live = true;
    void loadHost().then((h) => live && setHost(() => h));
    return () => {
      live = false;
    };
  }, [Host]);
  return Host ? <Host /> : null;
}
