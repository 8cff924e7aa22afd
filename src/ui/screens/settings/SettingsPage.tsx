import type { ReactNode } from 'react';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { SettingsNav } from '../../components/settings/SettingsNav.tsx';
import '../../components/settings/settings.css';

/**
 * Frame of one settings screen: the account centre's frame (side navigation on desktop, like every
 * /my page), the settings tabs above the heading, and the content card(s).
 */
export function SettingsPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AccountLayout title={title} sub={<SettingsNav />}>
      <div className="settings-page">{children}</div>
    </AccountLayout>
  );
}
