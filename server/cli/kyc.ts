import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openExistingDatabase } from '../db/connection.ts';
import { operatorHeadersFor } from '../http/operator.ts';
import { getKycStatus, listKycSubmissions, reviewKyc, userIdByEmail } from '../kyc/service.ts';
import { KYC_MSG, KYC_PATHS } from '../../src/protocol/kyc.ts';
import type { KycDecision } from '../../src/protocol/kyc.ts';

const USAGE = `Usage:
  npm run kyc -- review --email <email> --approve
  npm run kyc -- review --email <email> --reject "<reason>"
  npm run kyc -- status --email <email>
A review goes through the running server (http://HOST:PORT, the same env as npm run serve) when it
exposes the dev endpoint, so an open screen updates live; otherwise (server stopped, or
EXPOSE_OUTBOX=0) it writes the database in DATA_DIR directly and the screen shows the decision on
its next load. --offline forces the direct write.`;

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

interface Answer {
  code: number;
  msg: string;
  data: { status?: string } | null;
}

/**
 * POST /api/dev/kyc/review on a running server, which also pushes the `kyc` frame to the user's
 * open screens. Null when no server answers there or it does not expose the dev endpoint.
 */
async function reviewThroughServer(base: string, email: string, decision: KycDecision, reason: string | undefined): Promise<Answer | null> {
  try {
    const res = await fetch(`${base}/api${KYC_PATHS.devReview}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Client: 'cli', ...operatorHeadersFor(loadConfig()) },
      body: JSON.stringify(reason === undefined ? { email, decision } : { email, decision, reason }),
      signal: AbortSignal.timeout(3000),
    });
    const env = (await res.json()) as Answer;
    // The dev routes are not registered (EXPOSE_OUTBOX=0): the generic not-found envelope.
    if (env.code === 404 && env.msg !== KYC_MSG.userNotFound) return null;
    return env;
  } catch {
    return null;
  }
}

/**
 * `npm run kyc -- review --email <e> --approve|--reject "<reason>"`: a reviewer's decision on the
 * submission under review; `status` prints the account status and every submission (number masked).
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { email: { type: 'string' }, approve: { type: 'boolean' }, reject: { type: 'string' }, offline: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0];
  if (values.help || (command !== 'review' && command !== 'status')) fail(USAGE);
  const email = values.email?.trim().toLowerCase();
  if (!email) fail(`--email is required.\n${USAGE}`);
  let decision: KycDecision | null = null;
  if (command === 'review') {
    if (values.approve === true && values.reject !== undefined) fail('Choose one of --approve or --reject "<reason>".');
    if (values.approve === true) decision = 'approve';
    else if (values.reject !== undefined) decision = 'reject';
    else fail(`review needs --approve or --reject "<reason>".\n${USAGE}`);
  }

  const config = loadConfig();
  if (decision !== null && values.offline !== true) {
    const live = await reviewThroughServer(`http://${config.host}:${config.port}`, email, decision, values.reject);
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
    const userId = await userIdByEmail(db, email);
    if (userId === undefined) fail(`No user ${email}.`);
    if (decision !== null) {
      const res = await reviewKyc(db, { userId, decision, reason: values.reject }, Date.now());
      if (!res.ok) fail(`Refused: ${res.msg}`);
      console.log(`${email}: ${decision === 'approve' ? 'approved' : `rejected (${values.reject ?? ''})`}; status now ${res.status.status}.`);
      return;
    }
    const status = await getKycStatus(db, userId);
    console.log(`${email}: ${status?.status ?? 'unknown'}`);
    for (const s of await listKycSubmissions(db, userId)) {
      const reason = s.reason ? `  reason: ${s.reason}` : '';
      console.log(`  #${s.id} ${new Date(s.submittedAt).toISOString()}  ${s.status}  ${s.country} ${s.docType} ${s.firstName} ${s.lastName} ${s.docNumberMasked}${reason}`);
    }
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
