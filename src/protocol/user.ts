import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';

/**
 * Request and response shapes of the /api/user calls (SPEC §7). The server validates every
 * body with these schemas and the app builds its requests from the same types.
 * Messages are the SPEC §5 texts, which the UI also shows (translated) before a request is sent.
 */
export const MSG = {
  emailRequired: 'Please enter an email',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Please enter a password',
  passwordLength: 'Password length must be between 6 and 16 characters',
  passwordMismatch: 'The two passwords do not match',
  /** A change to the same password would only lock withdrawals for 24 h (issue 26). */
  passwordSameAsOld: 'The new password must be different from the old one',
  agreementRequired: 'Please read and agree to the relevant agreement policies',
  registerAgreement: 'Please check the user agreement',
  codeRequired: 'Please enter the verification code',
  googleCodeInvalid: 'Please enter the 6-digit code',
  onlyImages: 'Only image files are allowed!',
  avatarTooLarge: 'The image must be at most 2MB',
  nicknameLength: 'Nickname must be between 1 and 20 characters',
} as const;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 16;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const KYC_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Withdrawal lock after a password reset (reset screen) and after a password change (change screen). */
export const RESET_WITHDRAW_LOCK_HOURS = 48;
export const MODIFY_WITHDRAW_LOCK_HOURS = 24;

export const emailSchema = z
  .string({ error: MSG.emailRequired })
  .trim()
  .min(1, MSG.emailRequired)
  .max(254, MSG.emailInvalid)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, MSG.emailInvalid)
  .transform((s) => s.toLowerCase());

export const passwordSchema = z
  .string({ error: MSG.passwordRequired })
  .min(1, MSG.passwordRequired)
  .min(PASSWORD_MIN, MSG.passwordLength)
  .max(PASSWORD_MAX, MSG.passwordLength);

export const sixDigitSchema = z
  .string({ error: MSG.codeRequired })
  .trim()
  .regex(/^\d{6}$/, MSG.googleCodeInvalid);

/** What an email code is for. Codes are bound to (email, purpose). */
export const mailCodePurposeSchema = z.enum(['register', 'login', 'reset', 'security']);
export type MailCodePurpose = z.infer<typeof mailCodePurposeSchema>;

/**
 * POST /user/sendMailCode. A 'security' code (a logged-in action such as a withdrawal) always goes
 * to the session's own email (issue 26, Minor 16): `email` may be left out, and any other address
 * is refused with {@link USER_MSG.securityEmailOnly}. Every other purpose needs `email`.
 */
export const sendMailCodeBody = z
  .object({ email: emailSchema.optional(), type: mailCodePurposeSchema })
  .superRefine((b, ctx) => {
    if (b.type !== 'security' && b.email === undefined) ctx.addIssue({ code: 'custom', message: MSG.emailRequired, path: ['email'] });
  });
export type SendMailCodeBody = z.infer<typeof sendMailCodeBody>;

export const registerBody = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: MSG.passwordRequired }),
    code: sixDigitSchema,
    inviteCode: z.string().trim().max(32).optional().default(''),
    agree: z.literal(true, { error: MSG.registerAgreement }),
  })
  .refine((b) => b.password === b.confirmPassword, { message: MSG.passwordMismatch, path: ['confirmPassword'] });
export type RegisterBody = z.input<typeof registerBody>;

/** Step one of login: check the credentials and learn which security step follows. */
export const authTypeBody = z.object({ email: emailSchema, password: passwordSchema });
export type AuthTypeBody = z.infer<typeof authTypeBody>;
export type AuthType = 'email' | 'google';
export interface AuthTypeResult {
  authType: AuthType;
}

/** Step two: credentials plus the security code. Sent as a form payload (SPEC §7). */
export const loginBody = z.object({
  email: emailSchema,
  password: passwordSchema,
  code: sixDigitSchema,
});
export type LoginBody = z.infer<typeof loginBody>;
export interface LoginResult {
  token: string;
}

export const resetPasswordBody = z
  .object({
    email: emailSchema,
    code: sixDigitSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: MSG.passwordRequired }),
  })
  .refine((b) => b.password === b.confirmPassword, { message: MSG.passwordMismatch, path: ['confirmPassword'] });
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

export const modifyPasswordBody = z
  .object({
    oldPassword: passwordSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: MSG.passwordRequired }),
  })
  .refine((b) => b.password !== b.oldPassword, { message: MSG.passwordSameAsOld, path: ['password'] })
  .refine((b) => b.password === b.confirmPassword, { message: MSG.passwordMismatch, path: ['confirmPassword'] });
export type ModifyPasswordBody = z.input<typeof modifyPasswordBody>;

/** Text fields of modify-info (multipart/form-data; the optional `avatar` file part is checked by content). */
export const modifyInfoFields = z.object({
  nickname: z.string().trim().min(1, MSG.nicknameLength).max(20, MSG.nicknameLength).optional(),
});

export const checkGoogleCodeBody = z.object({ code: sixDigitSchema });
export const bindGoogleBody = z.object({ code: sixDigitSchema });
export interface GoogleCodeResult {
  secret: string;
  /** otpauth://totp/... for the QR code. */
  uri: string;
}

export const loginHistoryBody = pageQuerySchema;

export type KycStatus = 'unverified' | 'review' | 'verified';

/** GET /user/info. */
export interface UserInfo {
  id: number;
  nickname: string;
  /** Image address, or '' for the default avatar. */
  avatar: string;
  cover_email: string;
  kycStatus: KycStatus;
  googleBound: boolean;
  inviteCode: string;
  /** Unix ms until which withdrawals are locked after a password change or reset; 0 when not locked. */
  withdrawLockUntil: number;
  createdAt: number;
}

export interface LoginRecord {
  id: number;
  /** Unix ms. */
  time: number;
  client: string;
  ip: string;
  account: string;
}

/** Envelope messages the server answers on /api/user calls (docs/API.md), so the UI can match or translate them. */
export const USER_MSG = {
  codeSent: 'Verification code sent',
  /** A security code asked for an address that is not the logged-in account's (issue 26, Minor 16). */
  securityEmailOnly: "A security code can only be sent to your account's email",
  resendWait: 'Please wait before requesting another code',
  emailTaken: 'This email is already registered',
  inviteInvalid: 'Invalid referral code',
  codeInvalid: 'Invalid verification code',
  credentialsInvalid: 'Incorrect email or password',
  oldPasswordInvalid: 'Incorrect old password',
  googleCodeInvalid: 'Invalid Google verification code',
  googleAlreadyBound: 'Google authenticator already bound',
  registered: 'Registration successful',
  loggedIn: 'Login successful',
  loggedOut: 'Logout successful',
  passwordReset: 'Password reset successful',
  passwordChanged: 'Password changed successfully',
  infoSaved: 'Saved successfully',
  googleBound: 'Google authenticator bound',
  loginAgain: 'Please log in again',
  tooManyRequests: 'Too many requests, please try again later',
} as const;

/** GET /api/dev/outbox query (development only: the latest mailed codes). */
export const outboxQuery = z.object({
  email: emailSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

/** POST /user/check-google-code. */
export interface CheckGoogleCodeResult {
  valid: boolean;
}

/** The brand name: SPEC's {product} placeholder (e.g. common:kycRequired's `{{product}}`). */
export const PRODUCT_NAME = 'RiskFree';

/** SPEC §5, with {product} filled in: the message a feature that needs identity verification answers with. */
export const KYC_REQUIRED_MSG = `To use ${PRODUCT_NAME} full services, please complete identity verification.`;
