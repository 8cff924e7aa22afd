import { z } from 'zod';
import { decimalString } from './numberRule.ts';
import { pageQuerySchema } from './envelope.ts';

/**
 * Money in and out (issue 12): deposit addresses and the simulated chain, withdrawals with their
 * security step and holds, and the wallet history. Rules, statuses and numbers: docs/WALLET.md.
 * Money is a decimal STRING with the coin's fixed decimals (USDT 6, BTC 8, ETH 8); times are Unix ms.
 */

/** Envelope messages (SPEC §5 where quoted); the UI translates them. */
export const WALLET_MSG = {
  unknownCoin: 'Unsupported coin',
  unknownNetwork: 'This network is not available for the coin',
  addressRequired: 'Please enter withdrawal address',
  addressInvalid: 'Invalid withdrawal address for this network',
  amountRequired: 'Please enter the withdrawal amount',
  /** Followed by the minimum and the coin, e.g. 'The minimum withdrawal amount is:10 USDT'. */
  minWithdrawal: 'The minimum withdrawal amount is:',
  insufficientBalance: 'Insufficient Balance',
  codeRequired: 'Please enter the verification code',
  codeInvalid: 'Verification code is invalid or expired',
  tooManyAttempts: 'Too many wrong codes, please try again later',
  /** SPEC §9, reset screen. `data` carries the time left. */
  lockedAfterReset: 'Withdrawals are disabled for 48 hours after a password reset',
  /** SPEC §9, change-password screen. `data` carries the time left. */
  lockedAfterChange: 'Withdrawals, C2C sales and payments are disabled for 24 hours after a password change',
  withdrawalSubmitted: 'Withdrawal request submitted',
  withdrawalNotFound: 'Withdrawal not found',
  notCancellable: 'Only a pending withdrawal can be cancelled',
  notReviewable: 'This withdrawal has already been reviewed',
  withdrawalCancelled: 'Withdrawal cancelled',
  /** The wallet history's note on a pending withdrawal cancelled by a password change or reset (funds returned). */
  cancelledPasswordChange: 'Cancelled because the login password was changed; the funds are back in your fund account',
  depositBelowMinimum: 'Below the minimum deposit amount: recorded, not credited',
  depositAmountInvalid: 'Please enter a deposit amount',
  userNotFound: 'No such user',
  // Address book, whitelist-only mode and daily limit (issue 26, withdrawal safety; docs/WALLET.md).
  labelRequired: 'Please enter a label for the address',
  labelTooLong: 'The label can be at most 40 characters',
  addressSaved: 'Address saved',
  addressRenamed: 'Address renamed',
  addressDeleted: 'Address deleted',
  addressExists: 'This address is already in your address book',
  addressNotFound: 'Address not found',
  addressBookFull: 'The address book holds at most 200 addresses',
  /** The server's refusal is in the request's language (withdrawSafetyMsg); this is its English text. */
  notWhitelisted: 'Whitelist mode is on: withdrawals can only go to addresses in your address book',
  /** Followed by nothing: the address row shows when it becomes usable. */
  addressNotYetUsable: 'This address was added while whitelist mode is on: it can be used 24 hours after it was added',
  dailyLimitExceeded: 'This withdrawal would exceed your daily withdrawal limit',
  priceUnavailable: 'The withdrawal cannot be valued right now (no market price), please try again shortly',
  whitelistOn: 'Whitelist mode is on',
  whitelistOffScheduled: 'Whitelist mode will turn off 24 hours from now',
  whitelistOffCancelled: 'Whitelist mode stays on',
} as const;

export const MONEY_COINS = ['USDT', 'BTC', 'ETH'] as const;
export type MoneyCoin = (typeof MONEY_COINS)[number];
export const NETWORKS = ['TRC20', 'ERC20', 'BEP20', 'Bitcoin'] as const;
export type Network = (typeof NETWORKS)[number];

/** How a network's addresses are written: TRON base58check 'T…', EVM 0x + 40 hex (EIP-55), Bitcoin bech32 'bc1…' (or legacy base58). */
export type AddressFormat = 'tron' | 'evm' | 'bitcoin';


