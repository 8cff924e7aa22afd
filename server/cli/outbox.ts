import { loadConfig } from '../config.ts';
import { openExistingDatabase } from '../db/connection.ts';
import { latestMails } from '../db/repos/mailCodes.ts';

/** `npm run outbox -- [email]`: the latest mails (and their codes) from the database in DATA_DIR. Development only. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.production) {
    console.error('NODE_ENV=production keeps no outbox: mail codes go only through SMTP (docs/SECURITY.md).');
    process.exit(1);
  }
  const opened = openExistingDatabase(config);
  if (typeof opened === 'string') {
    console.error(opened);
    process.exit(1);
  }
  const email = process.argv[2]?.trim().toLowerCase() || undefined;
  const db = opened;
  try {
    const mails = await latestMails(db, email, 20);
    if (mails.length === 0) console.log(email ? `No mail to ${email}.` : 'The outbox is empty.');
    for (const m of mails) console.log(`${new Date(m.time).toISOString()}  ${m.to}  ${m.subject}  code ${m.code}`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
