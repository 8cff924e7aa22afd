import { useTranslation } from 'react-i18next';
import { useCopy } from '../hooks/useCopy.ts';

/** An icon button copying `text` and toasting the SPEC §8 copy message. */
export function CopyButton({ text, label }: { text: string | number | null | undefined; label?: string }) {
  const copy = useCopy();
  const { t } = useTranslation('common');
  return (
    <button type="button" className="rf-icon-btn rf-copy" aria-label={label ?? t('copy')} onClick={() => void copy(text)}>
      <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
        <path
          fill="currentColor"
          d="M16 1H4a2 2 0 0 0-2 2v14h2V3h12V1zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11v14z"
        />
      </svg>
    </button>
  );
}
