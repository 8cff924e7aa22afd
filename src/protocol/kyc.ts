import { z } from 'zod';
import { emailSchema, KYC_IMAGE_MAX_BYTES, MSG } from './user.ts';
import type { KycStatus } from './user.ts';

/**
 * Identity verification (KYC; SPEC §3, §4, §5; docs/KYC.md). Shared by the server (zod parsing of
 * the multipart text fields, the DTOs it answers) and the app (the same rules run in the form
 * before anything is sent, so both sides answer with the same messages).
 *
 * Lifecycle of `users.kyc_status`: unverified ─submit→ review ─approve→ verified
 *                                                         └─reject(reason)→ unverified (resubmit)
 * Submissions are never deleted: each one is a row with its own status (review | verified |
 * rejected) and the user's status mirrors the latest decision.
 */

/** REST paths under /api (the app's api client adds /api). */
export const KYC_PATHS = {
  /** GET → KycStatusDto. */
  status: '/kyc/status',
  /** POST multipart: the {@link KycFields} text parts + `cover` and `info` image files → KycStatusDto (now `review`). */
  submit: '/kyc/submit',
  /** Dev only (config.exposeOutbox): POST {email, decision, reason?} → KycStatusDto. */
  devReview: '/dev/kyc/review',
} as const;

/** SPEC §3 document types, in the order the form offers them. */
export const KYC_DOC_TYPES = ['idCard', 'passport', 'driverLicense', 'other'] as const;
export const kycDocTypeSchema = z.enum(KYC_DOC_TYPES);
export type KycDocType = z.infer<typeof kycDocTypeSchema>;

/** Status of one submission (users.kyc_status is the account-level {@link KycStatus}). */
export type KycSubmissionStatus = 'review' | 'verified' | 'rejected';

/**
 * ISO 3166-1 alpha-2 codes (officially assigned). The form localises them with
 * `Intl.DisplayNames(lang, { type: 'region' })`; the server accepts only these.
 */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
const COUNTRY_SET = new Set(COUNTRY_CODES);

/** Longest accepted first / last name and document number. */
export const KYC_NAME_MAX = 50;
export const KYC_DOC_NUMBER_MIN = 4;
export const KYC_DOC_NUMBER_MAX = 30;

/** Envelope and inline messages (English; the UI translates the known ones). SPEC §5 texts where it has them. */
export const KYC_MSG = {
  countryRequired: 'Please select a country or region',
  docTypeRequired: 'Please select a document type',
  firstNameRequired: 'Please enter your first name',
  lastNameRequired: 'Please enter your last name',
  nameTooLong: `Names must be at most ${KYC_NAME_MAX} characters`,
  docNumberRequired: 'Please enter the document number',
  docNumberInvalid: `The document number must be ${KYC_DOC_NUMBER_MIN} to ${KYC_DOC_NUMBER_MAX} letters, digits or hyphens`,
  coverRequired: 'Please upload the document cover photo',
  infoRequired: 'Please upload the information page photo',
  onlyImages: MSG.onlyImages,
  imageTooLarge: 'The image must be at most 8MB',
  submitted: 'Submitted, your identity verification is under review',
  alreadyInReview: 'Your identity verification is already under review',
  alreadyVerified: 'Your identity is already verified',
  notInReview: 'There is no submission under review',
  reasonRequired: 'Please enter the reason for the rejection',
  approved: 'Identity verification approved',
  rejected: 'Identity verification rejected',
  userNotFound: 'User not found',
} as const;
export type KycMsgKey = keyof typeof KYC_MSG;

const MSG_KEY_BY_TEXT = new Map<string, KycMsgKey>(Object.entries(KYC_MSG).map(([k, v]) => [v, k as KycMsgKey]));

/** The KYC_MSG key of a server or validation message, or null for any other text (shown as is). */
export function kycMsgKey(msg: string): KycMsgKey | null {
  return MSG_KEY_BY_TEXT.get(msg) ?? null;
}

const requiredText = (msg: string) => z.string({ error: msg }).trim().min(1, msg);

/** The text parts of POST /kyc/submit. Also the client form's rules (see {@link validateKycForm}). */
export const kycFieldsSchema = z.object({
  country: requiredText(KYC_MSG.countryRequired)
    .transform((s) => s.toUpperCase())
    .refine((s) => COUNTRY_SET.has(s), KYC_MSG.countryRequired),
  docType: z.enum(KYC_DOC_TYPES, { error: KYC_MSG.docTypeRequired }),
  firstName: requiredText(KYC_MSG.firstNameRequired).max(KYC_NAME_MAX, KYC_MSG.nameTooLong),
  lastName: requiredText(KYC_MSG.lastNameRequired).max(KYC_NAME_MAX, KYC_MSG.nameTooLong),
  docNumber: requiredText(KYC_MSG.docNumberRequired).regex(
    new RegExp(`^[A-Za-z0-9-]{${KYC_DOC_NUMBER_MIN},${KYC_DOC_NUMBER_MAX}}$`),
    KYC_MSG.docNumberInvalid,
  ),
});
export type KycFields = z.infer<typeof kycFieldsSchema>;
export type KycTextField = keyof KycFields;
export const KYC_TEXT_FIELDS: readonly KycTextField[] = ['country', 'docType', 'firstName', 'lastName', 'docNumber'];

/** The two photos (multipart file part names). */
export const KYC_IMAGE_SLOTS = ['cover', 'info'] as const;
export type KycImageSlot = (typeof KYC_IMAGE_SLOTS)[number];
export type KycFormField = KycTextField | KycImageSlot;

