import { lazy, Suspense } from 'react';

export { TOAST_CLASSES } from './toastClasses.ts';

const Host = lazy(() => import('./AppToasterHost.tsx').then((m) => ({ default: m.AppToasterHost })));

/**
 * The single sonner host, themed with the app theme. Mounted once by the shell; sonner comes in its
 * own chunk beside the first screen, not in the entry (toasts asked for meanwhile wait: toast.ts).
 */
export function AppToaster() {
  return (
    <Suspense fallback={null}>
      <Host />
    </Suspense>
  );
}
