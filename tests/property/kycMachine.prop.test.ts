import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { EMPTY_KYC_FORM, kycMachine } from '../../src/machines/kycMachine.ts';
import type { KycForm } from '../../src/machines/kycMachine.ts';
import { checkKycImage, KYC_MSG, maskDocNumber, validateKycForm } from '../../src/protocol/kyc.ts';
import type { KycFileInfo, KycImageSlot, KycStatusDto, KycSubmissionStatus, KycTextField } from '../../src/protocol/kyc.ts';
import { KYC_IMAGE_MAX_BYTES } from '../../src/protocol/user.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the KYC machine over random interleavings of user input, HTTP answers and
 * user-socket frames:
 * - no double submit: at most one request in flight, one request per accepted `kyc.submit`, and
 *   only for a form that passes every client rule;
 * - never verified without a server answer saying so, and never un-verified afterwards;
 * - a failed submit goes back to the form with the exact input that was sent;
 * - a photo failing the type / 8 MB check never sits in the form.
 */

function dto(status: KycStatusDto['status'], sub: KycSubmissionStatus | null, reason: string | null = null): KycStatusDto {
  return {
    status,
    latest:
      sub === null
        ? null
        : { id: 1, status: sub, country: 'FR', docType: 'idCard', firstName: 'Marie', lastName: 'Curie', docNumberMasked: '****1867', reason, submittedAt: 1, reviewedAt: sub === 'review' ? null : 2 },
  };
}
const ANSWERS = {
  unverified: dto('unverified', null),
  rejected: dto('unverified', 'rejected', 'Blurry photo'),
  review: dto('review', 'review'),
  verified: dto('verified', 'verified'),
} as const;
type AnswerKind = keyof typeof ANSWERS;

const PNG: KycFileInfo = { name: 'cover.png', type: 'image/png', size: 1000 };
const FILES: (KycFileInfo | null)[] = [PNG, { name: 'p.jpg', type: 'image/jpeg', size: KYC_IMAGE_MAX_BYTES }, { name: 'big.png', type: 'image/png', size: KYC_IMAGE_MAX_BYTES + 1 }, { name: 'a.gif', type: 'image/gif', size: 10 }, null];
const VALUES: Record<KycTextField, string[]> = {
  country: ['', 'FR', 'ZZ'],
  docType: ['', 'passport', 'visa'],
  firstName: ['', 'Marie', 'x'.repeat(51)],
  lastName: ['', 'Curie'],
  docNumber: ['', 'AB12345', 'A B'],
};

type Cmd =
  | { k: 'field'; field: KycTextField; i: number }
  | { k: 'file'; slot: KycImageSlot; i: number }
  | { k: 'fillValid' }
  | { k: 'submit' }
  | { k: 'load'; how: AnswerKind | 'error' }
  | { k: 'answer'; how: 'ok' | 'network' | 'conflict' }
  | { k: 'frame'; how: AnswerKind }
  | { k: 'retry' };

const fieldArb = fc.constantFrom<KycTextField>('country', 'docType', 'firstName', 'lastName', 'docNumber');
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('field' as const), field: fieldArb, i: fc.nat(2) }),
  fc.record({ k: fc.constant('file' as const), slot: fc.constantFrom<KycImageSlot>('cover', 'info'), i: fc.nat(FILES.length - 1) }),
  fc.constant({ k: 'fillValid' as const }),
  fc.constant({ k: 'fillValid' as const }),
  fc.constant({ k: 'submit' as const }),
  fc.constant({ k: 'submit' as const }),
  fc.record({ k: fc.constant('load' as const), how: fc.constantFrom<AnswerKind | 'error'>('unverified', 'rejected', 'review', 'verified', 'error') }),
  fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('ok' as const, 'network' as const, 'conflict' as const) }),
  fc.record({ k: fc.constant('frame' as const), how: fc.constantFrom<AnswerKind>('unverified', 'rejected', 'review', 'verified') }),
  fc.constant({ k: 'retry' as const }),
);

/** A submit that fails on the network as a user meets it, so every run has failures to check. */
const failedSubmit: Cmd[] = [{ k: 'fillValid' }, { k: 'submit' }, { k: 'answer', how: 'network' }];
const cmdsArb: fc.Arbitrary<Cmd[]> = fc
  .array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 10 }, { arbitrary: fc.constant(failedSubmit), weight: 1 }), { minLength: 4, maxLength: 30 })
  .map((groups) => groups.flat());


interface Pending<I> {
  input: I;
  resolve: (s: KycStatusDto) => void;
  reject: (e: Error) => void;
}

