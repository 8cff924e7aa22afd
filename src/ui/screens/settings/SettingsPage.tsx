import type { ReactNode } from 'react';
import { SettingsNav } from './SettingsNav.tsx';
import './settings.css';

/** Frame of one settings screen: sub-navigation, a heading and the content card(s). */
export function SettingsPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="settings-page">
      <SettingsNav />
      <h1 className="settings-title">{title}</h1>
      {children}
    </div>
  );
}
