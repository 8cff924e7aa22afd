import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openExistingDatabase } from '../db/connection.ts';
import { operatorHeadersFor } from '../http/operator.ts';
import type { Db } from '../db/connection.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { ruleOrMessage, sendDeposit } from '../money/deposits.ts';
import { transition, withdrawalDto } from '../money/withdrawals.ts';
import { MONEY_PATHS } from '../../src/protocol/wallet.ts';
import type { Deposit, Withdrawal } from '../../src/protocol/wallet.ts';
import type { Page } from '../../src/protocol/envelope.ts';

const USAGE = `Usage:
  npm run wallet -- deposit --email <email> --coin USDT --network TRC20 --amount 100
  npm run wallet -- withdrawals [--status pending]
  npm run wallet -- approve <id>
  npm run wallet -- reject <id> [--reason "<text>"]
  npm run wallet -- fast-forward --email <email> --hours 24   (lets time pass for the user's lock and deposits; server only)
Goes through the running server (http://HOST:PORT, the same env as npm run serve) when it exposes
the dev endpoints, so open screens update live; otherwise (server stopped, or EXPOSE_OUTBOX=0) it
writes the database in DATA_DIR directly (a running server's chain job still confirms the deposit;
screens see the change on their next load). --offline forces the direct write.`;

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

interface Answer<T> {
  code: number;
  msg: string;
  data: T;
}

/**
 * One operator call on the running server with the operator token (OPERATOR_TOKEN or
 * DATA_DIR/operator.token); null when no server answers or the dev routes are off (generic 404).
 */
async function viaServer<T>(base: string, method: 'GET' | 'POST', path: string, body?: object): Promise<Answer<T> | null> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), Client: 'cli', ...operatorHeadersFor(loadConfig()) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(3000),
    });
    const env = (await res.json()) as Answer<T>;
    if (env.code === 404 && env.msg === 'Not found') return null;
    return env;
  } catch {
    return null;
  }
}

function line(w: Withdrawal): string {
  const extra = [w.txid && `txid ${w.txid}`, w.reason && `reason: ${w.reason}`].filter(Boolean).join('  ');
  return `#${w.id}  ${new Date(w.time).toISOString()}  ${w.status.padEnd(10)} ${w.amount} ${w.coin} (+${w.fee} fee) on ${w.network} to ${w.address}  ${extra}`;
}

async function offline<T>(run: (deps: FeatureDeps) => Promise<T>): Promise<T> {
  const opened = openExistingDatabase(loadConfig());
  if (typeof opened === 'string') fail(opened);
  const db: Db = opened;
  try {
    return await run({ db, clock: { now: () => Date.now() } });
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      email: { type: 'string' }, coin: { type: 'string' }, network: { type: 'string' }, amount: { type: 'string' },
      status: { type: 'string' }, reason: { type: 'string' }, hours: { type: 'string' }, offline: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, arg] = positionals;
  const config = loadConfig();
  const base = `http://${config.host}:${config.port}`;
  const live = values.offline !== true;
  if (values.help || command === undefined) fail(USAGE);

  if (command === 'deposit') {
    const { email, coin, network, amount } = values;
    if (!email || !coin || !network || !amount) fail(`deposit needs --email, --coin, --network and --amount.\n${USAGE}`);
    const body = { email, coin: coin.toUpperCase(), network, amount };
    const r = live ? await viaServer<Deposit>(base, 'POST', MONEY_PATHS.devDeposit, body) : null;
    const dep = r
      ? r.code === 200 ? r.data : fail(`Refused: ${r.msg}`)
      : await offline(async (deps) => {
          const rule = ruleOrMessage(body.coin, network);
          if (typeof rule === 'string') fail(`Refused: ${rule}`);
          const user = await findUserByEmail(deps.db, email.trim().toLowerCase());
          if (!user) fail(`No user ${email}.`);
          const d = await sendDeposit(deps, user.id, rule, amount);
          return typeof d === 'string' ? fail(`Refused: ${d}`) : d;
        });
    console.log(`Deposit #${dep.id}: ${dep.amount} ${dep.coin} on ${dep.network} to ${dep.address}, txid ${dep.txid}, ${dep.status === 'belowMinimum' ? 'below the minimum: recorded, not credited' : `confirming (0/${dep.required})`}${r ? '' : ' (written to the database directly)'}.`);
    return;
  }
  if (command === 'withdrawals') {
    const q = values.status ? `?pageSize=100&status=${encodeURIComponent(values.status)}` : '?pageSize=100';
    const r = live ? await viaServer<Page<Withdrawal>>(base, 'GET', `${MONEY_PATHS.devWithdrawals}${q}`) : null;
    const list = r
      ? r.code === 200 ? r.data.list : fail(`Refused: ${r.msg}`)
      : await offline(async ({ db }) => {
          let sel = db.selectFrom('withdrawals').selectAll().orderBy('id', 'desc').limit(100);
          if (values.status) sel = sel.where('status', '=', values.status as Withdrawal['status']);
          return (await sel.execute()).map(withdrawalDto);
        });
    if (list.length === 0) console.log('No withdrawals.');
    for (const w of list) console.log(line(w));
    return;
  }
  if (command === 'approve' || command === 'reject') {
    const id = Number(arg);
    if (!Number.isInteger(id) || id <= 0) fail(`${command} needs a withdrawal id.\n${USAGE}`);
    const body = { id, decision: command, ...(values.reason !== undefined ? { reason: values.reason } : {}) };
    const r = live ? await viaServer<Withdrawal>(base, 'POST', MONEY_PATHS.devReview, body) : null;
    const w = r
      ? r.code === 200 ? r.data : fail(`Refused: ${r.msg}`)
      : await offline(async (deps) => {
          const res = await transition(deps, id, command, values.reason !== undefined ? { reason: values.reason } : {});
          return res.ok ? res.withdrawal : fail(`Refused: ${res.msg}`);
        });
    console.log(line(w));
    return;
  }
  if (command === 'fast-forward') {
    if (!values.email || !values.hours) fail(`fast-forward needs --email and --hours.\n${USAGE}`);
    const r = await viaServer<{ withdrawLockUntil: number; deposits: number }>(base, 'POST', MONEY_PATHS.devFastForward, { email: values.email, hours: Number(values.hours) });
    if (!r) fail('fast-forward needs the running server with its development endpoints (EXPOSE_OUTBOX).');
    if (r.code !== 200) fail(`Refused: ${r.msg}`);
    const lock = r.data.withdrawLockUntil > Date.now() ? `locked until ${new Date(r.data.withdrawLockUntil).toISOString()}` : 'no withdrawal lock';
    console.log(`${values.email}: ${lock}; ${r.data.deposits} confirming deposit(s) moved ${values.hours} h earlier.`);
    return;
  }
  fail(USAGE);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