/** Accepted photo types (SPEC §5: jpg, png, jpeg); the file input's `accept` uses the same list. */
export const KYC_IMAGE_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
const IMAGE_EXT_RE = /\.(jpe?g|png)$/i;
const IMAGE_MIME = new Set(['image/jpeg', 'image/png', 'image/jpg']);

/** What the client knows of a chosen file (a browser File satisfies it). */
export interface KycFileInfo {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/**
 * The client-side check of one photo: extension AND declared type must be jpg/jpeg/png, at most
 * 8 MB (SPEC §5, §9). The server checks the bytes again (magic numbers), so this is a courtesy.
 */
export function checkKycImage(file: KycFileInfo): string | null {
  if (!IMAGE_EXT_RE.test(file.name) || !IMAGE_MIME.has(file.type.toLowerCase())) return KYC_MSG.onlyImages;
  if (file.size > KYC_IMAGE_MAX_BYTES) return KYC_MSG.imageTooLarge;
  if (file.size === 0) return KYC_MSG.onlyImages;
  return null;
}

/** The form as the user fills it: raw strings and the chosen photos. */
export interface KycFormValues<F extends KycFileInfo = KycFileInfo> {
  country: string;
  docType: string;
  firstName: string;
  lastName: string;
  docNumber: string;
  cover: F | null;
  info: F | null;
}

export type KycFormErrors = Partial<Record<KycFormField, string>>;

/** Every rule the server applies that the client can check, one message per field (empty = valid). */
export function validateKycForm(v: KycFormValues): KycFormErrors {
  const errors: KycFormErrors = {};
  const parsed = kycFieldsSchema.safeParse({ country: v.country, docType: v.docType, firstName: v.firstName, lastName: v.lastName, docNumber: v.docNumber });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && (KYC_TEXT_FIELDS as readonly string[]).includes(field) && errors[field as KycTextField] === undefined) {
        errors[field as KycTextField] = issue.message;
      }
    }
  }
  if (v.cover === null) errors.cover = KYC_MSG.coverRequired;
  else {
    const e = checkKycImage(v.cover);
    if (e) errors.cover = e;
  }
  if (v.info === null) errors.info = KYC_MSG.infoRequired;
  else {
    const e = checkKycImage(v.info);
    if (e) errors.info = e;
  }
  return errors;
}

/**
 * The document number as it may be shown or logged: at most the first 2 and last 4 characters
 * stay visible (fewer for short numbers), never more than half of it; the rest are `*`.
 */
export function maskDocNumber(n: string): string {
  const len = n.length;
  if (len === 0) return '';
  const head = len >= 12 ? 2 : 0;
  const tail = len >= 8 ? 4 : Math.floor(len / 2);
  return n.slice(0, head) + '*'.repeat(len - head - tail) + n.slice(len - tail);
}

/** The latest submission as the user may see it: the number masked, never the photos. */
export interface KycSubmissionSummary {
  id: number;
  status: KycSubmissionStatus;
  country: string;
  docType: KycDocType;
  firstName: string;
  lastName: string;
  docNumberMasked: string;
  /** The reviewer's reason when rejected, else null. */
  reason: string | null;
  /** Unix ms. */
  submittedAt: number;
  reviewedAt: number | null;
}

/**
 * GET /kyc/status (and the `kyc` user-socket frame's data). `status` is users.kyc_status; the
 * screen shows "rejected" when it is `unverified` and the latest submission was rejected.
 */
export interface KycStatusDto {
  status: KycStatus;
  latest: KycSubmissionSummary | null;
}

/** True when the account is unverified because its latest submission was rejected (can resubmit). */
export function isRejected(s: KycStatusDto): boolean {
  return s.status === 'unverified' && s.latest?.status === 'rejected';
}

const summarySchema = z.object({
  id: z.number().int(),
  status: z.enum(['review', 'verified', 'rejected']),
  country: z.string(),
  docType: kycDocTypeSchema,
  firstName: z.string(),
  lastName: z.string(),
  docNumberMasked: z.string(),
  reason: z.string().nullable(),
  submittedAt: z.number(),
  reviewedAt: z.number().nullable(),
});

/** Parses a status DTO from the network (the socket frame, a response) once at the edge. */
export const kycStatusSchema = z.object({
  status: z.enum(['unverified', 'review', 'verified']),
  latest: summarySchema.nullable(),
});

/** The user-socket frame pushed after every submit and review decision. */
export interface KycFrame {
  type: 'kyc';
  data: KycStatusDto;
}

/** Narrows an inbound user frame to a well-formed KYC frame. */
export function isKycFrame(f: { type: string; data?: unknown }): f is KycFrame {
  return f.type === 'kyc' && kycStatusSchema.safeParse(f.data).success;
}

export const KYC_DECISIONS = ['approve', 'reject'] as const;
export type KycDecision = (typeof KYC_DECISIONS)[number];

/** POST /dev/kyc/review (development only). A rejection needs a reason. */
export const kycDevReviewBody = z
  .object({
    email: emailSchema,
    decision: z.enum(KYC_DECISIONS),
    reason: z.string().trim().max(200).optional(),
  })
  .refine((b) => b.decision === 'approve' || (b.reason !== undefined && b.reason.length > 0), { message: KYC_MSG.reasonRequired, path: ['reason'] });
export type KycDevReviewBody = z.input<typeof kycDevReviewBody>;
