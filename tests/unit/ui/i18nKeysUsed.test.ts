import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPENSATION_STATUSES } from '../../../src/protocol/compensation.ts';
import { KYC_DOC_TYPES } from '../../../src/protocol/kyc.ts';
import { KLINE_INTERVALS } from '../../../src/protocol/market.ts';
import { LEDGER_ENTRY_TYPES, ORDER_KINDS, TRIGGER_BY, orderStatusSchema } from '../../../src/protocol/trading.ts';
import { VOUCHER_KINDS, VOUCHER_STATUSES } from '../../../src/protocol/vouchers.ts';
import { DEPOSIT_STATUSES, WITHDRAWAL_STATUSES } from '../../../src/protocol/wallet.ts';
import { FEATURES } from '../../../src/ui/i18n/index.ts';
import { LANGUAGES } from '../../../src/ui/i18n/languages.ts';

/**
 * Issue 26, Major 3: raw keys such as `kind_stopMarket` reached the screen in every language. The
 * resource test (i18n.test.ts) checks that the five languages hold the same keys; this one checks
 * the other direction: every key the UI asks for exists, in every language.
 *
 * - Literal keys (`t('x')`, `t('ns:x')`, aliases `tc(` / `td(` ...): found in the namespaces the
 *   file opens with useTranslation (plus `common`, the default), or in the one named by `ns:`.
 * - Computed keys (`t(\`kind_${o.kind}\`)`): every family needs at least one key of its shape in
 *   those namespaces, and the families over a protocol enum are checked value by value
 *   ({@link DOMAINS}): a new order kind, status or ledger type without its text fails here.
 */

const ROOT = join(__dirname, '../../../src/ui');
const LANGS = LANGUAGES.map((l) => l.code);
type Ns = keyof typeof FEATURES;
const NAMESPACES = Object.keys(FEATURES) as Ns[];

const keysOf = (ns: string, lang: string): Set<string> => new Set(Object.keys((FEATURES as unknown as Record<string, Record<string, Record<string, string>>>)[ns]?.[lang] ?? {}));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'i18n' ? [] : files(p);
    return /\.(tsx?|ts)$/.test(name) ? [p] : [];
  });
}

interface Use {
  file: string;
  line: number;
  /** The literal key, or the template's text with `${...}` as `*`. */
  key: string;
  template: boolean;
}

// A key is the whole first argument: a literal followed by `,` or `)` (not `'kind.' + kind`, which is computed).
const CALL = /\b(?:t|ta|tc|td|tf)\(\s*(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`)(?=\s*[,)])/g;

function usesIn(file: string): { uses: Use[]; namespaces: string[] } {
  const text = readFileSync(file, 'utf8');
  const namespaces = new Set<string>();
  for (const m of text.matchAll(/useTranslation\(([^)]*)\)/g)) {
    const arg = m[1] ?? '';
    const names = [...arg.matchAll(/'([^']+)'/g)].map((x) => x[1] ?? '');
    if (names.length === 0) namespaces.add('common');
    for (const n of names) namespaces.add(n);
  }
  const uses: Use[] = [];
  for (const m of text.matchAll(CALL)) {
    const line = text.slice(0, m.index).split('\n').length;
    if (m[3] !== undefined) uses.push({ file, line, key: m[3].replace(/\$\{[^}]*\}/g, '*'), template: m[3].includes('${') });
    else uses.push({ file, line, key: (m[1] ?? m[2]) as string, template: false });
  }
  return { uses, namespaces: [...namespaces] };
}

/** Where a key is looked up: its `ns:` prefix, else the file's namespaces and `common` (any namespace for a helper handed a `t`). */
function lookup(key: string, fileNs: readonly string[]): { namespaces: string[]; key: string } {
  const m = /^([a-zA-Z]+):(.*)$/.exec(key);
  if (m && NAMESPACES.includes(m[1] as Ns)) return { namespaces: [m[1] as string], key: m[2] ?? '' };
  return { namespaces: fileNs.length > 0 ? [...fileNs, 'common'] : NAMESPACES, key };
}

/** Families of computed keys over a protocol enum: every value must have its text in each namespace. */
const DOMAINS: { prefix: string; namespaces: Ns[]; values: readonly string[] }[] = [
  { prefix: 'kind_', namespaces: ['assets', 'trade'], values: [...ORDER_KINDS, 'liquidation'] },
  { prefix: 'status_', namespaces: ['assets', 'trade'], values: orderStatusSchema.options },
  { prefix: 'ledger_', namespaces: ['assets', 'trade'], values: LEDGER_ENTRY_TYPES },
  { prefix: 'triggerBy_', namespaces: ['assets', 'trade', 'positions'], values: TRIGGER_BY },
  { prefix: 'liquidity_', namespaces: ['assets', 'trade'], values: ['maker', 'taker'] },
  { prefix: 'iv_', namespaces: ['trade'], values: KLINE_INTERVALS },
  { prefix: 'status_', namespaces: ['compensation'], values: COMPENSATION_STATUSES },
  { prefix: 'kind_', namespaces: ['coupon'], values: VOUCHER_KINDS },
  { prefix: 'status_', namespaces: ['coupon'], values: VOUCHER_STATUSES },
  { prefix: 'wd_', namespaces: ['wallet'], values: WITHDRAWAL_STATUSES },
  { prefix: 'dep_', namespaces: ['wallet'], values: DEPOSIT_STATUSES.filter((s) => s !== 'confirming') },
  { prefix: 'doc_', namespaces: ['kyc'], values: KYC_DOC_TYPES },
];

const scanned = files(ROOT).map(usesIn);

describe('every translation key the UI uses exists in every language', () => {
  it('scans the UI', () => {
    expect(scanned.reduce((n, f) => n + f.uses.length, 0)).toBeGreaterThan(500);
  });

  it('literal keys', () => {
    const missing: string[] = [];
    for (const { uses, namespaces } of scanned) {
      for (const u of uses.filter((x) => !x.template)) {
        const l = lookup(u.key, namespaces);
        for (const lang of LANGS) {
          if (!l.namespaces.some((ns) => keysOf(ns, lang).has(l.key))) missing.push(`${relative(ROOT, u.file)}:${u.line} ${lang} ${u.key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('computed keys: each family has keys of its shape in every language', () => {
    const missing: string[] = [];
    for (const { uses, namespaces } of scanned) {
      for (const u of uses.filter((x) => x.template)) {
        const l = lookup(u.key, namespaces);
        if (l.key === '*' || l.key.startsWith('*')) continue; // the whole key computed (`${ns}:${key}`): checked where it is built
        const [head = '', ...rest] = l.key.split('*');
        const tail = rest.at(-1) ?? '';
        for (const lang of LANGS) {
          const found = l.namespaces.some((ns) => [...keysOf(ns, lang)].some((k) => k.startsWith(head) && k.endsWith(tail) && k.length > head.length + tail.length));
          if (!found) missing.push(`${relative(ROOT, u.file)}:${u.line} ${lang} ${u.key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('computed keys over a protocol enum: every value has its text in every language', () => {
    const missing: string[] = [];
    for (const d of DOMAINS) {
      for (const ns of d.namespaces) {
        for (const lang of LANGS) {
          for (const v of d.values) if (!keysOf(ns, lang).has(`${d.prefix}${v}`)) missing.push(`${ns} ${lang} ${d.prefix}${v}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
