/**
 * Which field names carry a secret, by class: the one key list behind the event-log redactor
 * (src/ports/redact.ts) and the server's log (server/http/logRedact.ts). A field is matched on its
 * name lowercased with `_` and `-` removed, so `doc_no`, `docNo` and `DOC-NO` are one key.
 *
 * tests/unit/secrets.test.ts walks every zod request schema of src/protocol: a new field whose name
 * looks secret (password, code, secret, token, document number...) fails it until it is listed here
 * or named there as public with a reason.
 */

/** The placeholder class `<redacted:<class>#n>`; identity document numbers are `secret` too. */
export type SecretClass = 'token' | 'password' | 'code' | 'secret';

const EXACT: Record<SecretClass, readonly string[]> = {
  token: ['authorization', 'token', 'accesstoken', 'refreshtoken', 'sessiontoken', 'jwt', 'cookie', 'setcookie'],
  password: ['password', 'passwd', 'pwd', 'oldpassword', 'newpassword', 'confirmpassword'],
  // Verification codes: mailed, TOTP (Google authenticator) and SMS. A NUMERIC `code` is one too,
  // except the status code of an envelope / error frame (an object with `msg`): see isStatusCode.
  code: [
    'code', 'googlecode', 'emailcode', 'mailcode', 'verifycode', 'verificationcode', 'totpcode', 'totp', 'otp',
    'otpcode', 'smscode', 'securitycode', 'authcode', 'captcha',
  ],
  secret: [
    'secret', 'googlesecret', 'totpsecret', 'otpsecret', 'uri', 'otpauth', 'otpauthurl', 'privatekey', 'mnemonic',
    'idcard', 'document', 'image', 'photo', 'cover', 'front', 'back',
  ],
};

/** Identity document numbers (KYC: src/protocol/kyc.ts `docNumber` and the usual variants), class `secret`. */
const DOCUMENT_NUMBERS: readonly string[] = [
  'docno', 'docnum', 'docnumber', 'documentno', 'documentnumber', 'idno', 'idnumber', 'idcardno', 'idcardnumber',
  'passportno', 'passportnumber', 'licenseno', 'licensenumber', 'ssn', 'taxid',
];

/** Suffixes that mark a secret whatever comes before (`withdrawPassword`, `apiSecret`, `csrfToken`). */
const SUFFIX: [string, SecretClass][] = [
  ['password', 'password'],
  ['secret', 'secret'],
  ['token', 'token'],
];

const BY_KEY = new Map<string, SecretClass>();
for (const [cls, keys] of Object.entries(EXACT) as [SecretClass, readonly string[]][]) for (const k of keys) BY_KEY.set(k, cls);
for (const k of DOCUMENT_NUMBERS) BY_KEY.set(k, 'secret');

/** `docNo` → `docno`: the form every list above is written in. */
export function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** The class of secret a field of this name holds, or null for an ordinary field. */
export function secretClassOf(key: string): SecretClass | null {
  const k = normaliseKey(key);
  const exact = BY_KEY.get(k);
  if (exact) return exact;
  for (const [suffix, cls] of SUFFIX) if (k.endsWith(suffix)) return cls;
  return null;
}

/** Every listed key (normalised): for documentation and the key-list test. */
export function secretKeys(): ReadonlyMap<string, SecretClass> {
  return BY_KEY;
}

/**
 * The `code` of an envelope `{code, msg, data}` or a socket error frame `{type:'error', msg, code}`
 * is a status (200, 401...), not a verification code: kept. Any other numeric `code` is a secret.
 */
export function isStatusCode(container: Record<string, unknown>, key: string): boolean {
  return key === 'code' && typeof container.code === 'number' && typeof container.msg === 'string';
}
