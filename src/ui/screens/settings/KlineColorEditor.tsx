import { useTranslation } from 'react-i18next';
import { useKlineSetting } from '../../hooks/usePrefs.ts';
import { KLINE_DIRECTIONS, KLINE_STYLES, klineColors } from '../../theme/klineColors.ts';

/**
 * Kline color style (fresh / traditional / cvd) and direction (green up or red up), written to
 * the shell's kline store, which persists it and applies the up/down colors page-wide.
 * Each option previews its own up and down colors.
 */
export function KlineColorEditor() {
  const { t } = useTranslation('settings');
  const [setting, setSetting] = useKlineSetting();
  return (
    <div className="kline-editor">
      <fieldset className="kline-editor__group">
        <legend className="settings-row__title">{t('klineStyle')}</legend>
        <div className="kline-editor__options">
          {KLINE_STYLES.map((style) => {
            const c = klineColors(style, setting.direction);
            return (
              <label key={style} className={`kline-option${setting.style === style ? ' is-active' : ''}`}>
                <input type="radio" name="kline-style" value={style} checked={setting.style === style}
                  onChange={() => setSetting({ ...setting, style })} />
                <span className="kline-option__label">{t(`style.${style}`)}</span>
                <span className="kline-option__swatches" aria-hidden="true">
                  <i style={{ background: c.up }} />
                  <i style={{ background: c.down }} />
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="kline-editor__group">
        <legend className="settings-row__title">{t('klineDirection')}</legend>
        <div className="kline-editor__options">
          {KLINE_DIRECTIONS.map((direction) => {
            const c = klineColors(setting.style, direction);
            return (
              <label key={direction} className={`kline-option${setting.direction === direction ? ' is-active' : ''}`}>
                <input type="radio" name="kline-direction" value={direction} checked={setting.direction === direction}
                  onChange={() => setSetting({ ...setting, direction })} />
                <span className="kline-option__label">{t(`direction.${direction}`)}</span>
                <span className="kline-option__arrows" aria-hidden="true">
                  <b style={{ color: c.up }}>▲</b>
                  <b style={{ color: c.down }}>▼</b>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
