import { z } from 'zod';
import { boostBody, claimBody, compensationListQuery, fastForwardBody, withdrawBody as compensationWithdrawBody } from './compensation.ts';
import { conversionSchema, convertBody, convertHistoryQuery, quoteBody, quoteSchema } from './convert.ts';
import { helpLangQuery, helpSearchQuery, notifyPrefsBody } from './help.ts';
import { notificationListQuery, notificationReadBody, notificationSchema, unreadCountSchema } from './notifications.ts';
import {
  copyApplyBody, copyClosePositionBody, copyDevReviewBody, copyDevTradeBody, copyFollowBody, copyOrdersQuery, copyUnfollowBody, traderHistoryQuery, tradersQuery,
} from './copy.ts';
import { kycDevReviewBody, kycFieldsSchema } from './kyc.ts';
import { depthQuery, klinesQuery, tradesQuery } from './market.ts';
import {
  cancelOrderBody, closeAllBody, closePositionBody, editOrderBody, fillsQuery, ledgerQuery, ordersQuery, placeOrderBody, positionsQuery, tpslBody, transferBody,
} from './trading.ts';
import { rulesQuery } from './contractRules.ts';
import {
  authTypeBody, bindGoogleBody, checkGoogleCodeBody, loginBody, loginHistoryBody, modifyInfoFields, modifyPasswordBody, outboxQuery, registerBody,
  resetPasswordBody, sendMailCodeBody,
} from './user.ts';
import { voucherListQuery, voucherMergeBody } from './vouchers.ts';
import { inviteesQuery } from './referral.ts';
import {
  chainRuleSchema, depositAddressQuery, depositAddressSchema, depositSchema, devDepositBody, devFastForwardBody, devReviewBody, historyQuery, historyRowSchema, withdrawalIdBody,
  withdrawalSchema, withdrawInfoQuery, withdrawInfoSchema, withdrawLockSchema, withdrawRequestBody,
  addAddressBody, addressBookSchema, addressIdBody, limitRefusalSchema, renameAddressBody, whitelistBody,
} from './wallet.ts';

/**
 * The HTTP API described once: every route the server registers, with the zod schemas it
 * validates with. server/openapi.ts turns this into the OpenAPI document served at /api/docs in
 * development and written to docs/openapi.json (`npm run openapi`); a test fails when a
 * registered route is missing here. Conventions (envelope, codes, auth header): docs/API.md.
 */
export interface ApiRoute {
  method: 'get' | 'post';
  /** Fastify path; `:name` parameters. */
  path: string;
  tag: string;
  summary: string;
  /** Needs the Authorization token. */
  auth?: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** How the body is sent when not JSON. */
  bodyType?: 'form' | 'multipart';
  /** Only with EXPOSE_OUTBOX (development / operators). */
  dev?: boolean;
  /** A WebSocket upgrade (the frames are described in docs/PROTOCOL.md). */
  websocket?: boolean;
  /** The TypeScript type of the envelope's `data` (src/protocol). */
  data?: string;
  /** The zod schema of the envelope's `data` on success, where the protocol has one. */
  response?: z.ZodType;
}

