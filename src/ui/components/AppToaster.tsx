import { Toaster } from 'sonner';
import { useTheme } from '../hooks/usePrefs.ts';

/** The single sonner host, themed with the app theme. Mounted once by the shell. */
export function AppToaster() {
  const { theme } = useTheme();
  return <Toaster theme={theme} position="top-center" richColors closeButton duration={3000} />;
}
