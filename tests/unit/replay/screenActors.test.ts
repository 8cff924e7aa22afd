import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { kycMachine } from '../../../src/machines/kycMachine.ts';
import type { KycFormValues, KycStatusDto } from '../../../src/protocol/kyc.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { createReplayHandle } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../../../src/ports/fakes.ts';

const ENV = { appVersion: 't', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'test' };

function recorded() {
  const clock = new VirtualClock(1_760_000_000_000);
  const rec = createRecordedCore(
    { clock, http: createScriptedHttp(), socket: createScriptedSocketFactory(), storage: createMemoryStorage(), random: { id: () => 'r' } },
    { location: () => '/my/settings/kyc', env: ENV },
  );
  return rec;
}

const unverified: KycStatusDto = { status: 'unverified', latest: null };

/** The KYC machine as a screen provides it, with its calls answered in memory (counts the submits). */
function kycLogic(submits: KycFormValues[]) {
  return kycMachine.provide({
    actors: {
      fetchStatus: fromPromise<KycStatusDto>(async () => unverified),
      submit: fromPromise<KycStatusDto, KycFormValues>(async ({ input }) => {
        submits.push(input);
        return { status: 'review', latest: null };
      }),
    },
  });
}

describe('screen actors: recorded intents', () => {
  it('logs a screen intent with secret form fields redacted and photos described, never their bytes', () => {
    const rec = recorded();
    const photo = new File([new Uint8Array(2048).fill(7)], 'passport.png', { type: 'image/png' });
    rec.core.screens.onIntent?.('kyc', { type: 'kyc.field', field: 'docNumber', value: 'P12345678' } as { type: string });
    rec.core.screens.onIntent?.('kyc', { type: 'kyc.field', field: 'firstName', value: 'Ada' } as { type: string });
    rec.core.screens.onIntent?.('kyc', { type: 'kyc.file', slot: 'cover', file: photo } as { type: string });
    const intents = rec.log.records().filter((r) => r.kind === 'ui.intent');
    expect(intents.map((r) => r.actor)).toEqual(['screen:kyc', 'screen:kyc', 'screen:kyc']);
    const [doc, name, file] = intents.map((r) => r.event as Record<string, unknown>);
    expect(doc?.value).toMatch(/^<redacted:secret#\d+>$/);
    expect(name?.value).toBe('Ada');
    expect(file?.file).toEqual({ name: 'passport.png', type: 'image/png', size: 2048 });
    expect(rec.log.toJsonLines()).not.toContain('P12345678');
  });

  it('browser replay sends screen intents to the mounted screen actor; headless replay builds the actor from the core\'s table', async () => {
    const rec = recorded();
    rec.core.screens.onIntent?.('kyc', { type: 'kyc.field', field: 'firstName', value: 'Grace' } as { type: string });
    rec.core.screens.onIntent?.('nowhere', { type: 'x.y' });
    const log = parseReplayText(rec.log.toJsonLines());
    const intents = log.records.filter((r) => r.kind === 'ui.intent');

    const browser = createReplayHandle(log, { path: '/my/settings/kyc' }, { screens: 'mounted' });
    const submits: KycFormValues[] = [];
    const actor = createActor(kycLogic(submits)).start();
    const unregister = browser.core.screens.register('kyc', actor);
    await Promise.resolve();
    for (const r of intents) {
      expect(browser.prepare(r)).toBe(false);
      browser.deliver(r);
    }
    expect(actor.getSnapshot().context.form.firstName).toBe('Grace');
    expect(browser.screenMisses).toEqual([`@${intents[1]?.seq} screen:nowhere is not on screen for x.y`]);
    unregister();
    expect(browser.core.screens.get('kyc')).toBeUndefined();

    // Headless: no screen; the intent builds the core's KYC actor (a name outside the table builds nothing).
    const headless = createReplayHandle(log, { path: '/my/settings/kyc' });
    expect(intents.map((r) => headless.prepare(r))).toEqual([true, false]);
    expect([...headless.core.machines.live().keys()]).toEqual(['kyc']);
    for (const r of intents) headless.deliver(r);
    expect(headless.screenMisses).toEqual([expect.stringMatching(/^@\d+ screen:nowhere has no actor for x.y/)]);
    expect(Object.keys(headless.core.state().screens ?? {})).toEqual(['kyc']);
    actor.stop();
    browser.core.stop();
    headless.core.stop();
  });
});
