// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import { KYC_MSG } from '../../../src/protocol/kyc.ts';
import type { KycStatusDto } from '../../../src/protocol/kyc.ts';
import { KYC_IMAGE_MAX_BYTES } from '../../../src/protocol/user.ts';
import { KycScreen } from '../../../src/ui/screens/kyc/KycScreen.tsx';
import { renderAssets } from './assetsHarness.tsx';

/**
 * Issue 17, through the real screen and the real Button: whatever mistakes a user made first
 * (an empty submit, a wrong file type, a file over 8 MB, a half-filled form, a submission the
 * server refused), filling the form correctly and pressing submit sends exactly one request.
 * The page clock is frozen, so every click lands inside the 450 ms double-click window: the
 * click guard must tell a new intent (the user edited something) from a double click.
 */

const UNVERIFIED: KycStatusDto = { status: 'unverified', latest: null };
const REVIEW: KycStatusDto = {
  status: 'review',
  latest: { id: 1, status: 'review', country: 'FR', docType: 'passport', firstName: 'Marie', lastName: 'Curie', docNumberMasked: '*****4567', reason: null, submittedAt: 1, reviewedAt: null },
};

function png(name: string, size = 2048): File {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
}

type Mistake = 'emptySubmit' | 'textFile' | 'hugeFile' | 'halfFilled' | 'serverRefused' | 'doubleClick';
const mistakeArb = fc.constantFrom<Mistake>('emptySubmit', 'textFile', 'hugeFile', 'halfFilled', 'serverRefused', 'doubleClick');

const submitButton = () => screen.getByTestId('kyc-submit');
const pick = (slot: 'cover' | 'info', file: File) => fireEvent.change(screen.getByTestId(`kyc-file-${slot}`), { target: { files: [file] } });
function fillText(values: { country: string; docType: string; first: string; last: string; number: string }) {
  fireEvent.change(screen.getByTestId('kyc-country'), { target: { value: values.country } });
  fireEvent.change(screen.getByTestId('kyc-doc-type'), { target: { value: values.docType } });
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: values.first } });
  fireEvent.change(screen.getByLabelText('Last name'), { target: { value: values.last } });
  fireEvent.change(screen.getByLabelText('Document number'), { target: { value: values.number } });
}
const VALID = { country: 'FR', docType: 'passport', first: 'Marie', last: 'Curie', number: 'AB1234567' };

beforeEach(() => {
  vi.spyOn(performance, 'now').mockReturnValue(5_000);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('KYC form after any mistakes (issue 17)', () => {
  it('a correct form submitted after any sequence of mistakes sends exactly one request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mistakeArb, { minLength: 1, maxLength: 5 }), async (mistakes) => {
        cleanup(); // a failed run (while shrinking) leaves its screen behind
        let refuse = false;
        const submits: number[] = [];
        renderAssets({
          path: '/my/settings/kyc',
          screen: <KycScreen />,
          script: (http) => {
            http.on('GET', '/kyc/status', envelope(200, 'success', UNVERIFIED));
            http.on('POST', '/kyc/submit', () => {
              submits.push(submits.length);
              return refuse ? envelope(400, KYC_MSG.docNumberInvalid) : envelope(200, KYC_MSG.submitted, REVIEW);
            });
          },
        });
        // the form is there (its role and name are kycScreen.test's; a role query on the whole
        // screen costs a third of this property's time in jsdom)
        await screen.findByTestId('kyc-submit');
        for (const m of mistakes) {
          const before = submits.length;
          switch (m) {
            case 'emptySubmit':
              fillText({ country: '', docType: '', first: '', last: '', number: '' });
              fireEvent.click(submitButton());
              await screen.findByText(KYC_MSG.countryRequired);
              break;
            case 'textFile':
              pick('cover', new File(['not an image'], 'notes.txt', { type: 'text/plain' }));
              await screen.findByText('Only image files are allowed!');
              fireEvent.click(submitButton());
              break;
            case 'hugeFile':
              pick('info', png('huge.png', KYC_IMAGE_MAX_BYTES + 1));
              await screen.findByText('The image must be at most 8MB');
              fireEvent.click(submitButton());
              break;
            case 'halfFilled':
              fillText({ ...VALID, last: '' });
              fireEvent.click(submitButton());
              await screen.findByText(KYC_MSG.lastNameRequired);
              break;
            case 'serverRefused':
              refuse = true;
              fillText(VALID);
              pick('cover', png('c.png'));
              pick('info', png('i.png'));
              fireEvent.click(submitButton());
              await screen.findByTestId('kyc-submit-error');
              refuse = false;
              break;
            case 'doubleClick':
              fireEvent.click(submitButton());
              fireEvent.click(submitButton());
              break;
          }
          // a refused or invalid attempt sends at most the one request the user asked for
          expect(submits.length - before).toBeLessThanOrEqual(m === 'serverRefused' ? 1 : 0);
        }
        const before = submits.length;
        fillText(VALID);
        pick('cover', png('cover.png'));
        pick('info', png('info.png'));
        fireEvent.click(submitButton());
        fireEvent.click(submitButton()); // the double click of an impatient user
        await screen.findByTestId('kyc-review');
        await waitFor(() => expect(submits.length - before).toBe(1));
        cleanup();
      }),
      { numRuns: 25 },
    );
    // A bound, not a wait: 24 s on a quiet machine; past 120 s at load average 20 (two cores shared
    // with browser runs), where the 25 renders of the real screen each take seconds.
  }, 300_000);
});
