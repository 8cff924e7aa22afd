import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_VERSION, buildSupportBundle, bundleFileName, gzipBundle } from '../../core/supportBundle.ts';
import { storedLoadsOf } from '../../core/replay/record.ts';
import { useAppCore } from '../app/AppCoreProvider.tsx';
import { useShellEnv } from '../hooks/useShellEnv.ts';
import './ReportProblem.css';

/** Saves `bytes` (the gzipped bundle) as a file in the browser (an object URL clicked through a temporary link). */
export function downloadBytes(fileName: string, bytes: Uint8Array): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/gzip' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

export interface ReportProblemProps {
  /**
   * Where the bundle goes: the gzipped file (`.jsonl.gz`) and, for tests, its text. The browser
   * download by default (tests pass a collector).
   */
  onExport?: (fileName: string, bytes: Uint8Array, text: string) => void;
}

/**
 * 'Report a problem' (help centre and settings): exports a support bundle of the recording ring
 * and the page loads before it kept in the browser (src/core/supportBundle.ts) with the app version, language, theme and viewport. Secrets were
 * redacted when recorded; the live state in the bundle is redacted with the same placeholders.
 */
export function ReportProblem({ onExport = downloadBytes }: ReportProblemProps) {
  const { t, i18n } = useTranslation('replay');
  const core = useAppCore();
  const { prefs } = useShellEnv();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const exportBundle = async () => {
    try {
      // The page loads before this one, kept in the browser across reloads (issue 27, point 7).
      const earlier = await storedLoadsOf(core.log);
      const now = core.now();
      const text = buildSupportBundle({
        log: core.log,
        actors: core,
        earlier,
        now,
        env: {
          appVersion: APP_VERSION,
          language: i18n.language,
          theme: prefs.theme.get(),
          viewport: { width: window.innerWidth, height: window.innerHeight },
          userAgent: navigator.userAgent,
          path: window.location.pathname,
        },
      });
      const file = bundleFileName(now);
      const bytes = gzipBundle(text);
      onExport(file, bytes, text);
      setStatus({ ok: true, text: `${t('reportDone', { file })} · ${t('reportSize', { kb: Math.max(1, Math.round(bytes.length / 1024)) })}` });
    } catch {
      setStatus({ ok: false, text: t('reportFailed') });
    }
  };

  return (
    <section className="rf-report-problem" aria-labelledby="rf-report-problem-title" data-testid="report-problem">
      <h2 id="rf-report-problem-title" className="rf-report-problem__title">{t('reportTitle')}</h2>
      <p>{t('reportText')}</p>
      <p className="rf-report-problem__privacy">{t('reportPrivacy')}</p>
      <button type="button" className="rf-btn rf-btn--primary rf-btn--md" onClick={() => void exportBundle()}>
        {t('reportButton')}
      </button>
      {status && (
        <p role="status" className={status.ok ? 'rf-report-problem__ok' : 'rf-report-problem__error'}>
          {status.text}
        </p>
      )}
    </section>
  );
}