function harness() {
  const loads: Pending<void>[] = [];
  const submits: Pending<KycForm>[] = [];
  let maxInFlight = 0;
  let started = 0;
  const actor = createActor(
    kycMachine.provide({
      actors: {
        fetchStatus: fromPromise<KycStatusDto>(() => new Promise((resolve, reject) => void loads.push({ input: undefined, resolve, reject }))),
        submit: fromPromise<KycStatusDto, KycForm>(
          ({ input, signal }) =>
            new Promise((resolve, reject) => {
              const p: Pending<KycForm> = { input, resolve, reject };
              submits.push(p);
              started += 1;
              maxInFlight = Math.max(maxInFlight, submits.length);
              // the machine left `submitting` (a frame decided): the request is no longer in flight
              signal.addEventListener('abort', () => {
                const i = submits.indexOf(p);
                if (i >= 0) submits.splice(i, 1);
              });
            }),
        ),
      },
    }),
  );
  actor.start();
  return { actor, loads, submits, maxInFlight: () => maxInFlight, started: () => started };
}

describe('kycMachine properties', () => {
  it('no double submit, never verified without the server, failures keep the form, bad photos never stored', async () => {
    let totalSent = 0;
    let failures = 0;
    await fc.assert(
      // Most runs start from an editable status so submits (and their failures) are common.
      fc.asyncProperty(fc.constantFrom<AnswerKind | 'error'>('unverified', 'rejected', 'unverified', 'review', 'verified', 'error'), cmdsArb, async (first, rest) => {
        const cmds: Cmd[] = [{ k: 'load', how: first }, ...rest];
        const h = harness();
        const sent: KycForm[] = [];
        let serverSaidVerified = false;
        let everVerified = false;
        for (const c of cmds) {
          const before = h.actor.getSnapshot();
          const sentBefore = h.started();
          let failedWith: KycForm | null = null;
          switch (c.k) {
            case 'field':
              h.actor.send({ type: 'kyc.field', field: c.field, value: VALUES[c.field][c.i % VALUES[c.field].length] ?? '' });
              break;
            case 'file':
              h.actor.send({ type: 'kyc.file', slot: c.slot, file: FILES[c.i] ?? null });
              break;
            case 'fillValid':
              for (const [field, value] of [['country', 'FR'], ['docType', 'passport'], ['firstName', 'Marie'], ['lastName', 'Curie'], ['docNumber', 'AB12345']] as const) {
                h.actor.send({ type: 'kyc.field', field, value });
              }
              h.actor.send({ type: 'kyc.file', slot: 'cover', file: PNG });
              h.actor.send({ type: 'kyc.file', slot: 'info', file: PNG });
              break;
            case 'submit':
              h.actor.send({ type: 'kyc.submit' });
              break;
            case 'load': {
              const p = h.loads.shift();
              if (!p) break;
              if (c.how === 'error') p.reject(new Error('offline'));
              else {
                if (c.how === 'verified') serverSaidVerified = true;
                p.resolve(ANSWERS[c.how]);
              }
              break;
            }
            case 'answer': {
              const p = h.submits.shift();
              if (!p) break;
              sent.push(p.input);
              if (c.how === 'ok') p.resolve(ANSWERS.review);
              else {
                p.reject(new Error(c.how === 'conflict' ? KYC_MSG.alreadyInReview : 'Network Error'));
                if (c.how === 'network') failedWith = p.input;
              }
              break;
            }
            case 'frame':
              if (c.how === 'verified') serverSaidVerified = true;
              h.actor.send({ type: 'kyc.frame', status: ANSWERS[c.how] });
              break;
            case 'retry':
              h.actor.send({ type: 'kyc.retry' });
              break;
          }
          await settle();
          const after = h.actor.getSnapshot();
          // a request starts only from the form, on a submit, with a valid form
          if (h.started() > sentBefore) {
            expect(h.started()).toBe(sentBefore + 1);
            expect(c.k).toBe('submit');
            expect(['unverified', 'rejected']).toContain(before.value);
            expect(validateKycForm(before.context.form)).toEqual({});
            expect(h.submits.at(-1)?.input).toEqual(before.context.form);
          }
          expect(h.submits.length).toBeLessThanOrEqual(1);
          expect(after.context.submits).toBe(h.started());
          // verified only on the server's word, and for good
          if (after.value === 'verified') {
            expect(serverSaidVerified).toBe(true);
            everVerified = true;
          }
          if (everVerified) expect(after.value).toBe('verified');
          // a failed submit returns to the form with the input intact
          if (failedWith !== null && before.value === 'submitting') {
            failures += 1;
            expect(['unverified', 'rejected']).toContain(after.value);
            expect(after.context.form).toEqual(failedWith);
            expect(after.context.submitError).toBe('Network Error');
          }
          for (const slot of ['cover', 'info'] as const) {
            const f = after.context.form[slot];
            if (f !== null) expect(checkKycImage(f)).toBeNull();
          }
        }
        totalSent += h.started();
        expect(h.maxInFlight()).toBeLessThanOrEqual(1);
        h.actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(totalSent).toBeGreaterThan(0);
    expect(failures).toBeGreaterThan(0);
  });

  it('a masked number never shows more than half of it, keeps its length, and hides any number of 4+ characters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9-]{1,30}$/), (n) => {
        const m = maskDocNumber(n);
        expect(m).toHaveLength(n.length);
        const visible = [...m].filter((ch, i) => ch !== '*' && ch === n[i]).length;
        expect(visible).toBeLessThanOrEqual(Math.floor(n.length / 2));
        if (n.length >= 4) expect(m).not.toBe(n);
      }),
    );
  });
});

