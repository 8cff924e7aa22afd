import { loadConfig } from '../config.ts';
import { openExistingDatabase } from '../db/connection.ts';
import { operatorHeadersFor } from '../http/operator.ts';
import { COPY_MSG, COPY_PATHS } from '../../src/protocol/copy.ts';
import { transact } from '../db/tx.ts';

const USAGE = `Usage:
  npm run copy -- approve <email>
  npm run copy -- reject <email> ["<reason>"]
  npm run copy -- status <email>
Reviews a trader application (trader_apply). A decision goes through the running server
(http://HOST:PORT, the same env as npm run serve) when it exposes the dev endpoint, so the
applicant's open screen updates live; otherwise it writes the database in DATA_DIR directly.`;

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

interface Answer {
  code: number;
  msg: string;
  data: { status?: string } | null;
}

async function throughServer(base: string, email: string, decision: 'approve' | 'reject', reason: string | undefined): Promise<Answer | null> {
  try {
    const res = await fetch(`${base}/api${COPY_PATHS.devReview}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Client: 'cli', ...operatorHeadersFor(loadConfig()) },
      body: JSON.stringify(reason === undefined ? { email, decision } : { email, decision, reason }),
      signal: AbortSignal.timeout(3000),
    });
    const env = (await res.json()) as Answer;
    if (env.code === 404 && env.msg !== COPY_MSG.userNotFound && env.msg !== COPY_MSG.applicationNotFound) return null;
    return env;
  } catch {
    return null;
  }
}

/** `npm run copy -- approve|reject <email>`: a reviewer's decision on the application under review. */
async function main(): Promise<void> {
  const [command, rawEmail, reason] = process.argv.slice(2);
  if (command !== 'approve' && command !== 'reject' && command !== 'status') fail(USAGE);
  const email = rawEmail?.trim().toLowerCase();
  if (!email) fail(`An email is required.\n${USAGE}`);
  const config = loadConfig();
  if (command !== 'status') {
    const live = await throughServer(`http://${config.host}:${config.port}`, email, command, reason);
    if (live !== null) {
      if (live.code !== 200) fail(`Refused: ${live.msg}`);
      console.log(`${email}: ${live.msg} (live, through the running server); status now ${live.data?.status ?? 'unknown'}.`);
      return;
    }
  }
  const opened = openExistingDatabase(config);
  if (typeof opened === 'string') fail(opened);
  const db = opened;
  try {
    const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (!user) fail(`No user ${email}.`);
    if (command === 'status') {
      const rows = await db.selectFrom('copy_applications').selectAll().where('user_id', '=', user.id).orderBy('id', 'desc').execute();
      if (rows.length === 0) console.log(`${email}: no application`);
      for (const a of rows) console.log(`#${a.id} ${new Date(a.created_at).toISOString()} ${a.status} ${a.nickname}${a.reason ? `  reason: ${a.reason}` : ''}`);
      return;
    }
    const now = Date.now();
    const res = await transact(db, async (trx) => {
      const a = await trx.selectFrom('copy_applications').selectAll().where('user_id', '=', user.id).where('status', '=', 'review').orderBy('id', 'desc').executeTakeFirst();
      if (!a) return null;
      const status = command === 'approve' ? 'approved' : 'rejected';
      await trx.updateTable('copy_applications').set({ status, reason: reason ?? null, reviewed_at: now }).where('id', '=', a.id).execute();
      if (command === 'approve') {
        await trx
          .insertInto('copy_traders')
          .values({ user_id: user.id, nickname: a.nickname, bio: a.experience, simulated: 0, status: 'active', created_at: now })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ status: 'active', nickname: a.nickname }))
          .execute();
      }
      return status;
    });
    if (res === null) fail(`Refused: ${COPY_MSG.applicationNotFound}`);
    console.log(`${email}: ${res} (offline; the screen shows it on its next load).`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
