import { useEffect } from 'react';
import { useDevice } from '../hooks/usePrefs.ts';
import { useSession, useSessionSend } from './AppCoreProvider.tsx';
import { DesktopTopBar } from './DesktopTopBar.tsx';
import { MobileTopBar } from './MobileTopBar.tsx';

/**
 * Picks the desktop or mobile top bar by device class. SPEC §4: when the top bar mounts with a
 * logged-in session (and whenever the session becomes logged in) user info is (re)loaded.
 */
export function TopBar() {
  const device = useDevice();
  const { loggedIn } = useSession();
  const send = useSessionSend();
  useEffect(() => {
    if (loggedIn) send({ type: 'user.fetchInfo' });
  }, [loggedIn, send]);
  return device === 'desktop' ? <DesktopTopBar /> : <MobileTopBar />;
}