/** One coin on one network: what the deposit and withdrawal screens show. */
export const chainRuleSchema = z.object({
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  format: z.enum(['tron', 'evm', 'bitcoin']),
  /** Smaller deposits are recorded with status belowMinimum and never credited. */
  minDeposit: z.string(),
  /** Confirmations before a deposit is credited. */
  confirmations: z.number().int(),
  /** Simulated block interval on the server clock (ms): one confirmation per block. */
  blockMs: z.number().int(),
  minWithdrawal: z.string(),
  /** Network fee charged on top of the amount: the hold is amount + fee, the address receives amount. */
  withdrawalFee: z.string(),
});
export type ChainRule = z.infer<typeof chainRuleSchema>;

export const CHAIN_RULES: readonly ChainRule[] = [
  { coin: 'USDT', network: 'TRC20', format: 'tron', minDeposit: '1', confirmations: 6, blockMs: 3_000, minWithdrawal: '10', withdrawalFee: '1' },
  { coin: 'USDT', network: 'ERC20', format: 'evm', minDeposit: '10', confirmations: 6, blockMs: 5_000, minWithdrawal: '20', withdrawalFee: '5' },
  { coin: 'USDT', network: 'BEP20', format: 'evm', minDeposit: '1', confirmations: 15, blockMs: 3_000, minWithdrawal: '10', withdrawalFee: '0.8' },
  { coin: 'BTC', network: 'Bitcoin', format: 'bitcoin', minDeposit: '0.0005', confirmations: 2, blockMs: 10_000, minWithdrawal: '0.001', withdrawalFee: '0.0002' },
  { coin: 'ETH', network: 'ERC20', format: 'evm', minDeposit: '0.005', confirmations: 6, blockMs: 5_000, minWithdrawal: '0.01', withdrawalFee: '0.002' },
];

/** The rule for a coin on a network, or undefined (unknown coin, or the coin is not on that network). */
export function chainRule(coin: string, network: string): ChainRule | undefined {
  return CHAIN_RULES.find((r) => r.coin === coin && r.network === network);
}

export const coinField = z.string({ error: WALLET_MSG.unknownCoin }).trim().toUpperCase().min(1, WALLET_MSG.unknownCoin).max(16, WALLET_MSG.unknownCoin);
export const networkField = z.string({ error: WALLET_MSG.unknownNetwork }).trim().min(1, WALLET_MSG.unknownNetwork).max(16, WALLET_MSG.unknownNetwork);
/** Amounts: a positive plain decimal (the number rule, src/protocol/numberRule.ts). */
const amountField = (msg: string) => decimalString(msg);

// ---------------------------------------------------------------- deposit

/** GET /api/money/deposit/address query. */
export const depositAddressQuery = z.object({ coin: coinField, network: networkField });

