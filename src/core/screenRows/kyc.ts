import { fromPromise } from 'xstate';
import { kycMachine, type KycForm as KycFormValues } from '../../machines/kycMachine.ts';
import { isKycFrame, KYC_PATHS, type KycStatusDto } from '../../protocol/kyc.ts';
import { row } from './row.ts';

/** The multipart body of POST /kyc/submit: trimmed text parts and the two photos. */
export function kycFormData(form: KycFormValues): FormData {
  const body = new FormData();
  body.append('country', form.country.trim());
  body.append('docType', form.docType.trim());
  body.append('firstName', form.firstName.trim());
  body.append('lastName', form.lastName.trim());
  body.append('docNumber', form.docNumber.trim());
  for (const slot of ['cover', 'info'] as const) {
    const f = form[slot];
    if (f instanceof Blob) body.append(slot, f, f.name);
    // A replayed intent carries only the photo's description (the log never holds its bytes):
    // send a same-shaped placeholder so the request matches the recorded one.
    else if (f) body.append(slot, new File([new Uint8Array(f.size)], f.name, { type: f.type }), f.name);
  }
  return body;
}

/** The KYC form (src/ui/screens/kyc). */
export const kyc = row({
  logic: ({ api }) =>
    kycMachine.provide({
      actors: {
        fetchStatus: fromPromise<KycStatusDto>(({ signal }) => api.get<KycStatusDto>(KYC_PATHS.status, undefined, signal)),
        submit: fromPromise<KycStatusDto, KycFormValues>(({ input, signal }) => api.post<KycStatusDto>(KYC_PATHS.submit, kycFormData(input), { signal })),
      },
    }),
  follow: (a, f) => {
    if (isKycFrame(f)) a.send({ type: 'kyc.frame', status: f.data });
  },
});
