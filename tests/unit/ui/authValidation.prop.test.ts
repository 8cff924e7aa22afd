import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  checkAvatarFile,
  checkCode,
  checkConfirm,
  checkEmail,
  checkNewPassword,
  checkNickname,
  checkPassword,
} from '../../../src/ui/components/form/authValidation.ts';
import {
  AVATAR_MAX_BYTES,
  MSG,
  emailSchema,
  modifyInfoFields,
  modifyPasswordBody,
  passwordSchema,
  sixDigitSchema,
} from '../../../src/protocol/user.ts';
import { auth } from '../../../src/ui/i18n/resources/auth.ts';
import { common } from '../../../src/ui/i18n/resources/common.ts';
import { ERROR_TEXT, errorText } from '../../../src/ui/components/form/errorText.ts';

/** The first zod issue message, or null when the schema accepts the value. */
function zodMessage(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, v: unknown): string | null {
  const r = schema.safeParse(v);
  return r.success ? null : (r.error?.issues[0]?.message ?? 'unknown');
}

const emailish = fc.oneof(
  fc.emailAddress(),
  fc.string(),
  fc.constantFrom('', ' ', 'a@b', 'a@b.c', ' a@b.co ', '@x.y', 'a b@c.d', 'x@y.z\n'),
  fc.tuple(fc.string(), fc.constantFrom('@', '.', ' '), fc.string()).map(([a, s, b]) => a + s + b),
);

describe('client validation agrees with the server schemas', () => {
  it('email: same verdict and same message as emailSchema', () => {
    fc.assert(
      fc.property(emailish, (v) => {
        const key = checkEmail(v);
        const serverMsg = zodMessage(emailSchema, v);
        expect(key === null ? null : MSG[key]).toBe(serverMsg);
      }),
      { numRuns: 500 },
    );
  });

  it('password: same verdict and same message as passwordSchema', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (v) => {
        const key = checkPassword(v);
        expect(key === null ? null : MSG[key]).toBe(zodMessage(passwordSchema, v));
      }),
    );
  });

  it('codes: accepted exactly when sixDigitSchema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^\s?\d{5,7}\s?$/)), (v) => {
        expect(checkCode(v) === null).toBe(zodMessage(sixDigitSchema, v) === null);
      }),
    );
  });

  it('a password change: the form sends exactly what modifyPasswordBody accepts, the same password again included (issue 26)', () => {
    const pw = fc.oneof(fc.constantFrom('secret12', 'secret34', 'abc'), fc.string({ minLength: 0, maxLength: 18 }));
    fc.assert(
      fc.property(pw, pw, fc.boolean(), (oldPassword, password, confirmSame) => {
        const confirm = confirmSame ? password : `${password}x`;
        const form = [checkPassword(oldPassword), checkNewPassword(oldPassword, password), checkConfirm(password, confirm)].every((e) => e === null);
        expect(form).toBe(modifyPasswordBody.safeParse({ oldPassword, password, confirmPassword: confirm }).success);
      }),
    );
    expect(checkNewPassword('secret12', 'secret12')).toBe('passwordSameAsOld');
    expect(zodMessage(modifyPasswordBody, { oldPassword: 'secret12', password: 'secret12', confirmPassword: 'secret12' })).toBe(MSG.passwordSameAsOld);
  });

  it('nickname: accepted exactly when modifyInfoFields accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 25 }), (v) => {
        expect(checkNickname(v) === null).toBe(modifyInfoFields.safeParse({ nickname: v }).success);
      }),
    );
  });
});

describe('spec §5 messages', () => {
  it('shows the four login texts for the four failure kinds', () => {
    expect(MSG[checkEmail('')!]).toBe('Please enter an email');
    expect(MSG[checkEmail('not-an-email')!]).toBe('Please enter a valid email');
    expect(MSG[checkPassword('')!]).toBe('Please enter a password');
    expect(MSG[checkPassword('12345')!]).toBe('Password length must be between 6 and 16 characters');
    expect(MSG[checkPassword('x'.repeat(17))!]).toBe('Password length must be between 6 and 16 characters');
    expect(checkPassword('123456')).toBeNull();
    expect(checkPassword('x'.repeat(16))).toBeNull();
  });

  it('every message key resolves, in English, to the protocol text the server sends', () => {
    const en: Record<string, Record<string, string>> = { auth: auth.en, common: common.en };
    const t = (nsKey: string, params?: Record<string, unknown>): string => {
      const [ns = '', key = ''] = nsKey.split(':');
      const raw = en[ns]?.[key] ?? `MISSING ${nsKey}`;
      return raw.replace(/\{\{(\w+)\}\}/g, (_m, p: string) => String(params?.[p] ?? ''));
    };
    for (const key of Object.keys(MSG) as (keyof typeof MSG)[]) {
      expect(errorText(t, key)).toBe(MSG[key]);
    }
  });

  it('every language has a text for every message key', () => {
    for (const lang of ['en', 'zh', 'hk', 'jp', 'ko'] as const) {
      const res: Record<string, Record<string, string>> = { auth: auth[lang], common: common[lang] };
      for (const ref of Object.values(ERROR_TEXT)) expect(res[ref.ns]?.[ref.key], `${lang} ${ref.ns}:${ref.key}`).toBeTruthy();
    }
  });

  it('confirmation: mismatch is reported only when both are filled and differ', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        expect(checkConfirm(a, b)).toBe(a === b ? null : 'passwordMismatch');
      }),
    );
    expect(checkConfirm('abcdef', '')).toBe('passwordRequired');
  });
});

describe('avatar file check', () => {
  const imageName = fc.tuple(fc.stringMatching(/^[a-z0-9_-]{1,10}$/), fc.constantFrom('.jpg', '.JPG', '.jpeg', '.png', '.PNG'));
  it('accepts jpg/jpeg/png up to 2MB and nothing larger', () => {
    fc.assert(
      fc.property(imageName, fc.constantFrom('image/jpeg', 'image/png'), fc.integer({ min: 0, max: 4 * 1024 * 1024 }), ([base, ext], type, size) => {
        const verdict = checkAvatarFile({ name: base + ext, type, size });
        expect(verdict).toBe(size > AVATAR_MAX_BYTES ? 'avatarTooLarge' : null);
      }),
    );
  });
  it('rejects other types whatever the size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('a.gif', 'a.webp', 'a.svg', 'a.pdf', 'png', 'a.png.exe'),
        fc.constantFrom('image/gif', 'image/webp', 'application/pdf', ''),
        fc.nat(3_000_000),
        (name, type, size) => {
          expect(checkAvatarFile({ name, type, size })).toBe('onlyImages');
        },
      ),
    );
  });
});

describe('translations', () => {
  it('all five languages have the same keys and no empty text', () => {
    const keys = Object.keys(auth.en).sort();
    for (const lang of ['zh', 'hk', 'jp', 'ko'] as const) {
      expect(Object.keys(auth[lang]).sort()).toEqual(keys);
      for (const v of Object.values(auth[lang])) expect(v.length).toBeGreaterThan(0);
    }
  });
});
