import { AVATAR_MAX_BYTES, PASSWORD_MAX, PASSWORD_MIN } from '../../../protocol/user.ts';
import type { MSG } from '../../../protocol/user.ts';

/**
 * Client-side checks for the auth and settings forms (SPEC §5). Each check returns the
 * `MSG` key of the first failed rule, or `null` when the value is acceptable.
 *
 * Invariant: these checks accept exactly what the server's zod schemas in
 * src/protocol/user.ts accept (a property test pins that down), so a form that passes
 * here is never rejected by the server for shape reasons, and the inline message is the
 * same text the server would send back.
 */
export type AuthErrorKey = keyof typeof MSG;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string): AuthErrorKey | null {
  const v = value.trim();
  if (v.length === 0) return 'emailRequired';
  if (v.length > 254 || !EMAIL_RE.test(v)) return 'emailInvalid';
  return null;
}

export function checkPassword(value: string): AuthErrorKey | null {
  if (value.length === 0) return 'passwordRequired';
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return 'passwordLength';
  return null;
}

/** A new password: the password rules, and not the old password again (issue 26: that only locked withdrawals). */
export function checkNewPassword(oldPassword: string, password: string): AuthErrorKey | null {
  const shape = checkPassword(password);
  if (shape !== null) return shape;
  return password === oldPassword ? 'passwordSameAsOld' : null;
}

/** Confirmation only matters once the password itself is valid; an empty one reads as required. */
export function checkConfirm(password: string, confirm: string): AuthErrorKey | null {
  if (confirm.length === 0) return 'passwordRequired';
  if (password !== confirm) return 'passwordMismatch';
  return null;
}

/** Email codes and Google authenticator codes are both six digits (SPEC §5). */
export function checkCode(value: string): AuthErrorKey | null {
  const v = value.trim();
  if (v.length === 0) return 'codeRequired';
  if (!/^\d{6}$/.test(v)) return 'googleCodeInvalid';
  return null;
}

export function checkNickname(value: string): AuthErrorKey | null {
  const v = value.trim();
  if (v.length < 1 || v.length > 20) return 'nicknameLength';
  return null;
}

/** Accepted avatar types: the file input's `accept` and the client check use the same list. */
export const AVATAR_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
const AVATAR_EXT_RE = /\.(jpe?g|png)$/i;
const AVATAR_MIME = new Set(['image/jpeg', 'image/png', 'image/jpg']);

/**
 * Avatar file check (SPEC §5: jpg, png, jpeg; at most 2 MB). Both the name and the declared
 * MIME type must agree, since `accept` on the input is only a hint the user can bypass.
 * The server checks the bytes again.
 */
export function checkAvatarFile(file: { name: string; type: string; size: number }): AuthErrorKey | null {
  if (!AVATAR_EXT_RE.test(file.name) || !AVATAR_MIME.has(file.type.toLowerCase())) return 'onlyImages';
  if (file.size > AVATAR_MAX_BYTES) return 'avatarTooLarge';
  return null;
}

/** A form's errors: one optional message key per field. */
export type FieldErrors<F extends string> = Partial<Record<F, AuthErrorKey>>;

/** Drops the `null`s so `Object.keys(errors).length === 0` means the form is valid. */
export function collectErrors<F extends string>(checks: Record<F, AuthErrorKey | null>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const key of Object.keys(checks) as F[]) {
    const err = checks[key];
    if (err !== null) out[key] = err;
  }
  return out;
}

export function hasErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.keys(errors).length > 0;
}
