// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import { KYC_MSG, maskDocNumber } from '../../../src/protocol/kyc.ts';
import type { KycStatusDto, KycSubmissionSummary } from '../../../src/protocol/kyc.ts';
import { KYC_IMAGE_MAX_BYTES } from '../../../src/protocol/user.ts';
import { KycScreen } from '../../../src/ui/screens/kyc/KycScreen.tsx';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { renderAssets, installClickClock } from './assetsHarness.tsx';

/**
 * The KYC screen over a REAL app core on scripted ports: the form's client rules, the multipart
 * request it sends, the under-review panel, a live rejection frame (reason + prefilled form),
 * resubmission, the verified panel, a network failure keeping the input, and the languages.
 */

installClickClock();

function sub(status: KycSubmissionSummary['status'], reason: string | null = null, over: Partial<KycSubmissionSummary> = {}): KycSubmissionSummary {
  return { id: 1, status, country: 'FR', docType: 'passport', firstName: 'Marie', lastName: 'Curie', docNumberMasked: maskDocNumber('AB1234567'), reason, submittedAt: 1_700_000_000_000, reviewedAt: status === 'review' ? null : 1_700_000_100_000, ...over };
}
const UNVERIFIED: KycStatusDto = { status: 'unverified', latest: null };
const REVIEW: KycStatusDto = { status: 'review', latest: sub('review') };
const REJECTED: KycStatusDto = { status: 'unverified', latest: sub('rejected', 'The photo is blurry') };
const VERIFIED: KycStatusDto = { status: 'verified', latest: sub('verified') };

function png(name = 'cover.png', size = 2048): File {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
}

function renderKyc(initial: KycStatusDto, opts: { lang?: Lang; width?: number; submit?: (req: HttpRequest) => ReturnType<typeof envelope> } = {}) {
  const submits: HttpRequest[] = [];
  const h = renderAssets({
    path: '/my/settings/kyc',
    screen: <KycScreen />,
    lang: opts.lang ?? 'en',
    width: opts.width ?? 1440,
    script: (http) => {
      http.on('GET', '/kyc/status', envelope(200, 'success', initial));
      if (opts.submit) {
        const answer = opts.submit;
        http.on('POST', '/kyc/submit', (req) => {
          submits.push(req);
          return answer(req);
        });
      }
    },
  });
  return { ...h, submits };
}

function fill(values: { country?: string; docType?: string; first?: string; last?: string; number?: string }) {
  if (values.country !== undefined) fireEvent.change(screen.getByTestId('kyc-country'), { target: { value: values.country } });
  if (values.docType !== undefined) fireEvent.change(screen.getByTestId('kyc-doc-type'), { target: { value: values.docType } });
  if (values.first !== undefined) fireEvent.change(screen.getByLabelText('First name'), { target: { value: values.first } });
  if (values.last !== undefined) fireEvent.change(screen.getByLabelText('Last name'), { target: { value: values.last } });
  if (values.number !== undefined) fireEvent.change(screen.getByLabelText('Document number'), { target: { value: values.number } });
}
const pick = (slot: 'cover' | 'info', file: File) => fireEvent.change(screen.getByTestId(`kyc-file-${slot}`), { target: { files: [file] } });

