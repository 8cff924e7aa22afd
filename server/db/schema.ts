import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Typed tables for Kysely. Conventions (docs/DATABASE.md):
 * - times are Unix milliseconds in BIGINT columns (numbers in JS; safe until year 287396);
 * - money is a signed integer count of minor units stored as TEXT and handled with BigInt,
 *   never a JS float;
 * - booleans are derived (e.g. `google_secret IS NOT NULL`), so no dialect-specific boolean type.
 */
export interface UsersTable {
  /** The UID shown to users; real users start at 10000001, 1 is the system account. */
  id: number;
  email: string;
  /** `scrypt$<salt hex>$<hash hex>`; '!' for accounts that cannot log in (system). */
  password_hash: string;
  nickname: string;
  invite_code: string;
  invited_by: number | null;
  /** File name under DATA_DIR/avatars, or null for the default avatar. */
  avatar: string | null;
  kyc_status: 'unverified' | 'review' | 'verified';
  /** Base32 TOTP secret once Google authenticator is bound. */
  google_secret: string | null;
  /** Secret handed out by get-google-code, waiting for bind-google-authen. */
  google_pending_secret: string | null;
  withdraw_lock_until: number;
  /** The last TOTP step accepted for a login or bind; a code of that step or earlier is a replay. */
  google_last_step: number;
  role: 'user' | 'system';
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of the raw token: a leaked database cannot be replayed as tokens. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  ip: string;
  client: string;
}

export interface MailCodesTable {
  id: Generated<number>;
  email: string;
  purpose: 'register' | 'login' | 'reset' | 'security';
  /** SHA-256 hex of `${email}:${purpose}:${code}`. */
  code_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  failed_attempts: number;
}

export interface OutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  body: string;
  /** The plain code, kept for the dev outbox only (GET /api/dev/outbox, npm run outbox). */
  code: string;
  created_at: number;
}

export interface LoginHistoryTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  client: string;
  ip: string;
  account: string;
}

export interface AvatarsTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  mime: string;
  size: number;
  created_at: number;
}

export interface BalancesTable {
  user_id: number;
  wallet: 'fund' | 'spot' | 'std' | 'perp' | 'copy';
  asset: string;
  /** Integer minor units as a decimal string (see server/db/money.ts). */
  amount: string;
  updated_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  user_id: number;
  wallet: BalancesTable['wallet'];
  asset: string;
  /** Signed delta in minor units (decimal string). */
  amount: string;
  /** Balance of (user, wallet, asset) right after this entry. */
  balance_after: string;
  type: string;
  /** Groups the legs of one double-entry posting. */
  ref: string;
  created_at: number;
}

/** A futures order (docs/TRADING.md). Prices and quantities are tick/step-rounded numbers; money is minor units as TEXT. */
export interface TradeOrdersTable {
  /** 'O' + a sortable id. */
  id: string;
  user_id: number;
  /** Unique per user: placement is idempotent by it. */
  client_order_id: string;
  symbol: string;
  contract: 'perp' | 'std';
  kind: 'limitOpen' | 'limitTakeProfit' | 'limitStopLoss' | 'marketOpen' | 'marketClose' | 'limitClose' | 'stopMarket' | 'stopLimit';
  side: 'buy' | 'sell';
  price: number;
  qty: number;
  leverage: number;
  status: 'pending' | 'filled' | 'canceled';
  executed_qty: number;
  avg_price: number;
  fee: string;
  realized_pnl: string;
  /** Margin held in escrow for this order while it is pending (open kinds). */
  margin: string;
  position_id: string | null;
  tp: number | null;
  sl: number | null;
  created_at: number;
  updated_at: number;
  /** 0/1 (migration 0007). */
  reduce_only: number;
  post_only: number;
  time_in_force: 'GTC' | 'IOC' | 'FOK';
  /** Stop kinds: the trigger; null otherwise. */
  trigger_price: number | null;
  trigger_by: 'last' | 'mark';
  /** When a stop's trigger was reached; null before (and for other kinds). */
  triggered_at: number | null;
  cancel_reason: string | null;
  /** Sum of the notionals executed so far, minor units (the exact average price is exec_notional / executed qty). */
  exec_notional: string;
}

