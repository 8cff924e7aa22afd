import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../components/toast.ts';
import { useShellEnv } from './useShellEnv.ts';

/** Outcome of a copy attempt, also returned for tests and callers that chain on it. */
export type CopyResult = 'copied' | 'failed' | 'empty';

/**
 * Copies text and shows the SPEC §8 message: 'Copy Successful!', 'Copy Failed, please copy
 * manually' (no clipboard or it rejected) or 'No content provided to copy' (empty text).
 */
export function useCopy(): (text: string | number | null | undefined) => Promise<CopyResult> {
  const { clipboard } = useShellEnv();
  const { t } = useTranslation('common');
  return useCallback(
    async (text) => {
      const value = text == null ? '' : String(text);
      if (value === '') {
        toast.info(t('copyEmpty'));
        return 'empty';
      }
      try {
        if (!clipboard) throw new Error('clipboard unavailable');
        await clipboard.writeText(value);
        toast.success(t('copySuccess'));
        return 'copied';
      } catch {
        toast.error(t('copyFailed'));
        return 'failed';
      }
    },
    [clipboard, t],
  );
}
