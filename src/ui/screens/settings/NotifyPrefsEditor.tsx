import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { NOTIFY_MODULES, NOTIFY_PATHS } from '../../../protocol/help.ts';
import type { NotifyModule, NotifyPrefs, NotifyPrefsBody } from '../../../protocol/help.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { LANGUAGES } from '../../i18n/languages.ts';

const NO_QUERY = {};
const NONE: readonly string[] = [];

/**
 * Notification language and the sysNotify / tradeNotify / eventNotify switches (SPEC §3),
 * stored on the server (GET / POST /api/notify/prefs). Read through a core live query; each change
 * is saved at once, then the query is asked again so the screen shows what the server kept.
 */
export function NotifyPrefsEditor() {
  const { t } = useTranslation('help');
  const api = useApi();
  const { load, reload } = useLiveGet<NotifyPrefs>(NOTIFY_PATHS.prefs, NO_QUERY, NONE);
  const [saving, setSaving] = useState(false);

  const save = async (patch: NotifyPrefsBody) => {
    setSaving(true);
    try {
      await api.post<NotifyPrefs>(NOTIFY_PATHS.prefs, patch);
      toast.success(t('notifySaved'));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setSaving(false);
      reload();
    }
  };

  if (load.status === 'loading') return <p className="acct-muted">{t('loading')}</p>;
  if (load.status === 'error') {
    return (
      <p className="acct-muted" role="alert">
        {load.msg}
      </p>
    );
  }
  const prefs = load.data;
  const hint: Record<NotifyModule, string> = { sysNotify: t('sysNotifyHint'), tradeNotify: t('tradeNotifyHint'), eventNotify: t('eventNotifyHint') };
  return (
    <div data-testid="notify-prefs" aria-busy={saving}>
      <p className="acct-muted">{t('notifyIntro')}</p>
      <div className="settings-row">
        <label className="settings-row__title" htmlFor="notify-lang">
          {t('notifyLang')}
        </label>
        <select id="notify-lang" className="settings-select" value={prefs.lang} disabled={saving} onChange={(e) => void save({ lang: e.target.value as NotifyPrefs['lang'] })}>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code}>
              {l.label}
            </option>
          ))}
        </select>
      </div>
      {NOTIFY_MODULES.map((m) => (
        <div key={m} className="settings-row">
          <div className="settings-row__text">
            <label className="settings-row__title" htmlFor={`notify-${m}`}>
              {t(m)}
            </label>
            <p className="acct-muted settings-hint" id={`notify-${m}-hint`}>
              {hint[m]}
            </p>
          </div>
          <input
            id={`notify-${m}`}
            type="checkbox"
            role="switch"
            className="settings-switch"
            aria-describedby={`notify-${m}-hint`}
            checked={prefs[m]}
            disabled={saving}
            onChange={(e) => void save({ [m]: e.target.checked })}
          />
        </div>
      ))}
    </div>
  );
}
