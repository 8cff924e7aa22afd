import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { checkNickname } from '../../components/form/authValidation.ts';
import type { AuthErrorKey } from '../../components/form/authValidation.ts';
import { errorText } from '../../components/form/errorText.ts';
import { FormField } from '../../components/form/FormField.tsx';
import '../../components/form/auth.css';
import { modifyInfo } from './modifyInfo.ts';

/** Nickname row: shows the nickname, Edit opens an inline input (1-20 characters) with Save. */
export function NicknameEditor({ nickname, onSaved }: { nickname: string; onSaved: () => void }) {
  const { t } = useTranslation('settings');
  const { t: ta } = useTranslation('auth');
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(nickname);
  const [error, setError] = useState<AuthErrorKey | null>(null);

  const save = async () => {
    const err = checkNickname(value);
    setError(err);
    if (err !== null) return;
    try {
      const env = await modifyInfo(api, { nickname: value });
      toast.success(env.msg);
      setEditing(false);
      onSaved();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  if (!editing) {
    return (
      <div className="settings-row">
        <div className="settings-row__text">
          <h3 className="settings-row__title">{t('nickname')}</h3>
          <p className="settings-value" data-testid="nickname">{nickname}</p>
        </div>
        <Button type="button" variant="secondary" size="sm" onClick={() => {
          setValue(nickname);
          setError(null);
          setEditing(true);
        }}>
          {t('edit')}
        </Button>
      </div>
    );
  }
  return (
    <form className="settings-row settings-row--edit" onSubmit={(e) => e.preventDefault()} noValidate>
      <div className="settings-row__text">
        <FormField label={t('nickname')} value={value} onValueChange={setValue} placeholder={t('nicknamePlaceholder')}
          maxLength={40} autoFocus error={error ? errorText(ta, error) : undefined} />
      </div>
      <div className="settings-row__actions">
        <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(false)}>{t('cancel')}</Button>
        <Button type="submit" variant="primary" size="sm" onClick={save}>{t('save')}</Button>
      </div>
    </form>
  );
}