/** `Page<T>` as a schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}

const r = (method: ApiRoute['method'], path: string, tag: string, summary: string, extra: Omit<ApiRoute, 'method' | 'path' | 'tag' | 'summary'> = {}): ApiRoute => ({
  method, path, tag, summary, ...extra,
});
const A = { auth: true } as const;

export const API_ROUTES: readonly ApiRoute[] = [
  r('get', '/api/health', 'misc', 'Liveness and the server clock', { data: '{status, time}' }),
  r('get', '/api/files/avatars/:name', 'misc', 'An uploaded avatar image (raw bytes, not an envelope)'),
  r('get', '/api/dev/outbox', 'dev', 'The latest mailed codes (development)', { dev: true, query: outboxQuery, data: 'OutboxMail[]' }),
  r('get', '/api/docs', 'dev', 'This API description as a page (development)', { dev: true }),
  r('get', '/api/docs/openapi.json', 'dev', 'This API description, OpenAPI 3.1 JSON (development)', { dev: true }),

  r('post', '/api/user/sendMailCode', 'user', 'Mail a verification code (register, login, reset, security)', { body: sendMailCodeBody }),
  r('post', '/api/user/register', 'user', 'Create an account', { body: registerBody }),
  r('post', '/api/user/authType', 'user', 'Check email + password; which second factor the login needs', { body: authTypeBody, data: 'AuthTypeResult' }),
  r('post', '/api/user/login', 'user', 'Log in (form payload); answers the token', { body: loginBody, bodyType: 'form', data: 'LoginResult' }),
  r('post', '/api/user/resetPassword', 'user', 'Reset the password with a mailed code (locks withdrawals 48 h)', { body: resetPasswordBody }),
  r('get', '/api/user/logout', 'user', 'End this session', A),
  r('get', '/api/user/info', 'user', 'The caller', { ...A, data: 'UserInfo' }),
  r('post', '/api/user/modify-password', 'user', 'Change the password (locks withdrawals 24 h)', { ...A, body: modifyPasswordBody }),
  r('post', '/api/user/modify-info', 'user', 'Nickname and avatar (multipart or form)', { ...A, body: modifyInfoFields, bodyType: 'multipart', data: 'UserInfo' }),
  r('post', '/api/user/login-history', 'user', 'Login records, paged', { ...A, body: loginHistoryBody, data: 'Page<LoginRecord>' }),
  r('get', '/api/user/get-google-code', 'user', 'A pending authenticator secret and its otpauth URI', { ...A, data: 'GoogleCodeResult' }),
  r('post', '/api/user/check-google-code', 'user', 'Check an authenticator code', { ...A, body: checkGoogleCodeBody }),
  r('post', '/api/user/bind-google-authen', 'user', 'Bind the authenticator', { ...A, body: bindGoogleBody }),

  r('get', '/api/market/symbols', 'market', 'Every instrument', { data: 'SymbolInfo[]' }),
  r('get', '/api/market/tickers', 'market', '24 h tickers', { data: 'Ticker[]' }),
  r('get', '/api/market/depth', 'market', 'Order book snapshot', { query: depthQuery, data: 'DepthSnapshot' }),
  r('get', '/api/market/trades', 'market', 'Recent trades', { query: tradesQuery, data: 'Trade[]' }),
  r('get', '/api/market/klines', 'market', 'Candles', { query: klinesQuery, data: 'Candle[]' }),
  r('get', '/api/ws/market', 'sockets', 'Market socket (subscribe to pair@type topics)', { websocket: true }),
  r('get', '/api/ws/user', 'sockets', "User socket (auth with the token first; the user's frames)", { websocket: true }),

  r('get', '/api/wallet/balances', 'wallet', 'Every wallet × coin', { ...A, data: 'Balance[]' }),
  r('post', '/api/wallet/transfer', 'wallet', 'Move money between two of the caller’s wallets', { ...A, body: transferBody, data: 'TransferResult' }),
  r('get', '/api/wallet/ledger', 'wallet', 'Ledger entries, paged', { ...A, query: ledgerQuery, data: 'Page<LedgerEntry>' }),

  r('post', '/api/trade/order', 'trade', 'Place an order', { ...A, body: placeOrderBody, data: 'Order' }),
  r('post', '/api/trade/order/cancel', 'trade', 'Cancel a pending order', { ...A, body: cancelOrderBody, data: 'Order' }),
  r('get', '/api/trade/orders/open', 'trade', 'Pending orders, paged', { ...A, query: ordersQuery, data: 'Page<Order>' }),
  r('get', '/api/trade/orders/history', 'trade', 'Filled and canceled orders, paged', { ...A, query: ordersQuery, data: 'Page<Order>' }),
  r('get', '/api/trade/fills', 'trade', 'Trade history, paged', { ...A, query: fillsQuery, data: 'Page<Fill>' }),
  r('get', '/api/trade/positions', 'trade', 'Open positions', { ...A, query: positionsQuery, data: 'Position[]' }),
  r('post', '/api/trade/position/close', 'trade', 'Close a position', { ...A, body: closePositionBody }),
  r('post', '/api/trade/position/tpsl', 'trade', 'Set take-profit / stop-loss', { ...A, body: tpslBody }),
  r('post', '/api/trade/order/edit', 'trade', 'Edit a pending order in place (price, trigger price, quantity)', { ...A, body: editOrderBody, data: 'Order' }),
  r('post', '/api/trade/position/close-all', 'trade', 'Market-close every open position (optionally one symbol / contract)', { ...A, body: closeAllBody, data: 'Order[]' }),
  r('get', '/api/trade/rules', 'trade', 'Contract details: maker / taker rates and maintenance margin brackets', { query: rulesQuery, data: 'ContractRules' }),

  r('get', '/api/money/networks', 'money', 'Coins, networks, minimums, fees and confirmations', { data: 'ChainRule[]', response: z.array(chainRuleSchema) }),
  r('get', '/api/money/deposit/address', 'money', "The caller's deposit address on a network", { ...A, query: depositAddressQuery, data: 'DepositAddress', response: depositAddressSchema }),
  r('get', '/api/money/deposits', 'money', 'Deposits, paged', { ...A, query: historyQuery, data: 'Page<Deposit>', response: pageSchema(depositSchema) }),
  r('get', '/api/money/withdraw/info', 'money', 'What the withdrawal form shows (available, min, fee, max, security, lock)', { ...A, query: withdrawInfoQuery, data: 'WithdrawInfo', response: withdrawInfoSchema }),
  r('post', '/api/money/withdraw', 'money', 'Request a withdrawal (holds amount + fee)', { ...A, body: withdrawRequestBody, data: 'Withdrawal | WithdrawLock (code 403) | LimitRefusal (daily limit, code 400)', response: z.union([withdrawalSchema, withdrawLockSchema, limitRefusalSchema]) }),
  r('post', '/api/money/withdraw/cancel', 'money', 'Cancel a pending withdrawal', { ...A, body: withdrawalIdBody, data: 'Withdrawal', response: withdrawalSchema }),
  r('get', '/api/money/withdraw/addresses', 'money', 'The withdrawal address book and whitelist mode', { ...A, data: 'AddressBook', response: addressBookSchema }),
  r('post', '/api/money/withdraw/addresses', 'money', 'Save a withdrawal address with a label (checked for the network; usable after 24 h while whitelist mode is on)', { ...A, body: addAddressBody, data: 'AddressBook', response: addressBookSchema }),
  r('post', '/api/money/withdraw/addresses/rename', 'money', 'Rename a saved address', { ...A, body: renameAddressBody, data: 'AddressBook', response: addressBookSchema }),
  r('post', '/api/money/withdraw/addresses/delete', 'money', 'Delete a saved address', { ...A, body: addressIdBody, data: 'AddressBook', response: addressBookSchema }),
  r('post', '/api/money/withdraw/whitelist', 'money', 'Whitelist-only mode: on at once, off 24 h after the request (security mail code)', { ...A, body: whitelistBody, data: 'AddressBook', response: addressBookSchema }),
  r('get', '/api/money/withdrawals', 'money', 'Withdrawals, paged', { ...A, query: historyQuery, data: 'Page<Withdrawal>', response: pageSchema(withdrawalSchema) }),
  r('get', '/api/money/history', 'money', 'Wallet history: deposits, withdrawals, transfers', { ...A, query: historyQuery, data: 'Page<HistoryRow>', response: pageSchema(historyRowSchema) }),
  r('post', '/api/dev/money/deposit', 'dev', 'Send a simulated chain deposit (operator)', { dev: true, body: devDepositBody, data: 'Deposit', response: depositSchema }),
  r('get', '/api/dev/money/withdrawals', 'dev', 'Every withdrawal (operator)', { dev: true, query: historyQuery, data: 'Page<Withdrawal>', response: pageSchema(withdrawalSchema) }),
  r('post', '/api/dev/money/fast-forward', 'dev', 'Let hours pass for one user’s withdrawal lock and confirming deposits (development)', { dev: true, body: devFastForwardBody, data: '{withdrawLockUntil, deposits}' }),
  r('post', '/api/dev/money/review', 'dev', 'Approve or reject a pending withdrawal (operator)', { dev: true, body: devReviewBody, data: 'Withdrawal', response: withdrawalSchema }),

  r('get', '/api/convert/pairs', 'convert', 'Convertible pairs with live rates', { data: '{from, to, rate}[]' }),
  r('post', '/api/convert/quote', 'convert', 'Quote: locks the rate for 8 s', { ...A, body: quoteBody, data: 'Quote', response: quoteSchema }),
  r('post', '/api/convert', 'convert', 'Convert a quote at its rate, once, before it expires', { ...A, body: convertBody, data: 'Conversion', response: conversionSchema }),
  r('get', '/api/convert/history', 'convert', 'Filled converts, paged', { ...A, query: convertHistoryQuery, data: 'Page<Conversion>', response: pageSchema(conversionSchema) }),

  r('get', '/api/compensation/orders', 'compensation', 'Compensation orders, paged, with the summary', { ...A, query: compensationListQuery, data: 'CompensationList' }),
  r('post', '/api/compensation/claim', 'compensation', 'Claim with a loss-protection voucher', { ...A, body: claimBody, data: 'CompensationOrder' }),
  r('post', '/api/compensation/boost', 'compensation', 'Boost with a speed voucher', { ...A, body: boostBody, data: 'CompensationOrder' }),
  r('post', '/api/compensation/withdraw', 'compensation', 'Withdraw a paid-out order to the fund wallet', { ...A, body: compensationWithdrawBody, data: 'CompensationOrder' }),
  r('post', '/api/dev/compensation/fast-forward', 'dev', 'Run the payout days (development)', { dev: true, body: fastForwardBody }),

  r('get', '/api/kyc/status', 'kyc', 'Identity verification status', { ...A, data: 'KycStatus' }),
  r('post', '/api/kyc/submit', 'kyc', 'Submit the identity form with two photos', { ...A, body: kycFieldsSchema, bodyType: 'multipart', data: 'KycStatus' }),
  r('post', '/api/dev/kyc/review', 'dev', 'Approve or reject a submission (operator)', { dev: true, body: kycDevReviewBody }),

  r('get', '/api/copy/traders', 'copy', 'Lead traders with their figures, sorted and searched', { query: tradersQuery, data: 'CopyTrader[]' }),
  r('get', '/api/copy/traders/:id', 'copy', 'A lead trader: figures, PnL series, open positions', { data: 'CopyTraderDetail' }),
  r('get', '/api/copy/traders/:id/history', 'copy', "A lead trader's fills, paged", { query: traderHistoryQuery, data: 'Page<CopyTraderFill>' }),
  r('post', '/api/copy/follow', 'copy', 'Copy a lead trader: moves the amount into the copy wallet', { ...A, body: copyFollowBody, data: 'CopyFollow' }),
  r('post', '/api/copy/unfollow', 'copy', 'Stop copying: close or keep the copied positions, cash back', { ...A, body: copyUnfollowBody, data: 'CopyFollow' }),
  r('get', '/api/copy/follows', 'copy', "The caller's copies", { ...A, data: 'CopyFollow[]' }),
  r('get', '/api/copy/positions', 'copy', "The caller's open copied positions", { ...A, data: 'CopyPosition[]' }),
  r('post', '/api/copy/position/close', 'copy', 'Close a copied position at the mark', { ...A, body: copyClosePositionBody, data: 'CopyPosition' }),
  r('get', '/api/copy/orders', 'copy', 'Mirrored orders (filled and skipped), paged', { ...A, query: copyOrdersQuery, data: 'Page<CopyOrder>' }),
  r('get', '/api/copy/apply', 'copy', "The caller's latest trader application (trader_apply)", { ...A, data: 'CopyApplication | null' }),
  r('post', '/api/copy/apply', 'copy', 'Apply to become a lead trader', { ...A, body: copyApplyBody, data: 'CopyApplication' }),
  r('post', '/api/dev/copy/trade', 'dev', "Place a lead trader's next order now (development)", { dev: true, body: copyDevTradeBody, data: 'Order' }),
  r('post', '/api/dev/copy/review', 'dev', 'Approve or reject a trader application (operator)', { dev: true, body: copyDevReviewBody, data: 'CopyApplication' }),
  r('post', '/api/dev/copy/sim', 'dev', 'Run one simulated lead-trader round now (development)', { dev: true, data: '{placed}' }),

  r('get', '/api/vouchers', 'vouchers', 'Vouchers, paged', { ...A, query: voucherListQuery, data: 'Page<Voucher>' }),
  r('post', '/api/vouchers/merge', 'vouchers', 'Merge vouchers', { ...A, body: voucherMergeBody, data: 'Voucher' }),

  r('get', '/api/referral/summary', 'referral', 'Invitation code and link, rebate rate, earnings (total, yesterday and today by UTC day), invited count', { ...A, data: 'ReferralSummary' }),
  r('get', '/api/referral/invitees', 'referral', 'Invited accounts, paged: masked email, sign-up time, volume, fees and rebate produced', { ...A, query: inviteesQuery, data: 'Page<Invitee>' }),
  r('get', '/api/help/categories', 'help', 'Help categories in the request language (Web-Lang or ?lang)', { query: helpLangQuery, data: 'HelpCategory[]' }),
  r('get', '/api/help/categories/:id', 'help', 'A help category with its articles (a help-list page)', { query: helpLangQuery, data: 'HelpCategoryDetail' }),
  r('get', '/api/help/articles/:id', 'help', 'A help article as structured blocks (a help-detail page)', { query: helpLangQuery, data: 'HelpArticle' }),
  r('get', '/api/help/search', 'help', 'Search the help articles of one language', { query: helpSearchQuery, data: '{list: HelpSearchHit[], total}' }),
  r('get', '/api/notify/prefs', 'notify', 'Notification language and sysNotify / tradeNotify / eventNotify', { ...A, data: 'NotifyPrefs' }),
  r('post', '/api/notify/prefs', 'notify', 'Save any subset of the notification preferences', { ...A, body: notifyPrefsBody, data: 'NotifyPrefs' }),
  r('get', '/api/notify/list', 'notify', 'In-app notifications, newest first, paged (unread=1: only unread)', { ...A, query: notificationListQuery, data: 'Page<Notification>', response: pageSchema(notificationSchema) }),
  r('get', '/api/notify/unread', 'notify', 'Number of unread notifications', { ...A, data: 'UnreadCount', response: unreadCountSchema }),
  r('post', '/api/notify/read', 'notify', "Mark the user's notifications with these ids read; answers the unread count", { ...A, body: notificationReadBody, data: 'UnreadCount', response: unreadCountSchema }),
  r('post', '/api/notify/read-all', 'notify', 'Mark every notification read; answers the unread count', { ...A, data: 'UnreadCount', response: unreadCountSchema }),
  r('get', '/api/dashboard/summary', 'dashboard', "Today's realized PnL and fees (UTC day) and usable vouchers", { ...A, data: 'DashboardSummary' }),
];

