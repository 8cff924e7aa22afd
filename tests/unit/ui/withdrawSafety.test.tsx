// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import { WALLET_MSG, type AddressBook, type SavedAddress, type WithdrawInfo } from '../../../src/protocol/wallet.ts';
import { AddressBookScreen } from '../../../src/ui/screens/wallet/AddressBookScreen.tsx';
import { WithdrawalScreen } from '../../../src/ui/screens/wallet/WithdrawalScreen.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';

/**
 * Withdrawal safety on the screens (issue 26) over a REAL app core on scripted ports: the form picks
 * a saved address, offers to save a typed one, says why whitelist mode or the daily limit refuses
 * before the security step (no code sent, no request), shows 'Daily limit: used / limit' with the
 * way to verify identity; the address book page adds (checked as typed), renames, deletes and turns
 * whitelist mode on and off with the email code.
 */

installClickClock();

const EMPTY_PAGE = { list: [], total: 0, page: 1, pageSize: 10 };
const SAVED = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const FRESH = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const NOW = 1_700_000_000_000;

const saved = (id: number, address: string, label: string, usable: boolean): SavedAddress => ({
  id, coin: 'USDT', network: 'TRC20', address, label, createdAt: NOW - 1000, usableAt: usable ? NOW - 1000 : NOW + 20 * 3_600_000, usable,
});

const INFO: WithdrawInfo = {
  coin: 'USDT', network: 'TRC20', available: '30000.000000', minWithdrawal: '10', fee: '1', max: '29999.000000', security: 'email', lock: null,
  addresses: [saved(1, SAVED, 'Cold wallet', true), saved(2, FRESH, 'New one', false)],
  whitelist: { enabled: true, offAt: null },
  limit: { limit: '20000', used: '19950', verified: false, price: '1' },
};

function renderForm(info: WithdrawInfo, lang: 'en' | 'jp' = 'en') {
  const submits: HttpRequest[] = [];
  const codes: HttpRequest[] = [];
  const saves: HttpRequest[] = [];
  let current = info;
  const h = renderAssets({
    path: '/my/wallet/withdrawal',
    screen: <WithdrawalScreen />,
    lang,
    script: (http) => {
      http.on('POST', '/user/sendMailCode', (req) => (codes.push(req), envelope(200, 'Verification code sent', null)));
      http.on('GET', '/money/withdraw/info', () => envelope(200, 'success', current));
      http.on('GET', '/money/withdrawals', envelope(200, 'success', EMPTY_PAGE));
      http.on('POST', '/money/withdraw', (req) => (submits.push(req), envelope(400, 'x', null)));
      http.on('POST', '/money/withdraw/addresses', (req) => {
        saves.push(req);
        const b = req.body as { address: string; label: string };
        current = { ...current, addresses: [...current.addresses, { ...saved(3, b.address, b.label, !current.whitelist.enabled), usableAt: NOW + 24 * 3_600_000 }] };
        return envelope(200, WALLET_MSG.addressSaved, { addresses: current.addresses, whitelist: current.whitelist } satisfies AddressBook);
      });
    },
  });
  return { ...h, submits, codes, saves };
}

