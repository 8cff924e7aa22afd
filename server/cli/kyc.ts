import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { dbFile, openDb } from '../db/connection.ts';
import { getKycStatus, listKycSubmissions, reviewKyc, userIdByEmail } from '../kyc/service.ts';
import type { KycDecision } from '../../src/protocol/kyc.ts';

const USAGE = `Usage:
  npm run kyc -- review --email <email> --approve
  npm run kyc -- review --email <email> --reject "<reason>"
  npm run kyc -- status --email <email>
Reads and writes the database in DATA_DIR (default ./data).
Note: a running server does not push the decision to an open screen (the CLI has no user socket);
the screen shows it on its next load. Use POST /api/dev/kyc/review for a live update.`;

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

/**
 * `npm run kyc -- review --email <e> --approve|--reject "<reason>"`: a reviewer's decision on the
 * submission under review; `status` prints the account status and every submission (number masked).
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { email: { type: 'string' }, approve: { type: 'boolean' }, reject: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
  const file = dbFile(config.dataDir);
  if (!existsSync(file)) fail(`No database at ${file}. Start the server first (npm start) or set DATA_DIR.`);
  const db = openDb({ filename: file });
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
