import { useEffect, useId, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Avatar } from '../../components/Avatar.tsx';
import { Button } from '../../components/Button.tsx';
import { AVATAR_ACCEPT, checkAvatarFile } from '../../components/form/authValidation.ts';
import type { AuthErrorKey } from '../../components/form/authValidation.ts';
import { errorText } from '../../components/form/errorText.ts';
import { modifyInfo } from './modifyInfo.ts';
import '../../components/form/auth.css';

/**
 * Avatar row: choose a jpg/jpeg/png file (checked on the client: type and at most 2 MB),
 * preview it, then upload it as multipart to /user/modify-info. The object URL of the preview
 * is revoked when the choice changes or the editor unmounts.
 */
export function AvatarEditor({ avatar, onSaved }: { avatar: string; onSaved: () => void }) {
  const { t } = useTranslation('settings');
  const { t: ta } = useTranslation('auth');
  const api = useApi();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<AuthErrorKey | null>(null);

  useEffect(() => {
    if (!file) return undefined;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => {
      URL.revokeObjectURL(url);
      setPreview(null);
    };
  }, [file]);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    const err = checkAvatarFile(f);
    setError(err);
    if (err !== null) {
      toast.error(errorText(ta, err));
      setFile(null);
      return;
    }
    setFile(f);
  };

  const upload = async () => {
    if (!file) return;
    try {
      const env = await modifyInfo(api, { avatar: file });
      toast.success(env.msg);
      setFile(null);
      onSaved();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="settings-row settings-row--avatar">
      <div className="settings-avatar">
        {preview ? (
          <img className="rf-avatar" src={preview} alt={t('avatarPreview')} width={64} height={64} />
        ) : (
          <Avatar src={avatar} size={64} alt={t('avatar')} />
        )}
      </div>
      <div className="settings-row__text">
        <h3 className="settings-row__title">{t('avatar')}</h3>
        <p className="settings-muted">{t('avatarHint')}</p>
        {error ? <p className="auth-field__error" role="alert">{errorText(ta, error)}</p> : null}
      </div>
      <div className="settings-row__actions">
        <label className="rf-btn rf-btn--secondary rf-btn--sm settings-file" htmlFor={inputId}>
          {t('avatarChoose')}
        </label>
        <input id={inputId} className="settings-file__input" type="file" accept={AVATAR_ACCEPT} onChange={choose}
          aria-label={t('avatarChoose')} />
        {file ? (
          <Button type="button" variant="primary" size="sm" onClick={upload}>{t('avatarUpload')}</Button>
        ) : null}
      </div>
    </div>
  );
}
