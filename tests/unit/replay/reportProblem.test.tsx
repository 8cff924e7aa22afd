// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import { AppProviders } from '../../../src/ui/app/App.tsx';
import { ReportProblem } from '../../../src/ui/components/ReportProblem.tsx';
import type { ShellEnv } from '../../../src/ui/hooks/useShellEnv.ts';
import { createI18n } from '../../../src/ui/i18n/index.ts';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { createUiPrefs } from '../../../src/ui/theme/uiPrefs.ts';

/**
 * 'Report a problem' end to end in jsdom: a REAL recorded core (fake transports) goes through a
 * password + email-code login, the component exports the bundle, and the bundle (a) carries the
 * env fields, (b) holds no password, code or token, and (c) replays headless to exactly the
 * exported actor state.
 */
const PASSWORD = 'Hunter2-very-secret';
const TOKEN = 'tok-9f8e7d6c5b4a';
const CODE = '482913';

function setup(lang: Lang = 'en') {
  const clock = new VirtualClock(1_760_000_000_000);
  const http = createScriptedHttp();
  http.on('POST', '/user/authType', envelope(200, 'success', { authType: 'email' }));
  http.on('POST', '/user/sendMailCode', envelope(200, 'Code sent'));
  http.on('POST', '/user/login', envelope(200, 'Login successful', { token: TOKEN }));
  http.on('GET', '/user/info', envelope(200, 'success', { id: 7, nickname: 'T', avatar: '', cover_email: 'a***@b.c', kycStatus: 'unverified', googleBound: false, inviteCode: 'X', withdrawLockUntil: 0, createdAt: 1 }));
  const sockets = createScriptedSocketFactory();
  const storage = createMemoryStorage({ lang });
  const rec = createRecordedCore({ clock, http, socket: sockets, storage, random: { id: () => 'r1' } }, { location: () => '/help-center' });
  const env: ShellEnv = { prefs: createUiPrefs(storage, document, 1280), language: { storage, doc: document, reload: () => undefined }, clipboard: null };
  const exported: { file: string; text: string; bytes: Uint8Array }[] = [];
  const router = createMemoryRouter([{ path: '*', element: <ReportProblem onExport={(file, bytes, text) => exported.push({ file, text, bytes })} /> }]);
  render(
    <AppProviders core={rec.core} i18n={createI18n(lang)} env={env}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { rec, clock, sockets, exported };
}

afterEach(() => cleanup());

describe('ReportProblem', () => {
  it('exports a redacted bundle that replays to the exported state', async () => {
    const { rec, clock, sockets, exported } = setup();
    act(() => sockets.sockets[0]?.open());
    await act(async () => {
      rec.core.session.send({ type: 'user.checkAuthType', email: 'a@b.c', password: PASSWORD });
      await Promise.resolve();
    });
    await waitFor(() => expect(rec.core.session.getSnapshot().matches('securityStep')).toBe(true));
    clock.advance(1200);
    await act(async () => rec.core.session.send({ type: 'user.sendCode' }));
    await waitFor(() => expect(rec.core.session.getSnapshot().context.codeSent).toBe(true));
    clock.advance(5000);
    await act(async () => rec.core.session.send({ type: 'user.login', code: CODE }));
    await waitFor(() => expect(rec.core.session.getSnapshot().context.userInfo).not.toBeNull());
    clock.advance(300);

    fireEvent.click(screen.getByRole('button', { name: 'Download report' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Report saved as rft-support-.*\.jsonl\.gz/);
    expect(exported).toHaveLength(1);
    const text = exported[0]?.text ?? '';
    // the download is the gzipped text (what `npm run replay` inflates)
    expect(gunzipSync(exported[0]?.bytes ?? new Uint8Array()).toString('utf8')).toBe(text);
    for (const secret of [PASSWORD, TOKEN, CODE]) expect(text).not.toContain(secret);
    expect(text).toContain('<redacted:password#1>');

    const log = parseReplayText(text);
    const bundle = log.header.bundle as Record<string, unknown>;
    // one version string (issue 27, point 8): package.json's, the same the footer shows
    expect(bundle).toMatchObject({ appVersion: '1.1.7', language: 'en', theme: expect.any(String), viewport: { width: expect.any(Number), height: expect.any(Number) } });
    expect(log.meta.map((m) => m.kind)).toEqual(['env', 'checkpoint']);
    expect(log.records.filter((r) => r.kind === 'ui.intent').map((r) => (r.event as { type: string }).type)).toEqual(['user.checkAuthType', 'user.sendCode', 'user.login']);

    const result = await replayLog(log);
    expect(result.divergences).toEqual([]);
    expect(result.bundleHash).not.toBeNull();
    expect(result.final.actorsHash).toBe(result.bundleHash);
  });

  it('speaks the five languages', () => {
    const { exported } = setup('jp');
    expect(screen.getByRole('button', { name: 'レポートをダウンロード' })).toBeTruthy();
    expect(exported).toEqual([]);
  });
});