describe('kycMachine walkthrough', () => {
  const valid = (a: ReturnType<typeof harness>['actor']) => {
    for (const [field, value] of [['country', 'FR'], ['docType', 'passport'], ['firstName', 'Marie'], ['lastName', 'Curie'], ['docNumber', 'AB12345']] as const) a.send({ type: 'kyc.field', field, value });
    a.send({ type: 'kyc.file', slot: 'cover', file: PNG });
    a.send({ type: 'kyc.file', slot: 'info', file: PNG });
  };

  it('submit → review → rejected by frame (prefilled, photos cleared) → resubmit → verified by frame', async () => {
    const h = harness();
    h.loads.shift()?.resolve(ANSWERS.unverified);
    await settle();
    expect(h.actor.getSnapshot().value).toBe('unverified');
    h.actor.send({ type: 'kyc.submit' });
    expect(h.actor.getSnapshot().context.errors).toMatchObject({ country: KYC_MSG.countryRequired, cover: KYC_MSG.coverRequired });
    expect(h.submits).toHaveLength(0);
    valid(h.actor);
    h.actor.send({ type: 'kyc.submit' });
    h.actor.send({ type: 'kyc.submit' });
    expect(h.actor.getSnapshot().value).toBe('submitting');
    expect(h.submits).toHaveLength(1);
    h.submits.shift()?.resolve(ANSWERS.review);
    await settle();
    expect(h.actor.getSnapshot().value).toBe('review');
    h.actor.send({ type: 'kyc.frame', status: ANSWERS.rejected });
    const rejected = h.actor.getSnapshot();
    expect(rejected.value).toBe('rejected');
    expect(rejected.context.status?.latest?.reason).toBe('Blurry photo');
    expect(rejected.context.form).toEqual({ ...EMPTY_KYC_FORM, country: 'FR', docType: 'passport', firstName: 'Marie', lastName: 'Curie', docNumber: 'AB12345' });
    valid(h.actor);
    h.actor.send({ type: 'kyc.submit' });
    h.submits.shift()?.resolve(ANSWERS.review);
    await settle();
    h.actor.send({ type: 'kyc.frame', status: ANSWERS.verified });
    expect(h.actor.getSnapshot().value).toBe('verified');
    h.actor.send({ type: 'kyc.frame', status: ANSWERS.rejected });
    expect(h.actor.getSnapshot().value).toBe('verified');
  });

  it('loading a rejected status prefills the names from the rejected submission; a bad photo is refused with its message', async () => {
    const h = harness();
    h.loads.shift()?.resolve(ANSWERS.rejected);
    await settle();
    const s = h.actor.getSnapshot();
    expect(s.value).toBe('rejected');
    expect(s.context.form).toMatchObject({ country: 'FR', docType: 'idCard', firstName: 'Marie', lastName: 'Curie', docNumber: '' });
    h.actor.send({ type: 'kyc.file', slot: 'cover', file: { name: 'x.png', type: 'image/png', size: KYC_IMAGE_MAX_BYTES + 1 } });
    expect(h.actor.getSnapshot().context.errors.cover).toBe(KYC_MSG.imageTooLarge);
    h.actor.send({ type: 'kyc.file', slot: 'cover', file: { name: 'x.pdf', type: 'application/pdf', size: 10 } });
    expect(h.actor.getSnapshot().context.errors.cover).toBe('Only image files are allowed!');
    expect(h.actor.getSnapshot().context.form.cover).toBeNull();
  });

  it('a conflict on submit reloads the status; a load failure can be retried', async () => {
    const h = harness();
    h.loads.shift()?.reject(new Error('offline'));
    await settle();
    expect(h.actor.getSnapshot().value).toBe('loadFailed');
    h.actor.send({ type: 'kyc.retry' });
    h.loads.shift()?.resolve(ANSWERS.unverified);
    await settle();
    valid(h.actor);
    h.actor.send({ type: 'kyc.submit' });
    h.submits.shift()?.reject(new Error(KYC_MSG.alreadyInReview));
    await settle();
    expect(h.actor.getSnapshot().value).toBe('loading');
    h.loads.shift()?.resolve(ANSWERS.review);
    await settle();
    expect(h.actor.getSnapshot().value).toBe('review');
  });
});
