import { toast, Toaster } from 'sonner';
import { useTheme } from '../hooks/usePrefs.ts';
import { attachToaster } from './toast.ts';
import { TOAST_OPTIONS } from './toastClasses.ts';
import './AppToaster.css';

// the app's toast calls (toast.ts) go straight to sonner from now on
attachToaster(toast);

/** The single sonner host, themed with the app theme (loaded beside the first screen: AppToaster.tsx). */
export function AppToasterHost() {
  const { theme } = useTheme();
  return <Toaster theme={theme} position="top-center" richColors closeButton duration={3000} toastOptions={TOAST_OPTIONS} />;
}
