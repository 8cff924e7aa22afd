import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';

/** Minimum app version that can scan the web login code (SPEC §1, §9). */
export const QR_LOGIN_MIN_APP_VERSION = '1.1.8';

/** The text the mobile app scans: a scheme prefix and the one-time login nonce. */
export function qrLoginPayload(nonce: string): string {
  return `rftrade://login?nonce=${encodeURIComponent(nonce)}`;
}

/** A fresh random nonce (UI edge: the browser's crypto, not the core's Random port). */
export function newLoginNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface QrLoginPanelProps {
  /** Injected in tests to get a stable image; defaults to {@link newLoginNonce}. */
  makeNonce?: () => string;
}

/**
 * QR-code login: shows a code generated from a login nonce with the `qrcode` package and the
 * note that it needs app 1.1.8 or above. Confirming the scan needs the mobile app, which is
 * not part of this product, so the panel only displays the code and lets the user refresh it.
 */
export function QrLoginPanel({ makeNonce = newLoginNonce }: QrLoginPanelProps) {
  const { t } = useTranslation('auth');
  const [nonce, setNonce] = useState(makeNonce);
  const [dataUrl, setDataUrl] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    QRCode.toDataURL(qrLoginPayload(nonce), { margin: 1, width: 176, errorCorrectionLevel: 'M' })
      .then((url) => {
        if (live) setDataUrl(url);
      })
      .catch((e: unknown) => console.error('qr login code', e));
    return () => {
      live = false;
    };
  }, [nonce]);

  return (
    <section className="auth-qr" aria-label={t('loginWithQr')}>
      <h2 className="auth-qr__title">{t('qrScanTitle')}</h2>
      <div className="auth-qr__frame">
        {dataUrl ? (
          <img className="auth-qr__img" src={dataUrl} alt={t('qrAlt')} width={176} height={176} data-nonce={nonce} />
        ) : (
          <div className="auth-qr__placeholder" />
        )}
      </div>
      <p className="auth-qr__note">{t('qrAppVersion')}</p>
      <button type="button" className="auth-link auth-qr__refresh" onClick={() => setNonce(makeNonce())}>
        {t('qrRefresh')}
      </button>
    </section>
  );
}
