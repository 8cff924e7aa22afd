import { Toaster } from 'sonner';
import { useTheme } from '../hooks/usePrefs.ts';
import './AppToaster.css';

/** sonner's class hooks: the close button inside the toast (AppToaster.css, issue 26). */
export const TOAST_CLASSES = { toast: 'rf-toast', closeButton: 'rf-toast-close' } as const;
const TOAST_OPTIONS = { classNames: TOAST_CLASSES };

/** The single sonner host, themed with the app theme. Mounted once by the shell. */
export function AppToaster() {
  const { theme } = useTheme();
  return <Toaster theme={theme} position="top-center" richColors closeButton duration={3000} toastOptions={TOAST_OPTIONS} />;
}
