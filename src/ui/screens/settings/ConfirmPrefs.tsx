import { useTranslation } from 'react-i18next';
import type { PositionPrefs } from '../../../core/positionPrefs.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { useCurrent } from '../../hooks/useCurrent.ts';
import '../../components/positions/positions.css';

/**
 * The trading confirmations of /my/settings/preference (issue 14): 'Do not ask again' in the close
 * and close-all dialogs turns one off; these switches turn it back on. Per user, through the
 * core's storage port (src/core/positionPrefs.ts).
 */
export function ConfirmPrefs() {
  const { t } = useTranslation('positions');
  const store = useAppCore().positionPrefs;
  const prefs = useCurrent(store.prefs$, store.get);
  const row = (key: keyof PositionPrefs, label: string) => (
    <div className="settings-row">
      <label className="settings-row__title" htmlFor={`confirm-${key}`}>
        {label}
      </label>
      <input id={`confirm-${key}`} type="checkbox" role="switch" checked={prefs[key]} onChange={(e) => store.set({ [key]: e.target.checked })} />
    </div>
  );
  return (
    <section className="settings-card rf-confirm-prefs" aria-label={t('settingsTitle')}>
      <h2 className="settings-card__title">{t('settingsTitle')}</h2>
      <p className="rf-confirm-prefs__hint">{t('settingsHint')}</p>
      {row('confirmClose', t('confirmClose'))}
      {row('confirmCloseAll', t('confirmCloseAll'))}
    </section>
  );
}
