import { useEffect, useId, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { KYC_IMAGE_ACCEPT } from '../../../protocol/kyc.ts';
import type { KycFileInfo, KycImageSlot } from '../../../protocol/kyc.ts';

/** An object URL for a chosen photo, revoked when the photo changes or the box unmounts. */
function usePreview(file: KycFileInfo | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!(file instanceof Blob) || typeof URL.createObjectURL !== 'function') return undefined;
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(null);
    };
  }, [file]);
  return url;
}

export interface UploadBoxProps {
  slot: KycImageSlot;
  file: KycFileInfo | null;
  /** Translated inline message. */
  error: string | undefined;
  disabled: boolean;
  onPick: (file: File | null) => void;
}

/**
 * One photo slot: a large drop-style label over a hidden file input, the preview once chosen, the
 * SPEC §5 rules, and the inline error. The input's value is reset so choosing the same file again
 * after an error still fires.
 */
export function UploadBox({ slot, file, error, disabled, onPick }: UploadBoxProps) {
  const { t } = useTranslation('kyc');
  const id = useId();
  const preview = usePreview(file);
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    e.target.value = '';
    if (f) onPick(f);
  };
  const title = t(slot);
  return (
    <div className={`kyc-upload${error ? ' kyc-upload--invalid' : ''}`} data-testid={`kyc-upload-${slot}`}>
      <span className="kyc-upload__title" id={`${id}-title`}>{title}</span>
      <label className={`kyc-upload__box${preview ? ' has-preview' : ''}`} htmlFor={id}>
        {preview && file ? (
          <img className="kyc-upload__preview" src={preview} alt={t('previewAlt', { name: file.name })} />
        ) : (
          <span className="kyc-upload__placeholder" aria-hidden="true">
            <svg width="36" height="36" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6">
              <rect x="3" y="5" width="18" height="14" rx="2" />
              <circle cx="9" cy="11" r="2" />
              <path d="M21 17l-5-5-7 7" />
            </svg>
          </span>
        )}
        <span className="kyc-upload__action">{file ? t('replacePhoto') : t('choosePhoto')}</span>
        {file ? <span className="kyc-upload__name">{file.name}</span> : <span className="kyc-upload__hint">{t(slot === 'cover' ? 'coverHint' : 'infoHint')}</span>}
      </label>
      <input
        id={id}
        className="kyc-upload__input"
        type="file"
        accept={KYC_IMAGE_ACCEPT}
        disabled={disabled}
        onChange={choose}
        aria-labelledby={`${id}-title`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        data-testid={`kyc-file-${slot}`}
      />
      {error ? (
        <p className="auth-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
