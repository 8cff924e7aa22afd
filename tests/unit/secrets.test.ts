import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classifyField, createRedactor } from '../../src/ports/redact.ts';
import { secretClassOf } from '../../src/protocol/secrets.ts';

/**
 * Issue 10: the log redactor works from one key list (src/protocol/secrets.ts). This test walks the
 * shape of EVERY zod schema exported by EVERY file of src/protocol (a new file or schema is picked
 * up by the glob) and, for every field whose name looks like it holds a secret or a document
 * number, checks that the redactor hides its value (as a string and as a number) inside an object
 * shaped like the schema. A new secret field without a key-list entry fails here, unless it is named
 * in PUBLIC below with the reason it is not secret.
 */

/** Names that look like a secret or a document number. Deliberately broad: false alarms go to PUBLIC. */
const LOOKS_SECRET =
  /pass|pwd|code|secret|token|otp|totp|captcha|pin$|^pin|doc.?(no|num)|document|passport|idcard|id.?(no|num)|ssn|taxid|private|mnemonic|authori[sz]ation|cookie|otpauth|^uri$/i;

/** Fields that match LOOKS_SECRET but hold nothing secret, and why. */
const PUBLIC: Record<string, string> = {
  inviteCode: 'the referral code: public by design, printed in invitation links and QR codes',
  docNumberMasked: 'the server already masks it (only the last characters are shown)',
};

interface Field {
  schema: string;
  name: string;
  siblings: string[];
}

/** Every object field reachable in a zod schema, with the names of its siblings. */
function fieldsOf(schemaName: string, s: unknown, out: Field[] = [], seen = new Set<unknown>()): Field[] {
  if (!(s instanceof z.ZodType) || seen.has(s)) return out;
  seen.add(s);
  const def = (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (k: string) => fieldsOf(schemaName, def[k], out, seen);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      for (const [name, v] of Object.entries(shape)) {
        out.push({ schema: schemaName, name, siblings: Object.keys(shape) });
        fieldsOf(schemaName, v, out, seen);
      }
      break;
    }
    case 'pipe':
      inner('in');
      inner('out');
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
    case 'promise':
      inner('innerType');
      break;
    case 'array':
      inner('element');
      break;
    case 'union':
      for (const o of def.options as unknown[]) fieldsOf(schemaName, o, out, seen);
      break;
    case 'intersection':
      inner('left');
      inner('right');
      break;
    case 'record':
    case 'map':
      inner('valueType');
      break;
    case 'tuple':
      for (const o of def.items as unknown[]) fieldsOf(schemaName, o, out, seen);
      break;
    case 'lazy':
      fieldsOf(schemaName, (def.getter as () => unknown)(), out, seen);
      break;
  }
  return out;
}

/** What is wrong with the redaction of these schemas' secret-looking fields ([] when nothing). */
function redactionProblems(schemas: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [schemaName, s] of Object.entries(schemas)) {
    for (const f of fieldsOf(schemaName, s)) {
      if (!LOOKS_SECRET.test(f.name) || f.name in PUBLIC) continue;
      const where = `${f.schema}.${f.name}`;
      if (classifyField(f.name) === null) {
        problems.push(`${where}: no entry in the key list (src/protocol/secrets.ts)`);
        continue;
      }
      const base = Object.fromEntries(f.siblings.map((k) => [k, `plain-${k}`]));
      // `code` beside `msg` is the status of an envelope / error frame (200, 401...): a number there is kept on purpose.
      const isStatus = f.name === 'code' && f.siblings.includes('msg');
      for (const secret of isStatus ? ['S3cret-Value-42'] : ['S3cret-Value-42', 987_654]) {
        const sample = { ...base, [f.name]: secret };
        const out = JSON.stringify(createRedactor().redact({ body: sample }));
        if (out.includes(String(secret))) problems.push(`${where}: ${typeof secret} value survives redaction: ${out}`);
      }
    }
  }
  return problems;
}

