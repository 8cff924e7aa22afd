import { useId } from 'react';
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { kycMachine } from '../../../machines/kycMachine.ts';
import { KYC_DOC_TYPES, KYC_NAME_MAX, KYC_DOC_NUMBER_MAX } from '../../../protocol/kyc.ts';
import type { KycTextField } from '../../../protocol/kyc.ts';
import { Button } from '../../components/Button.tsx';
import { parseLang } from '../../i18n/languages.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { countryOptions, kycText } from './kycText.ts';
import { UploadBox } from './UploadBox.tsx';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';

export type KycActor = ActorRefFrom<typeof kycMachine>;

interface SelectFieldProps {
  label: string;
  value: string;
  placeholder: string;
  error: string | undefined;
  disabled: boolean;
  testId: string;
  onChange: (v: string) => void;
  children: ReactNode;
}

/** A labelled native select styled like the auth form's inputs (keyboard and screen-reader friendly). */
function SelectField({ label, value, placeholder, error, disabled, testId, onChange, children }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={`auth-field${error ? ' auth-field--invalid' : ''}`}>
      <label className="auth-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="auth-field__row">
        <select
          id={id}
          className={`auth-field__input kyc-select${value === '' ? ' is-empty' : ''}`}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
        >
          <option value="">{placeholder}</option>
          {children}
        </select>
      </div>
      {error ? (
        <p className="auth-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The SPEC §3 identity form, a view over the KYC machine: every change is a `kyc.field` /
 * `kyc.file` event, the button sends `kyc.submit` (the machine validates and refuses to send
 * twice). Messages are the machine's English KYC_MSG texts, translated here.
 */
export function KycForm({ actor, send }: { actor: KycActor; send: ScreenSend<typeof kycMachine> }) {
  const { t, i18n } = useTranslation('kyc');
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);
  const submitError = useSelector(actor, (s) => s.context.submitError);
  const submitting = useSelector(actor, (s) => s.value === 'submitting');
  const lang = parseLang(i18n.language);
  const err = (f: keyof typeof errors) => {
    const m = errors[f];
    return m ? kycText(t, m) : undefined;
  };
  const set = (field: KycTextField) => (value: string) => send({ type: 'kyc.field', field, value });

  return (
    <form className="kyc-form auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('formTitle')}>
      <div className="kyc-grid">
        <SelectField label={t('country')} value={form.country} placeholder={t('countryPlaceholder')} error={err('country')} disabled={submitting}
          testId="kyc-country" onChange={set('country')}>
          {countryOptions(lang).map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('docType')} value={form.docType} placeholder={t('docTypePlaceholder')} error={err('docType')} disabled={submitting}
          testId="kyc-doc-type" onChange={set('docType')}>
          {KYC_DOC_TYPES.map((d) => (
            <option key={d} value={d}>
              {t(`doc_${d}`)}
            </option>
          ))}
        </SelectField>
        <FormField label={t('firstName')} value={form.firstName} onValueChange={set('firstName')} error={err('firstName')} disabled={submitting}
          placeholder={t('namePlaceholder')} autoComplete="given-name" maxLength={KYC_NAME_MAX + 10} data-testid="kyc-first-name" />
        <FormField label={t('lastName')} value={form.lastName} onValueChange={set('lastName')} error={err('lastName')} disabled={submitting}
          placeholder={t('namePlaceholder')} autoComplete="family-name" maxLength={KYC_NAME_MAX + 10} data-testid="kyc-last-name" />
        <div className="kyc-grid__wide">
          <FormField label={t('docNumber')} value={form.docNumber} onValueChange={set('docNumber')} error={err('docNumber')} disabled={submitting}
            placeholder={t('docNumberPlaceholder')} autoComplete="off" spellCheck={false} maxLength={KYC_DOC_NUMBER_MAX + 10} data-testid="kyc-doc-number" />
        </div>
      </div>
      <p className="acct-muted kyc-rules">{t('photoRules')}</p>
      <div className="kyc-uploads">
        {(['cover', 'info'] as const).map((slot) => (
          <UploadBox key={slot} slot={slot} file={form[slot]} error={err(slot)} disabled={submitting}
            onPick={(file) => send({ type: 'kyc.file', slot, file })} />
        ))}
      </div>
      {submitError ? (
        <p className="auth-server-error" role="alert" data-testid="kyc-submit-error">
          {kycText(t, submitError)}
        </p>
      ) : null}
      <div className="kyc-actions">
        <Button type="submit" variant="primary" size="lg" pending={submitting} onClick={() => send({ type: 'kyc.submit' })} data-testid="kyc-submit">
          {t('submit')}
        </Button>
      </div>
    </form>
  );
}