/** The caller's deposit address on a network (the same on every visit) with the network's rules. */
export const depositAddressSchema = z.object({
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  address: z.string(),
  minDeposit: z.string(),
  confirmations: z.number().int(),
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

export const DEPOSIT_STATUSES = ['confirming', 'credited', 'belowMinimum'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export const depositSchema = z.object({
  id: z.number().int(),
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  address: z.string(),
  amount: z.string(),
  txid: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  confirmations: z.number().int(),
  required: z.number().int(),
  time: z.number().int(),
  /** When it was credited (status credited), else null. */
  creditedAt: z.number().int().nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

/** POST /api/dev/money/deposit (operator / CLI, only with EXPOSE_OUTBOX): a simulated chain transfer to a user's address. */
export const devDepositBody = z.object({
  email: z.string().trim().toLowerCase().min(3).max(254),
  coin: coinField,
  network: networkField,
  amount: amountField(WALLET_MSG.depositAmountInvalid),
});

// ---------------------------------------------------------------- withdrawal

export const WITHDRAWAL_STATUSES = ['pending', 'processing', 'completed', 'rejected', 'cancelled'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** POST /api/money/withdraw. `code`: the Google authenticator code when bound, else an email code of type 'security'. */
export const withdrawRequestBody = z.object({
  coin: coinField,
  network: networkField,
  address: z.string({ error: WALLET_MSG.addressRequired }).trim().min(1, WALLET_MSG.addressRequired).max(128, WALLET_MSG.addressInvalid),
  amount: amountField(WALLET_MSG.amountRequired),
  code: z.string({ error: WALLET_MSG.codeRequired }).trim().min(1, WALLET_MSG.codeRequired).max(12, WALLET_MSG.codeInvalid),
});
export type WithdrawBody = z.input<typeof withdrawRequestBody>;

export const withdrawalSchema = z.object({
  id: z.number().int(),
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  address: z.string(),
  /** What the address receives. */
  amount: z.string(),
  fee: z.string(),
  /** amount + fee: held from the fund wallet while pending / processing. */
  total: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  txid: z.string(),
  reason: z.string(),
  time: z.number().int(),
  updatedAt: z.number().int(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** `data` of a withdrawal refused by the password lock (SPEC §9). */
export const withdrawLockSchema = z.object({ reason: z.enum(['reset', 'change']), until: z.number().int(), leftMs: z.number().int() });
export type WithdrawLock = z.infer<typeof withdrawLockSchema>;

/**
 * POST /api/dev/money/fast-forward (development): lets `hours` pass for one user's money without
 * moving the server clock: the password lock ends that much sooner and confirming deposits count as
 * seen that much earlier (the next chain step confirms them). For browser tests and demos.
 */
export const devFastForwardBody = z.object({
  email: z.string().trim().toLowerCase().min(3).max(254),
  hours: z.coerce.number().positive().max(24 * 365),
});

export const withdrawalIdBody = z.object({ id: z.coerce.number().int().positive() });
export const devReviewBody = z.object({
  id: z.coerce.number().int().positive(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().trim().max(200).optional(),
});

// ---------------------------------------------------------------- withdrawal safety (issue 26)

/**
 * Daily withdrawal limits in USDT equivalent (issue 26; docs/WALLET.md), the one place they are set:
 * an account without verified identity (KYC) may withdraw 20 000 USDT per rolling 24 h, a verified
 * one 1 000 000 USDT (the tiers Bybit used for its unverified / Lv.1 accounts). Counted: the amount
 * (not the fee) of every pending, processing or completed withdrawal of the last 24 h, valued at the
 * coin's market price now (the price convert quotes), rounded up to the USDT minor unit.
 */
export const DAILY_WITHDRAW_LIMIT_USDT = { unverified: '20000', verified: '1000000' } as const;
export const DAILY_LIMIT_WINDOW_MS = 24 * 3_600_000;
/** How long a turn-off of whitelist mode, and an address added while it is on, wait (like the password lock). */
export const WHITELIST_DELAY_HOURS = 24;
export const WHITELIST_DELAY_MS = WHITELIST_DELAY_HOURS * 3_600_000;
export const ADDRESS_BOOK_MAX = 200;
export const ADDRESS_LABEL_MAX = 40;

/** One saved withdrawal address. `usable`: whether a withdrawal may go to it now under whitelist mode. */
export const savedAddressSchema = z.object({
  id: z.number().int(),
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  address: z.string(),
  label: z.string(),
  createdAt: z.number().int(),
  /** createdAt when whitelist mode was off at the time it was added, else createdAt + 24 h. */
  usableAt: z.number().int(),
  usable: z.boolean(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/** Whitelist-only mode as of the answer: `enabled` is in force now; `offAt` is a requested turn-off's time (still on until then). */
export const whitelistSchema = z.object({ enabled: z.boolean(), offAt: z.number().int().nullable() });
export type Whitelist = z.infer<typeof whitelistSchema>;

/** GET /api/money/withdraw/addresses and every address-book change answer the whole book. */
export const addressBookSchema = z.object({ addresses: z.array(savedAddressSchema), whitelist: whitelistSchema });
export type AddressBook = z.infer<typeof addressBookSchema>;

const labelField = z
  .string({ error: WALLET_MSG.labelRequired })
  .trim()
  .min(1, WALLET_MSG.labelRequired)
  .max(ADDRESS_LABEL_MAX, WALLET_MSG.labelTooLong);

/** POST /api/money/withdraw/addresses: the address is checked for the network like a withdrawal's. */
export const addAddressBody = z.object({
  coin: coinField,
  network: networkField,
  address: z.string({ error: WALLET_MSG.addressRequired }).trim().min(1, WALLET_MSG.addressRequired).max(128, WALLET_MSG.addressInvalid),
  label: labelField,
});
export type AddAddressBody = z.input<typeof addAddressBody>;
export const renameAddressBody = z.object({ id: z.coerce.number().int().positive(), label: labelField });
export const addressIdBody = z.object({ id: z.coerce.number().int().positive() });
/** POST /api/money/withdraw/whitelist: on at once, off 24 h later; both need a 'security' mail code. */
export const whitelistBody = z.object({
  enabled: z.boolean(),
  code: z.string({ error: WALLET_MSG.codeRequired }).trim().min(1, WALLET_MSG.codeRequired).max(12, WALLET_MSG.codeInvalid),
});
export type WhitelistBody = z.input<typeof whitelistBody>;

/** The daily limit as the form shows it ('Daily limit: used / limit'), in USDT, and the coin's USDT price used. */
export const dailyLimitSchema = z.object({
  limit: z.string(),
  used: z.string(),
  verified: z.boolean(),
  /** The USDT price of the form's coin the server values with ('1' for USDT); null without a market price. */
  price: z.string().nullable(),
});
export type DailyLimit = z.infer<typeof dailyLimitSchema>;

/** `data` of a withdrawal refused by the daily limit: the limit, what is used, and what this one is worth (USDT). */
export const limitRefusalSchema = dailyLimitSchema.extend({ value: z.string() });
export type LimitRefusal = z.infer<typeof limitRefusalSchema>;

/** GET /api/money/withdraw/info query: the numbers the form shows before submitting. */
export const withdrawInfoQuery = depositAddressQuery;
export const withdrawInfoSchema = z.object({
  coin: z.enum(MONEY_COINS),
  network: z.enum(NETWORKS),
  available: z.string(),
  minWithdrawal: z.string(),
  fee: z.string(),
  /** available − fee, never below 0: what 'Max' fills in. */
  max: z.string(),
  /** 'google' when an authenticator is bound, else 'email' (send a 'security' mail code). */
  security: z.enum(['google', 'email']),
  lock: withdrawLockSchema.nullable(),
  /** The saved addresses of this coin and network (issue 26), the whitelist mode and the daily limit. */
  addresses: z.array(savedAddressSchema),
  whitelist: whitelistSchema,
  limit: dailyLimitSchema,
});
export type WithdrawInfo = z.infer<typeof withdrawInfoSchema>;

// ---------------------------------------------------------------- history

export const HISTORY_TYPES = ['deposit', 'withdrawal', 'transfer'] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

/** One row of the wallet history. Transfers: `network` is '', `from`/`to` are wallets; status completed; txid the ledger ref. */
export const historyRowSchema = z.object({
  type: z.enum(HISTORY_TYPES),
  id: z.number().int(),
  coin: z.string(),
  network: z.string(),
  amount: z.string(),
  fee: z.string(),
  status: z.string(),
  txid: z.string(),
  address: z.string(),
  from: z.string(),
  to: z.string(),
  time: z.number().int(),
  /** Why a withdrawal ended as it did (a reviewer's rejection reason, a cancel after a password change); absent when none. */
  note: z.string().optional(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

export const historyQuery = pageQuerySchema.extend({
  type: z.enum(HISTORY_TYPES).optional(),
  coin: z.string().trim().toUpperCase().min(1).max(16).optional(),
  status: z.string().trim().min(1).max(16).optional(),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
});
export type HistoryQuery = z.input<typeof historyQuery>;

// ---------------------------------------------------------------- frames and paths

/** User-socket frames of this feature, pushed at every status step. */
export const moneyUserFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('deposit'), data: depositSchema }),
  z.object({ type: z.literal('withdrawal'), data: withdrawalSchema }),
]);
export type MoneyUserFrame = z.infer<typeof moneyUserFrameSchema>;

export const MONEY_PATHS = {
  networks: '/api/money/networks',
  depositAddress: '/api/money/deposit/address',
  deposits: '/api/money/deposits',
  withdrawInfo: '/api/money/withdraw/info',
  withdraw: '/api/money/withdraw',
  withdrawCancel: '/api/money/withdraw/cancel',
  withdrawals: '/api/money/withdrawals',
  addresses: '/api/money/withdraw/addresses',
  addressRename: '/api/money/withdraw/addresses/rename',
  addressDelete: '/api/money/withdraw/addresses/delete',
  whitelist: '/api/money/withdraw/whitelist',
  history: '/api/money/history',
  devDeposit: '/api/dev/money/deposit',
  devWithdrawals: '/api/dev/money/withdrawals',
  devReview: '/api/dev/money/review',
  devFastForward: '/api/dev/money/fast-forward',
} as const;