const modules = import.meta.glob('../../src/protocol/*.ts', { eager: true }) as Record<string, Record<string, unknown>>;
const ALL_SCHEMAS: Record<string, unknown> = {};
for (const [file, mod] of Object.entries(modules)) {
  for (const [name, v] of Object.entries(mod)) if (v instanceof z.ZodType) ALL_SCHEMAS[`${file.split('/').pop()}:${name}`] = v;
}

describe('redaction key list against every zod schema of src/protocol', () => {
  it('finds the protocol schemas and their secret fields (the walk is not empty)', () => {
    expect(Object.keys(modules).length).toBeGreaterThanOrEqual(5);
    const secretFields = Object.entries(ALL_SCHEMAS)
      .flatMap(([n, s]) => fieldsOf(n, s))
      .filter((f) => LOOKS_SECRET.test(f.name) && !(f.name in PUBLIC))
      .map((f) => `${f.schema.split(':')[1]}.${f.name}`);
    // A few known ones, so a broken walk cannot pass by finding nothing.
    expect(secretFields).toEqual(
      expect.arrayContaining(['loginBody.password', 'loginBody.code', 'resetPasswordBody.code', 'modifyPasswordBody.oldPassword', 'kycFieldsSchema.docNumber', 'clientMessageSchema.token']),
    );
  });

  it('every field that looks secret is redacted, as a string and as a number', () => {
    expect(redactionProblems(ALL_SCHEMAS)).toEqual([]);
  });

  it('a new secret field without a key-list entry fails the check', () => {
    const problems = redactionProblems({ withdrawBody: z.object({ amount: z.string(), withdrawPin: z.string() }) });
    expect(problems).toEqual(['withdrawBody.withdrawPin: no entry in the key list (src/protocol/secrets.ts)']);
  });

  it('PUBLIC names only fields that exist in some schema (no stale exceptions)', () => {
    const names = new Set(Object.entries(ALL_SCHEMAS).flatMap(([n, s]) => fieldsOf(n, s).map((f) => f.name)));
    for (const name of Object.keys(PUBLIC)) expect(names.has(name), name).toBe(true);
  });
});

describe('the keys issue 10 found missing', () => {
  it.each(['code', 'googleSecret', 'totpCode', 'verifyCode', 'docNo', 'doc_no', 'docNumber', 'password', 'oldPassword', 'confirmPassword', 'token', 'Authorization', 'secret', 'googleCode'])(
    '%s is redacted, as a string and as a number',
    (key) => {
      expect(secretClassOf(key)).not.toBeNull();
      const out = JSON.stringify(createRedactor().redact({ form: { [key]: '5eCr3t-77' }, q: { [key]: 135_790 } }));
      expect(out).not.toContain('5eCr3t-77');
      expect(out).not.toContain('135790');
    },
  );

  it('the status code of an envelope or error frame is kept; a numeric verification code is not', () => {
    const r = createRedactor();
    expect(r.redact({ code: 401, msg: 'Please log in again', data: null })).toEqual({ code: 401, msg: 'Please log in again', data: null });
    expect(JSON.parse(r.redactText('{"type":"error","msg":"Unauthorized","code":401}'))).toEqual({ type: 'error', msg: 'Unauthorized', code: 401 });
    expect(r.redact({ email: 'a@b.c', code: 123456 }).code).toMatch(/^<redacted:code#\d+>$/);
  });

  it('ordinary fields stay readable', () => {
    for (const key of ['email', 'symbol', 'price', 'inviteCode', 'docType', 'country', 'clientOrderId']) expect(secretClassOf(key), key).toBeNull();
  });
});

describe('server log: request URLs', () => {
  it('query parameters on the key list lose their value; others stay', async () => {
    const { redactUrl } = await import('../../server/http/logRedact.ts');
    expect(redactUrl('/api/user/check?email=a%40b.c&code=123456&googleSecret=JBSWY3DP')).toBe('/api/user/check?email=a%40b.c&code=[redacted]&googleSecret=[redacted]');
    expect(redactUrl('/api/market/depth?symbol=BTCUSDT')).toBe('/api/market/depth?symbol=BTCUSDT');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
