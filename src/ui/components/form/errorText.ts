import type { AuthErrorKey } from './authValidation.ts';

/**
 * Where the translated text of a validation key lives: `common` holds the SPEC §5 messages
 * every screen shares, `auth` holds the few the auth and settings forms add. Keeping this
 * map total over `AuthErrorKey` (a `Record`) means a new protocol message is a type error
 * here until it gets a text.
 */
export interface ErrorTextRef {
  ns: 'common' | 'auth';
  key: string;
  params?: Record<string, string>;
}

export const ERROR_TEXT: Record<AuthErrorKey, ErrorTextRef> = {
  emailRequired: { ns: 'common', key: 'emailRequired' },
  emailInvalid: { ns: 'common', key: 'emailInvalid' },
  passwordRequired: { ns: 'common', key: 'passwordRequired' },
  passwordLength: { ns: 'common', key: 'passwordLength' },
  agreementRequired: { ns: 'common', key: 'agreementRequired' },
  registerAgreement: { ns: 'common', key: 'registerAgreement' },
  googleCodeInvalid: { ns: 'common', key: 'googleCodeInvalid' },
  onlyImages: { ns: 'common', key: 'onlyImages' },
  avatarTooLarge: { ns: 'common', key: 'imageTooLarge', params: { size: '2MB' } },
  passwordMismatch: { ns: 'auth', key: 'err.passwordMismatch' },
  passwordSameAsOld: { ns: 'auth', key: 'err.passwordSameAsOld' },
  codeRequired: { ns: 'auth', key: 'err.codeRequired' },
  nicknameLength: { ns: 'auth', key: 'err.nicknameLength' },
};

/** A translate function as react-i18next's `t` accepts it (namespaced key, interpolation). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The message for a validation key in the current language. */
export function errorText(t: Translate, err: AuthErrorKey): string {
  const ref = ERROR_TEXT[err];
  return t(`${ref.ns}:${ref.key}`, ref.params);
}
