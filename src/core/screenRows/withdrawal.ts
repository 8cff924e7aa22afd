import { fromPromise } from 'xstate';
import { addressBookMachine, type BookRequest } from '../../machines/addressBookMachine.ts';
import { withdrawalMachine, type SaveAddressRequest, type WithdrawalForm } from '../../machines/withdrawalMachine.ts';
import { MONEY_PATHS, type AddressBook, type MoneyCoin, type Network, type Withdrawal, type WithdrawInfo } from '../../protocol/wallet.ts';
import { apiPath, row } from './row.ts';

/** The withdrawal form (src/ui/screens/wallet/WithdrawalScreen.tsx). */
export const withdrawal = row({
  logic: ({ api }) =>
    withdrawalMachine.provide({
      actors: {
        fetchInfo: fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(({ input, signal }) => api.get<WithdrawInfo>(apiPath(MONEY_PATHS.withdrawInfo), input, signal)),
        submit: fromPromise<Withdrawal, WithdrawalForm>(({ input, signal }) => api.post<Withdrawal>(apiPath(MONEY_PATHS.withdraw), input, { signal })),
        saveAddress: fromPromise<AddressBook, SaveAddressRequest>(({ input, signal }) => api.post<AddressBook>(apiPath(MONEY_PATHS.addresses), input, { signal })),
      },
    }),
  // A balance change re-reads the form's numbers (available, Max) while the user edits.
  follow: (a, f) => {
    const v = a.getSnapshot().value;
    if (f.type === 'balance' && (v === 'editing' || v === 'locked')) a.send({ type: 'wd.refresh' });
  },
});

/** The address book (src/ui/screens/wallet/AddressBookScreen.tsx): the same address validators as the withdrawal. */
export const addressBook = row({
  logic: ({ api }) =>
    addressBookMachine.provide({
      actors: {
        load: fromPromise<AddressBook>(({ signal }) => api.get<AddressBook>(apiPath(MONEY_PATHS.addresses), undefined, signal)),
        mutate: fromPromise<AddressBook, BookRequest>(({ input, signal }) => {
          const { kind, ...body } = input;
          const path = { add: MONEY_PATHS.addresses, rename: MONEY_PATHS.addressRename, delete: MONEY_PATHS.addressDelete, whitelist: MONEY_PATHS.whitelist }[kind];
          return api.post<AddressBook>(apiPath(path), body, { signal });
        }),
      },
    }),
});