/** A one-way isolated position. `qty` is an integer count of 10^-qtyPrecision units; `cost` is the entry notional in minor units. */
export interface TradePositionsTable {
  id: string;
  user_id: number;
  symbol: string;
  contract: 'perp' | 'std';
  side: 'long' | 'short';
  qty: string;
  cost: string;
  margin: string;
  leverage: number;
  status: 'open' | 'closed' | 'liquidated';
  realized_pnl: string;
  opened_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface TradeFillsTable {
  id: Generated<number>;
  user_id: number;
  order_id: string;
  position_id: string;
  symbol: string;
  contract: 'perp' | 'std';
  kind: string;
  side: 'buy' | 'sell';
  price: number;
  qty: number;
  fee: string;
  realized_pnl: string;
  created_at: number;
  liquidity: 'maker' | 'taker';
}

/** The pair a ledger posting (by ref) belongs to, so the transaction history filters by pair. */
export interface LedgerRefsTable {
  ref: string;
  symbol: string;
}

/** Last boundary a periodic job (funding, overnight) ran for, so a restart never charges twice. */
export interface TradingJobsTable {
  name: string;
  last_run: number;
}

/** One identity-verification submission (SPEC §3). Files live under DATA_DIR/kyc/. */
export interface KycSubmissionsTable {
  id: Generated<number>;
  user_id: number;
  country: string;
  doc_type: 'idCard' | 'passport' | 'driverLicense' | 'other';
  first_name: string;
  last_name: string;
  doc_number: string;
  cover_file: string;
  info_file: string;
  /** review → verified | rejected (with `reason`). users.kyc_status mirrors the latest one. */
  status: 'review' | 'verified' | 'rejected';
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

/** A loss-protection or speed voucher (SPEC §3, §4). `expires_at` null = permanently valid. */
export interface VouchersTable {
  id: Generated<number>;
  user_id: number;
  kind: 'lossProtection' | 'speed';
  /** lossProtection: USDT in minor units; speed: the boost in percent (e.g. "50"). */
  value: string;
  /** `use` = usable. `expired` is also derived on read from `expires_at`. */
  status: 'use' | 'used' | 'merged' | 'expired';
  expires_at: number | null;
  source: string;
  /** What consumed it (e.g. "compensation:12"). */
  used_ref: string | null;
  merged_into: number | null;
  created_at: number;
  used_at: number | null;
}

/** A compensation order (SPEC §3, §4). Money columns are minor-unit USDT strings (pnl signed). */
export interface CompensationOrdersTable {
  id: Generated<number>;
  user_id: number;
  status: 'notActive' | 'active' | 'inCompensation' | 'pending' | 'completed';
  total_user_pnl: string;
  total_user_compensation: string;
  amount: string;
  paid: string;
  duration_days: number;
  daily_return: string;
  /** The last ledger entry id whose loss this order covers (no loss is covered twice). */
  covered_ledger_id: number;
  boosts: number;
  created_at: number;
  activated_at: number | null;
  next_payout_at: number | null;
  completed_at: number | null;
}

/** A deposit seen on the simulated chain (docs/WALLET.md). `amount` in minor units. */
export interface DepositsTable {
  id: Generated<number>;
  user_id: number;
  coin: string;
  network: string;
  address: string;
  amount: string;
  txid: string;
  status: 'confirming' | 'credited' | 'belowMinimum';
  confirmations: number;
  required: number;
  created_at: number;
  credited_at: number | null;
}

/** A withdrawal request; amount + fee are held (ledger WITHDRAW_HOLD) while pending / processing. */
export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  coin: string;
  network: string;
  address: string;
  amount: string;
  fee: string;
  status: 'pending' | 'processing' | 'completed' | 'rejected' | 'cancelled';
  txid: Generated<string>;
  reason: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A convert quote; `filled_at` is set once, when it is converted (the convert history). */
export interface ConvertQuotesTable {
  id: Generated<number>;
  quote_id: string;
  user_id: number;
  from_coin: string;
  to_coin: string;
  account: 'fund' | 'spot';
  rate: string;
  from_amount: string;
  to_amount: string;
  created_at: number;
  expires_at: number;
  filled_at: number | null;
}

/** Server-side secrets generated on first use (e.g. the deposit-address derivation key). */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** One trading fee paid by an invitee and the rebate it credited to the inviter (issue 15, docs/REFERRAL.md). */
export interface ReferralRebatesTable {
  id: Generated<number>;
  inviter_id: number;
  invitee_id: number;
  symbol: string;
  /** The wallet the fee was paid from (std or perp). */
  wallet: BalancesTable['wallet'];
  asset: string;
  /** Minor units as decimal strings. */
  notional: string;
  fee: string;
  rebate: string;
  rate_bps: number;
  /** The TRADE_COMMISSION posting's ref; '' when the rebate rounded down to 0. */
  ledger_ref: string;
  created_at: number;
}

/** Running totals per invitee (the invitee list), kept in the fee's transaction. */
export interface ReferralInviteesTable {
  invitee_id: number;
  inviter_id: number;
  volume: string;
  fees: string;
  rebate: string;
  updated_at: number;
}

/** Help centre category, one row per id and language (issue 15). */
export interface HelpCategoriesTable {
  id: number;
  lang: string;
  position: number;
  title: string;
  summary: string;
}

/** Help centre article, one row per id and language; `body` is JSON HelpBlock[], `plain` its text. */
export interface HelpArticlesTable {
  id: number;
  lang: string;
  category_id: number;
  position: number;
  title: string;
  summary: string;
  body: string;
  plain: string;
  updated_at: number;
}

export interface HelpMetaTable {
  name: string;
  value: string;
}

/** SPEC §3 notification modules per user; 1/0 switches. */
export interface NotifyPrefsTable {
  user_id: number;
  lang: string;
  sys_notify: number;
  trade_notify: number;
  event_notify: number;
  updated_at: number;
}

/** An in-app notice (issue 26, Major 8; server/notify/notifications.ts). `params` is a JSON object of strings. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  module: string;
  dedupe: string;
  lang: string;
  title: string;
  body: string;
  params: string;
  read_at: number | null;
  created_at: number;
}

/** A saved withdrawal address (issue 26; server/money/addressBook.ts). `address_key`: addressKey() of the address. */
export interface WithdrawAddressesTable {
  id: Generated<number>;
  user_id: number;
  coin: string;
  network: string;
  address: string;
  address_key: string;
  label: string;
  created_at: number;
  usable_at: number;
}

/** A user's whitelist-only mode (issue 26): `whitelist` 1 when on; `whitelist_off_at` the time a requested turn-off takes effect. */
export interface WithdrawSettingsTable {
  user_id: number;
  whitelist: number;
  whitelist_off_at: number | null;
  updated_at: number;
}

/** A lead trader others can copy (issue 15): a simulated one, or a user whose trader_apply was approved. */
export interface CopyTradersTable {
  user_id: number;
  nickname: string;
  bio: string;
  simulated: number;
  status: 'active' | 'suspended';
  created_at: number;
}

/** One copy of a lead trader by a user; money in minor units as TEXT; `cash` is this copy's part of the user's copy wallet. */
export interface CopyFollowsTable {
  id: Generated<number>;
  user_id: number;
  trader_id: number;
  status: 'active' | 'ended';
  end_reason: string | null;
  mode: 'ratio' | 'fixed';
  ratio_ppb: string | null;
  fixed_amount: string | null;
  max_per_order: string | null;
  stop_loss: string | null;
  source_wallet: 'fund' | 'perp';
  invested: string;
  cash: string;
  realized_pnl: string;
  fees: string;
  created_at: number;
  ended_at: number | null;
}

/** A copied position (isolated, in the copy wallet); `qty` in 10^-qtyPrecision units, `cost`/`margin` minor units. */
export interface CopyPositionsTable {
  id: string;
  follow_id: number;
  user_id: number;
  trader_id: number;
  symbol: string;
  contract: 'perp' | 'std';
  side: 'long' | 'short';
  qty: string;
  cost: string;
  margin: string;
  leverage: number;
  status: 'open' | 'closed' | 'liquidated';
  realized_pnl: string;
  opened_at: number;
  updated_at: number;
  closed_at: number | null;
}

/** One mirrored order of a follow: filled, or skipped with its reason. */
export interface CopyOrdersTable {
  id: Generated<number>;
  follow_id: number;
  user_id: number;
  trader_id: number;
  position_id: string | null;
  leader_order_id: string | null;
  symbol: string;
  side: 'buy' | 'sell';
  action: 'open' | 'add' | 'reduce' | 'close';
  qty: number;
  price: number;
  fee: string;
  realized_pnl: string;
  status: 'filled' | 'skipped';
  reason: string | null;
  created_at: number;
}

export interface CopyApplicationsTable {
  id: Generated<number>;
  user_id: number;
  nickname: string;
  experience: string;
  status: 'review' | 'approved' | 'rejected';
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

export interface CopyJobsTable {
  name: string;
  last_run: number;
}

/** The projector's high-water mark (issue 28): the last journal seq whose outcome the tables hold, and that command's time. */
export interface EngineProjectionTable {
  name: string;
  seq: number;
  t: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  mail_codes: MailCodesTable;
  outbox: OutboxTable;
  login_history: LoginHistoryTable;
  avatars: AvatarsTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  trade_orders: TradeOrdersTable;
  trade_positions: TradePositionsTable;
  trade_fills: TradeFillsTable;
  ledger_refs: LedgerRefsTable;
  trading_jobs: TradingJobsTable;
  kyc_submissions: KycSubmissionsTable;
  vouchers: VouchersTable;
  compensation_orders: CompensationOrdersTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  convert_quotes: ConvertQuotesTable;
  server_secrets: ServerSecretsTable;
  referral_rebates: ReferralRebatesTable;
  referral_invitees: ReferralInviteesTable;
  help_categories: HelpCategoriesTable;
  help_articles: HelpArticlesTable;
  help_meta: HelpMetaTable;
  notify_prefs: NotifyPrefsTable;
  notifications: NotificationsTable;
  withdraw_addresses: WithdrawAddressesTable;
  withdraw_settings: WithdrawSettingsTable;
  copy_traders: CopyTradersTable;
  copy_follows: CopyFollowsTable;
  copy_positions: CopyPositionsTable;
  copy_orders: CopyOrdersTable;
  copy_applications: CopyApplicationsTable;
  copy_jobs: CopyJobsTable;
  engine_projection: EngineProjectionTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type LedgerRow = Selectable<LedgerEntriesTable>;
export type Wallet = BalancesTable['wallet'];