describe('withdrawal form: address book, whitelist mode, daily limit', () => {
  it('picks a saved address; under whitelist mode refuses others and one saved less than 24 h ago before the security step; offers to save a typed one', async () => {
    const h = renderForm(INFO);
    expect((await screen.findByTestId('withdraw-whitelist')).textContent).toContain('Whitelist mode is on');
    const picker = screen.getByTestId('withdraw-saved') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(['Choose a saved address', 'Cold wallet · TJRabP…RTv8', expect.stringMatching(/^New one · TR7NHq…Lj6t \(usable from /)]);
    fireEvent.change(picker, { target: { value: SAVED } });
    expect((screen.getByTestId('withdraw-address') as HTMLInputElement).value).toBe(SAVED);
    expect(screen.queryByTestId('withdraw-save')).toBeNull();

    // Not in the book: said as it is typed, and Next does not reach the security step.
    fireEvent.change(screen.getByTestId('withdraw-address'), { target: { value: OTHER } });
    expect(await screen.findByText(WALLET_MSG.notWhitelisted)).toBeTruthy();
    fireEvent.change(screen.getByTestId('withdraw-amount'), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('withdraw-next'));
    expect(screen.queryByTestId('withdraw-code')).toBeNull();
    // Saved while the mode was on, less than 24 h ago.
    fireEvent.change(picker, { target: { value: FRESH } });
    expect(await screen.findByText(WALLET_MSG.addressNotYetUsable)).toBeTruthy();
    fireEvent.click(screen.getByTestId('withdraw-next'));
    expect(screen.queryByTestId('withdraw-code')).toBeNull();

    // A typed address not in the book: the offer to save it, with the 24 h note of the mode.
    fireEvent.change(screen.getByTestId('withdraw-address'), { target: { value: OTHER } });
    const offer = await screen.findByTestId('withdraw-save');
    expect(offer.textContent).toContain('an address saved now can be used 24 hours later');
    fireEvent.click(within(offer).getByTestId('withdraw-save-button'));
    expect(await screen.findByText(WALLET_MSG.labelRequired)).toBeTruthy();
    fireEvent.change(screen.getByTestId('withdraw-save-label'), { target: { value: 'Exchange B' } });
    fireEvent.click(within(offer).getByTestId('withdraw-save-button'));
    await waitFor(() => expect(h.saves).toHaveLength(1));
    expect(h.saves[0]?.body).toEqual({ coin: 'USDT', network: 'TRC20', address: OTHER, label: 'Exchange B' });
    // Saved: it is in the picker now, still waiting its 24 h.
    expect(await screen.findByTestId('withdraw-saved-note')).toBeTruthy();
    expect(screen.getByText(WALLET_MSG.addressNotYetUsable)).toBeTruthy();
    expect(h.codes).toHaveLength(0);
    expect(h.submits).toHaveLength(0);
    h.core.stop();
  });

  it("shows 'Daily limit: used / limit' with the way to verify identity, and refuses an amount over what is left before the security step", async () => {
    const h = renderForm({ ...INFO, whitelist: { enabled: false, offAt: null } });
    const limit = await screen.findByTestId('withdraw-limit');
    await waitFor(() => expect(limit.textContent).toContain('19,950.00 / 20,000.00 USDT'));
    expect(screen.getByText('Daily limit')).toBeTruthy();
    expect(screen.getByTestId('withdraw-limit-kyc').getAttribute('href')).toBe('/my/settings/kyc');
    expect(screen.getByTestId('withdraw-limit-kyc').textContent).toBe('Verify your identity for a higher limit (1,000,000.00 USDT)');
    fireEvent.change(screen.getByTestId('withdraw-address'), { target: { value: OTHER } });
    // 19 950 + 50.000001 > 20 000 (exact decimals)
    fireEvent.change(screen.getByTestId('withdraw-amount'), { target: { value: '50.000001' } });
    fireEvent.click(screen.getByTestId('withdraw-next'));
    expect(await screen.findByText(WALLET_MSG.dailyLimitExceeded)).toBeTruthy();
    expect(screen.queryByTestId('withdraw-code')).toBeNull();
    // Exactly what is left is allowed.
    fireEvent.change(screen.getByTestId('withdraw-amount'), { target: { value: '50' } });
    fireEvent.click(screen.getByTestId('withdraw-next'));
    expect(await screen.findByTestId('withdraw-code')).toBeTruthy();
    h.core.stop();
  });

  it('a verified account has no verify link; Japanese texts', async () => {
    const h = renderForm({ ...INFO, limit: { limit: '1000000', used: '0', verified: true, price: '1' } }, 'jp');
    const limit = await screen.findByTestId('withdraw-limit');
    await waitFor(() => expect(limit.textContent).toBe('0.00 / 1,000,000.00 USDT'));
    expect(screen.queryByTestId('withdraw-limit-kyc')).toBeNull();
    expect(screen.getByText('1 日の上限')).toBeTruthy();
    fireEvent.change(screen.getByTestId('withdraw-address'), { target: { value: OTHER } });
    expect(await screen.findByText('ホワイトリストモードがオンです：アドレス帳のアドレスにのみ出金できます')).toBeTruthy();
    h.core.stop();
  });
});

describe('AddressBookScreen', () => {
  it('adds an address checked as it is typed, renames and deletes it, turns whitelist mode on and asks for it off with the email code', async () => {
    let book: AddressBook = { addresses: [saved(1, SAVED, 'Cold wallet', true)], whitelist: { enabled: false, offAt: null } };
    const posts: { path: string; body: unknown }[] = [];
    const codes: HttpRequest[] = [];
    const h = renderAssets({
      path: '/my/wallet/addresses',
      screen: <AddressBookScreen />,
      script: (http) => {
        http.on('GET', '/money/withdraw/addresses', () => envelope(200, 'success', book));
        http.on('POST', '/user/sendMailCode', (req) => (codes.push(req), envelope(200, 'Verification code sent', null)));
        http.on('POST', '/money/withdraw/addresses', (req) => {
          posts.push({ path: 'add', body: req.body });
          const b = req.body as { address: string; label: string };
          book = { ...book, addresses: [...book.addresses, saved(2, b.address, b.label, true)] };
          return envelope(200, WALLET_MSG.addressSaved, book);
        });
        http.on('POST', '/money/withdraw/addresses/rename', (req) => {
          posts.push({ path: 'rename', body: req.body });
          const b = req.body as { id: number; label: string };
          book = { ...book, addresses: book.addresses.map((a) => (a.id === b.id ? { ...a, label: b.label } : a)) };
          return envelope(200, WALLET_MSG.addressRenamed, book);
        });
        http.on('POST', '/money/withdraw/addresses/delete', (req) => {
          posts.push({ path: 'delete', body: req.body });
          book = { ...book, addresses: book.addresses.filter((a) => a.id !== (req.body as { id: number }).id) };
          return envelope(200, WALLET_MSG.addressDeleted, book);
        });
        http.on('POST', '/money/withdraw/whitelist', (req) => {
          posts.push({ path: 'whitelist', body: req.body });
          const b = req.body as { enabled: boolean; code: string };
          if (b.code !== '246810') return envelope(400, WALLET_MSG.codeInvalid, null);
          book = { ...book, whitelist: b.enabled ? { enabled: true, offAt: null } : { enabled: true, offAt: NOW + 24 * 3_600_000 } };
          return envelope(200, 'ok', book);
        });
      },
    });
    expect((await screen.findAllByTestId('book-label')).map((e) => e.textContent)).toEqual(['Cold wallet']);
    // Checked as typed; a copy of a saved one is refused; a label is required.
    fireEvent.change(screen.getByTestId('book-address'), { target: { value: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' } });
    expect(await screen.findByText(WALLET_MSG.addressInvalid)).toBeTruthy();
    fireEvent.change(screen.getByTestId('book-address'), { target: { value: SAVED } });
    expect(await screen.findByText(WALLET_MSG.addressExists)).toBeTruthy();
    fireEvent.change(screen.getByTestId('book-address'), { target: { value: OTHER } });
    fireEvent.click(screen.getByTestId('book-save'));
    expect(await screen.findByText(WALLET_MSG.labelRequired)).toBeTruthy();
    expect(posts).toHaveLength(0);
    fireEvent.change(screen.getByTestId('book-label-input'), { target: { value: ' Exchange B ' } });
    fireEvent.click(screen.getByTestId('book-save'));
    expect((await screen.findByTestId('book-notice')).textContent).toBe(WALLET_MSG.addressSaved);
    expect(posts[0]).toEqual({ path: 'add', body: { coin: 'USDT', network: 'TRC20', address: OTHER, label: 'Exchange B' } });
    await waitFor(() => expect(screen.getAllByTestId('book-label').map((e) => e.textContent)).toEqual(['Cold wallet', 'Exchange B']));

    // Rename the first.
    fireEvent.click(screen.getAllByTestId('book-rename')[0]!);
    fireEvent.change(screen.getByTestId('book-rename-input'), { target: { value: 'Hardware' } });
    fireEvent.click(screen.getByTestId('book-rename-save'));
    await waitFor(() => expect(screen.getAllByTestId('book-label').map((e) => e.textContent)).toEqual(['Hardware', 'Exchange B']));
    expect(posts[1]).toEqual({ path: 'rename', body: { id: 1, label: 'Hardware' } });
    // Delete the second, after its confirmation.
    fireEvent.click(screen.getByRole('button', { name: 'Delete: Exchange B' }));
    fireEvent.click(await screen.findByTestId('book-delete-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('book-label').map((e) => e.textContent)).toEqual(['Hardware']));
    expect(posts[2]).toEqual({ path: 'delete', body: { id: 2 } });

    // Whitelist mode: on with the email code (a wrong one keeps the step with its message).
    expect(screen.getByTestId('wl-state').textContent).toBe('Off');
    fireEvent.click(screen.getByTestId('wl-on'));
    expect(screen.getByText('Enter the email code to turn whitelist mode on. It takes effect at once.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(codes).toHaveLength(1));
    expect(codes[0]?.body).toEqual({ type: 'security' });
    fireEvent.click(screen.getByTestId('wl-confirm'));
    expect(await screen.findByText(WALLET_MSG.codeRequired)).toBeTruthy();
    fireEvent.change(screen.getByTestId('wl-code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByTestId('wl-confirm'));
    expect(await screen.findByText(WALLET_MSG.codeInvalid)).toBeTruthy();
    fireEvent.change(screen.getByTestId('wl-code'), { target: { value: '246810' } });
    fireEvent.click(screen.getByTestId('wl-confirm'));
    await waitFor(() => expect(screen.getByTestId('wl-state').textContent).toBe('On'));
    expect(screen.getByTestId('book-notice').textContent).toBe(WALLET_MSG.whitelistOn);
    // Off: asked for, in force 24 h later.
    fireEvent.click(screen.getByTestId('wl-off'));
    expect(screen.getByText('Enter the email code to turn whitelist mode off. It takes effect 24 hours from now.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('wl-code'), { target: { value: '246810' } });
    fireEvent.click(screen.getByTestId('wl-confirm'));
    await waitFor(() => expect(screen.getByTestId('wl-state').textContent).toMatch(/^On until .+, then off$/));
    expect(screen.getByTestId('book-notice').textContent).toBe(WALLET_MSG.whitelistOffScheduled);
    expect(screen.getByTestId('wl-on').textContent).toBe('Keep it on');
    expect(posts.slice(3).map((p) => p.body)).toEqual([{ enabled: true, code: '111111' }, { enabled: true, code: '246810' }, { enabled: false, code: '246810' }]);
    h.core.stop();
  });
});