describe('KycScreen', () => {
  it('validates on the client, sends one multipart request, then shows the review panel with the masked number', async () => {
    const h = renderKyc(UNVERIFIED, { submit: () => envelope(200, KYC_MSG.submitted, REVIEW) });
    await screen.findByRole('form', { name: 'Submit your identity document' });
    expect(screen.getByTestId('kyc-required').textContent).toBe('To use RiskFree full services, please complete identity verification.');
    expect(screen.getByTestId('kyc-badge').textContent).toBe('Unverified');

    fireEvent.click(screen.getByTestId('kyc-submit'));
    expect(await screen.findByText(KYC_MSG.countryRequired)).toBeTruthy();
    expect(screen.getByText(KYC_MSG.coverRequired)).toBeTruthy();
    expect(screen.getByText(KYC_MSG.infoRequired)).toBeTruthy();
    expect(h.submits).toHaveLength(0);

    pick('cover', new File(['GIF89a'], 'cover.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Only image files are allowed!')).toBeTruthy();
    pick('info', png('huge.png', KYC_IMAGE_MAX_BYTES + 1));
    expect(await screen.findByText('The image must be at most 8MB')).toBeTruthy();

    fill({ country: 'FR', docType: 'passport', first: ' Marie ', last: 'Curie', number: 'AB1234567' });
    pick('cover', png('cover.png'));
    pick('info', png('info.png'));
    expect(screen.queryByText('Only image files are allowed!')).toBeNull();
    fireEvent.click(screen.getByTestId('kyc-submit'));

    expect(await screen.findByTestId('kyc-review')).toBeTruthy();
    expect(h.submits).toHaveLength(1);
    const body = h.submits[0]?.body;
    expect(body).toBeInstanceOf(FormData);
    const fd = body as FormData;
    expect([fd.get('country'), fd.get('docType'), fd.get('firstName'), fd.get('lastName'), fd.get('docNumber')]).toEqual(['FR', 'passport', 'Marie', 'Curie', 'AB1234567']);
    expect((fd.get('cover') as File).name).toBe('cover.png');
    expect((fd.get('info') as File).name).toBe('info.png');
    expect(screen.getByText('*****4567')).toBeTruthy();
    expect(screen.getByText('France')).toBeTruthy();
    expect(screen.getByTestId('kyc-badge').textContent).toBe('Under review');
    expect(screen.queryByTestId('kyc-required')).toBeNull();
  });

  it('a live rejection shows the reason and the form again, prefilled; resubmitting and a verified frame end verified', async () => {
    const h = renderKyc(REVIEW, { submit: () => envelope(200, KYC_MSG.submitted, { status: 'review', latest: sub('review', null, { id: 2 }) }) });
    expect(await screen.findByTestId('kyc-review')).toBeTruthy();
    h.push({ type: 'kyc', data: REJECTED });
    expect((await screen.findByTestId('kyc-reason')).textContent).toBe('The photo is blurry');
    expect(screen.getByTestId('kyc-badge').textContent).toBe('Rejected');
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Marie');
    expect((screen.getByTestId('kyc-country') as HTMLSelectElement).value).toBe('FR');
    expect((screen.getByLabelText('Document number') as HTMLInputElement).value).toBe('');

    fill({ number: 'AB1234567' });
    pick('cover', png('c2.png'));
    pick('info', png('i2.png'));
    fireEvent.click(screen.getByTestId('kyc-submit'));
    expect(await screen.findByTestId('kyc-review')).toBeTruthy();
    expect(h.submits).toHaveLength(1);

    h.push({ type: 'kyc', data: VERIFIED });
    expect(await screen.findByTestId('kyc-verified')).toBeTruthy();
    expect(screen.getByText('Your identity is verified', { selector: 'h2' })).toBeTruthy();
    // a malformed frame is ignored
    h.push({ type: 'kyc', data: { status: 'nonsense' } });
    expect(screen.getByTestId('kyc-verified')).toBeTruthy();
  });

  it('a failed submit keeps every input and shows the server message', async () => {
    const h = renderKyc(UNVERIFIED, { submit: () => envelope(409, KYC_MSG.alreadyVerified) });
    await screen.findByRole('form', { name: 'Submit your identity document' });
    h.http.on('POST', '/kyc/submit', () => ({ kind: 'networkError', message: 'Network Error' }));
    fill({ country: 'DE', docType: 'idCard', first: 'Ada', last: 'Lovelace', number: 'C01X00T47' });
    pick('cover', png('c.png'));
    pick('info', png('i.png'));
    fireEvent.click(screen.getByTestId('kyc-submit'));
    expect((await screen.findByTestId('kyc-submit-error')).textContent).toBe('Network Error');
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Lovelace');
    expect((screen.getByLabelText('Document number') as HTMLInputElement).value).toBe('C01X00T47');
    expect(screen.getByTestId('kyc-upload-cover').textContent).toContain('c.png');
    expect(screen.getByTestId('kyc-upload-info').textContent).toContain('i.png');
  });

  it('speaks the chosen language: Japanese texts and region names', async () => {
    renderKyc(UNVERIFIED, { lang: 'jp', width: 390 });
    expect((await screen.findByTestId('kyc-required')).textContent).toBe('RiskFreeのすべてのサービスを利用するには、本人確認を完了してください。');
    expect(screen.getByText('本人確認', { selector: 'h1' })).toBeTruthy();
    const options = [...(screen.getByTestId('kyc-country') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options).toContain('フランス');
    const docTypes = [...(screen.getByTestId('kyc-doc-type') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(docTypes).toEqual(['書類の種類を選択してください', '身分証明書', 'パスポート', '運転免許証', 'その他']);
    fireEvent.click(screen.getByTestId('kyc-submit'));
    expect(await screen.findByText('国または地域を選択してください', { selector: '.auth-field__error' })).toBeTruthy();
  });

  it('a verified account shows the verified panel with its submission', async () => {
    renderKyc(VERIFIED);
    expect(await screen.findByTestId('kyc-verified')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('kyc-badge').textContent).toBe('Verified'));
    expect(screen.queryByRole('form')).toBeNull();
  });
});
