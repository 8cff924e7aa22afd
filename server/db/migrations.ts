import { Migrator, sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely, Migration, MigrationProvider } from 'kysely';
import type { Database } from './schema.ts';

/** Which SQL dialect the schema is created for; only DDL differs (docs/DATABASE.md). */
export type DialectName = 'sqlite' | 'postgres';

/** An auto-incrementing integer primary key in the given dialect. */
function autoId(dialect: DialectName) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/**
 * A binary float column: SQLite's REAL is 8 bytes, PostgreSQL's `real` only 4, so PostgreSQL gets
 * `double precision` (the same IEEE double SQLite stores). Before issue 13 no PostgreSQL database was
 * ever migrated, so the PostgreSQL DDL of the early migrations could still be corrected here.
 */
function floatType(dialect: DialectName): 'real' | 'double precision' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/**
 * The migrations, in order. Never edit a released migration: append a new one.
 * `Kysely<unknown>` on purpose: a migration must not depend on today's TypeScript schema.
 */
export function migrations(dialect: DialectName): Record<string, Migration> {
  const id = autoId(dialect);
  const real = floatType(dialect);
  // Row ids: SQLite's INTEGER is already 64-bit; PostgreSQL's integer is 32-bit, so ids are bigint there.
  const rowId = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    '0001_users_and_auth': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .addColumn('id', 'bigint', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('nickname', 'text', (c) => c.notNull())
          .addColumn('invite_code', 'text', (c) => c.notNull().unique())
          .addColumn('invited_by', 'bigint', (c) => c.references('users.id'))
          .addColumn('avatar', 'text')
          .addColumn('kyc_status', 'text', (c) => c.notNull().defaultTo('unverified'))
          .addColumn('google_secret', 'text')
          .addColumn('google_pending_secret', 'text')
          .addColumn('withdraw_lock_until', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('sessions')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .addColumn('ip', 'text', (c) => c.notNull())
          .addColumn('client', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
        await db.schema
          .createTable('mail_codes')
          .addColumn('id', rowId, id)
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('purpose', 'text', (c) => c.notNull())
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('mail_codes_email').on('mail_codes').columns(['email', 'purpose', 'created_at']).execute();
        await db.schema
          .createTable('outbox')
          .addColumn('id', rowId, id)
          .addColumn('to_email', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('outbox_to').on('outbox').columns(['to_email', 'id']).execute();
        await db.schema
          .createTable('login_history')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('client', 'text', (c) => c.notNull())
          .addColumn('ip', 'text', (c) => c.notNull())
          .addColumn('account', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('login_history_user').on('login_history').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('avatars')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull().unique())
          .addColumn('mime', 'text', (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['avatars', 'login_history', 'outbox', 'mail_codes', 'sessions', 'users']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    '0002_balances_and_ledger': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('balances')
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('wallet', 'text', (c) => c.notNull())
          .addColumn('asset', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('balances_pk', ['user_id', 'wallet', 'asset'])
          .execute();
        await db.schema
          .createTable('ledger_entries')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('wallet', 'text', (c) => c.notNull())
          .addColumn('asset', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('balance_after', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('ref', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('ledger_user').on('ledger_entries').columns(['user_id', 'id']).execute();
        // The system account: the counter-party of ADMIN_ADJUST credits (double entry). It cannot log in.
        await sql`INSERT INTO users (id, email, password_hash, nickname, invite_code, role, created_at)
                  VALUES (1, 'system@riskfree.invalid', '!', 'System', 'SYSTEM00', 'system', 0)`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`DELETE FROM users WHERE id = 1`.execute(db);
        await db.schema.dropTable('ledger_entries').ifExists().execute();
        await db.schema.dropTable('balances').ifExists().execute();
      },
    },
    '0003_totp_replay_guard': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('users').addColumn('google_last_step', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('users').dropColumn('google_last_step').execute();
      },
    },
    '0004_futures_trading': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('trade_orders')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('client_order_id', 'text', (c) => c.notNull())
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('side', 'text', (c) => c.notNull())
          .addColumn('price', real, (c) => c.notNull())
          .addColumn('qty', real, (c) => c.notNull())
          .addColumn('leverage', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('executed_qty', real, (c) => c.notNull())
          .addColumn('avg_price', real, (c) => c.notNull())
          .addColumn('fee', 'text', (c) => c.notNull())
          .addColumn('realized_pnl', 'text', (c) => c.notNull())
          .addColumn('margin', 'text', (c) => c.notNull())
          .addColumn('position_id', 'text')
          .addColumn('tp', real)
          .addColumn('sl', real)
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('trade_orders_client_id', ['user_id', 'client_order_id'])
          .execute();
        await db.schema.createIndex('trade_orders_user').on('trade_orders').columns(['user_id', 'created_at']).execute();
        await db.schema.createIndex('trade_orders_pending').on('trade_orders').columns(['status', 'symbol']).execute();
        await db.schema
          .createTable('trade_positions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('side', 'text', (c) => c.notNull())
          .addColumn('qty', 'text', (c) => c.notNull())
          .addColumn('cost', 'text', (c) => c.notNull())
          .addColumn('margin', 'text', (c) => c.notNull())
          .addColumn('leverage', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('realized_pnl', 'text', (c) => c.notNull())
          .addColumn('opened_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('closed_at', 'bigint')
          .execute();
        await db.schema.createIndex('trade_positions_open').on('trade_positions').columns(['status', 'symbol']).execute();
        await db.schema.createIndex('trade_positions_user').on('trade_positions').columns(['user_id', 'status']).execute();
        await db.schema
          .createTable('trade_fills')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('order_id', 'text', (c) => c.notNull())
          .addColumn('position_id', 'text', (c) => c.notNull())
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('side', 'text', (c) => c.notNull())
          .addColumn('price', real, (c) => c.notNull())
          .addColumn('qty', real, (c) => c.notNull())
          .addColumn('fee', 'text', (c) => c.notNull())
          .addColumn('realized_pnl', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('trade_fills_user').on('trade_fills').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('ledger_refs')
          .addColumn('ref', 'text', (c) => c.primaryKey())
          .addColumn('symbol', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('trading_jobs')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('last_run', 'bigint', (c) => c.notNull())
          .execute();
        // The margin escrow: holds every locked margin (pending open orders, open positions). It never goes negative.
        await sql`INSERT INTO users (id, email, password_hash, nickname, invite_code, role, created_at)
                  VALUES (2, 'escrow@riskfree.invalid', '!', 'Margin escrow', 'ESCROW00', 'system', 0)`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`DELETE FROM users WHERE id = 2`.execute(db);
        for (const t of ['trading_jobs', 'ledger_refs', 'trade_fills', 'trade_positions', 'trade_orders']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    '0005_kyc_compensation_vouchers': {
      async up(db: Kysely<unknown>) {
        // Identity verification: one row per submission; users.kyc_status mirrors the latest decision.
        await db.schema
          .createTable('kyc_submissions')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('country', 'text', (c) => c.notNull())
          .addColumn('doc_type', 'text', (c) => c.notNull())
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('doc_number', 'text', (c) => c.notNull())
          .addColumn('cover_file', 'text', (c) => c.notNull())
          .addColumn('info_file', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('reason', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('reviewed_at', 'bigint')
          .execute();
        await db.schema.createIndex('kyc_submissions_user').on('kyc_submissions').columns(['user_id', 'id']).execute();
        // Loss-protection and speed vouchers (SPEC §3, §4).
        await db.schema
          .createTable('vouchers')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'bigint')
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('used_ref', 'text')
          .addColumn('merged_into', rowId)
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('used_at', 'bigint')
          .execute();
        await db.schema.createIndex('vouchers_user').on('vouchers').columns(['user_id', 'status']).execute();
        // Compensation orders (SPEC §3, §4): the risk fund pays back a share of realised losses over days.
        await db.schema
          .createTable('compensation_orders')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('total_user_pnl', 'text', (c) => c.notNull())
          .addColumn('total_user_compensation', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('paid', 'text', (c) => c.notNull())
          .addColumn('duration_days', 'integer', (c) => c.notNull())
          .addColumn('daily_return', 'text', (c) => c.notNull())
          .addColumn('covered_ledger_id', 'bigint', (c) => c.notNull())
          .addColumn('boosts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('activated_at', 'bigint')
          .addColumn('next_payout_at', 'bigint')
          .addColumn('completed_at', 'bigint')
          .execute();
        await db.schema.createIndex('compensation_orders_user').on('compensation_orders').columns(['user_id', 'id']).execute();
        await db.schema.createIndex('compensation_orders_due').on('compensation_orders').columns(['status', 'next_payout_at']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['compensation_orders', 'vouchers', 'kyc_submissions']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // Money in and out (issue 12, docs/WALLET.md): deposits on the simulated chain, withdrawals and
    // their holds, convert quotes, and the server secret the deposit addresses are derived from.
    '0006_wallet_money': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('deposits')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('coin', 'text', (c) => c.notNull())
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('txid', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('confirmations', 'integer', (c) => c.notNull())
          .addColumn('required', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('credited_at', 'bigint')
          .execute();
        await db.schema.createIndex('deposits_user').on('deposits').columns(['user_id', 'id']).execute();
        await db.schema.createIndex('deposits_status').on('deposits').column('status').execute();
        await db.schema
          .createTable('withdrawals')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('coin', 'text', (c) => c.notNull())
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('fee', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('txid', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('withdrawals_user').on('withdrawals').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('convert_quotes')
          .addColumn('id', rowId, id)
          .addColumn('quote_id', 'text', (c) => c.notNull().unique())
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('from_coin', 'text', (c) => c.notNull())
          .addColumn('to_coin', 'text', (c) => c.notNull())
          .addColumn('account', 'text', (c) => c.notNull())
          .addColumn('rate', 'text', (c) => c.notNull())
          .addColumn('from_amount', 'text', (c) => c.notNull())
          .addColumn('to_amount', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('filled_at', 'bigint')
          .execute();
        await db.schema.createIndex('convert_quotes_user').on('convert_quotes').columns(['user_id', 'filled_at']).execute();
        await db.schema
          .createTable('server_secrets')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        // Withdrawal holds: amount + fee of every pending / processing withdrawal. It never goes negative.
        await sql`INSERT INTO users (id, email, password_hash, nickname, invite_code, role, created_at)
                  VALUES (3, 'holds@riskfree.invalid', '!', 'Withdrawal holds', 'HOLDS000', 'system', 0)`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`DELETE FROM users WHERE id = 3`.execute(db);
        for (const t of ['server_secrets', 'convert_quotes', 'withdrawals', 'deposits']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // Issue 14 (0006 is the wallet-money migration of the srv branch): order options (reduce-only, post-only, time in force, stop triggers), partial executions, maker/taker fills.
    '0007_order_options': {
      async up(db: Kysely<unknown>) {
        const cols: [string, 'integer' | 'text' | 'real' | 'double precision' | 'bigint', string | number | null][] = [
          ['reduce_only', 'integer', 0],
          ['post_only', 'integer', 0],
          ['time_in_force', 'text', 'GTC'],
          ['trigger_price', real, null],
          ['trigger_by', 'text', 'last'],
          ['triggered_at', 'bigint', null],
          ['cancel_reason', 'text', null],
          ['exec_notional', 'text', '0'],
        ];
        for (const [name, type, def] of cols) {
          await db.schema
            .alterTable('trade_orders')
            .addColumn(name, type, (c) => (def === null ? c : c.notNull().defaultTo(def)))
            .execute();
        }
        await db.schema.alterTable('trade_fills').addColumn('liquidity', 'text', (c) => c.notNull().defaultTo('taker')).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('trade_fills').dropColumn('liquidity').execute();
        for (const c of ['exec_notional', 'cancel_reason', 'triggered_at', 'trigger_by', 'trigger_price', 'time_in_force', 'post_only', 'reduce_only']) {
          await db.schema.alterTable('trade_orders').dropColumn(c).execute();
        }
      },
    },
    // Issue 15: the help centre's categories and articles (one row per id and language; bodies are
    // structured blocks as JSON, `plain` their text for search), the content version they were
    // synced from, and each user's notification preferences (SPEC §3 notification modules).
    '0008_help_and_notify': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('help_categories')
          .addColumn('id', 'integer', (c) => c.notNull())
          .addColumn('lang', 'text', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('summary', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('help_categories_pk', ['id', 'lang'])
          .execute();
        await db.schema
          .createTable('help_articles')
          .addColumn('id', 'integer', (c) => c.notNull())
          .addColumn('lang', 'text', (c) => c.notNull())
          .addColumn('category_id', 'integer', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('summary', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('plain', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('help_articles_pk', ['id', 'lang'])
          .execute();
        await db.schema.createIndex('help_articles_category').on('help_articles').columns(['lang', 'category_id', 'position']).execute();
        await db.schema
          .createTable('help_meta')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('notify_prefs')
          .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('lang', 'text', (c) => c.notNull())
          .addColumn('sys_notify', 'integer', (c) => c.notNull())
          .addColumn('trade_notify', 'integer', (c) => c.notNull())
          .addColumn('event_notify', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['notify_prefs', 'help_meta', 'help_articles', 'help_categories']) await db.schema.dropTable(t).ifExists().execute();
      },
    },
    // Issue 15: referral rebates. The link itself is users.invited_by (0001), set once at sign-up.
    '0009_referral': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('referral_rebates')
          .addColumn('id', rowId, id)
          .addColumn('inviter_id', 'bigint', (c) => c.notNull().references('users.id'))
          .addColumn('invitee_id', 'bigint', (c) => c.notNull().references('users.id'))
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('wallet', 'text', (c) => c.notNull())
          .addColumn('asset', 'text', (c) => c.notNull())
          .addColumn('notional', 'text', (c) => c.notNull())
          .addColumn('fee', 'text', (c) => c.notNull())
          .addColumn('rebate', 'text', (c) => c.notNull())
          .addColumn('rate_bps', 'integer', (c) => c.notNull())
          .addColumn('ledger_ref', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('referral_rebates_inviter').on('referral_rebates').columns(['inviter_id', 'created_at']).execute();
        await db.schema
          .createTable('referral_invitees')
          .addColumn('invitee_id', 'bigint', (c) => c.primaryKey().references('users.id'))
          .addColumn('inviter_id', 'bigint', (c) => c.notNull().references('users.id'))
          .addColumn('volume', 'text', (c) => c.notNull())
          .addColumn('fees', 'text', (c) => c.notNull())
          .addColumn('rebate', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('referral_invitees_inviter').on('referral_invitees').column('inviter_id').execute();
        await db.schema.createIndex('users_invited_by').on('users').columns(['invited_by', 'created_at']).execute();
        // The referral link is written at sign-up and never changes (docs/REFERRAL.md): the database refuses any update of it.
        if (dialect === 'postgres') {
          await sql`CREATE FUNCTION users_invited_by_once() RETURNS trigger AS $$
            BEGIN
              IF NEW.invited_by IS DISTINCT FROM OLD.invited_by THEN RAISE EXCEPTION 'users.invited_by is set once at sign-up'; END IF;
              RETURN NEW;
            END $$ LANGUAGE plpgsql`.execute(db);
          await sql`CREATE TRIGGER users_invited_by_once BEFORE UPDATE OF invited_by ON users FOR EACH ROW EXECUTE FUNCTION users_invited_by_once()`.execute(db);
        } else {
          await sql`CREATE TRIGGER users_invited_by_once BEFORE UPDATE OF invited_by ON users
            WHEN OLD.invited_by IS NOT NEW.invited_by
            BEGIN SELECT RAISE(ABORT, 'users.invited_by is set once at sign-up'); END`.execute(db);
        }
      },
      async down(db: Kysely<unknown>) {
        await sql`DROP TRIGGER IF EXISTS users_invited_by_once${dialect === 'postgres' ? sql` ON users` : sql``}`.execute(db);
        if (dialect === 'postgres') await sql`DROP FUNCTION IF EXISTS users_invited_by_once()`.execute(db);
        await db.schema.dropIndex('users_invited_by').ifExists().execute();
        await db.schema.dropTable('referral_invitees').ifExists().execute();
        await db.schema.dropTable('referral_rebates').ifExists().execute();
      },
    },
    // Issue 15: copy trading (lead traders, follows, copied positions, mirrored orders, trader applications).
    '0010_copy_trading': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('copy_traders')
          .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('nickname', 'text', (c) => c.notNull())
          .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('simulated', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('copy_follows')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('trader_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('end_reason', 'text')
          .addColumn('mode', 'text', (c) => c.notNull())
          .addColumn('ratio_ppb', 'text')
          .addColumn('fixed_amount', 'text')
          .addColumn('max_per_order', 'text')
          .addColumn('stop_loss', 'text')
          .addColumn('source_wallet', 'text', (c) => c.notNull())
          .addColumn('invested', 'text', (c) => c.notNull())
          .addColumn('cash', 'text', (c) => c.notNull())
          .addColumn('realized_pnl', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('fees', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('ended_at', 'bigint')
          .execute();
        await db.schema.createIndex('copy_follows_trader').on('copy_follows').columns(['trader_id', 'status']).execute();
        await db.schema.createIndex('copy_follows_user').on('copy_follows').columns(['user_id', 'status']).execute();
        await db.schema
          .createTable('copy_positions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('follow_id', rowId, (c) => c.notNull().references('copy_follows.id').onDelete('cascade'))
          .addColumn('user_id', 'bigint', (c) => c.notNull())
          .addColumn('trader_id', 'bigint', (c) => c.notNull())
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('side', 'text', (c) => c.notNull())
          .addColumn('qty', 'text', (c) => c.notNull())
          .addColumn('cost', 'text', (c) => c.notNull())
          .addColumn('margin', 'text', (c) => c.notNull())
          .addColumn('leverage', 'integer', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('realized_pnl', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('opened_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addColumn('closed_at', 'bigint')
          .execute();
        await db.schema.createIndex('copy_positions_follow').on('copy_positions').columns(['follow_id', 'status']).execute();
        await db.schema.createIndex('copy_positions_user').on('copy_positions').columns(['user_id', 'status']).execute();
        await db.schema
          .createTable('copy_orders')
          .addColumn('id', rowId, id)
          .addColumn('follow_id', rowId, (c) => c.notNull().references('copy_follows.id').onDelete('cascade'))
          .addColumn('user_id', 'bigint', (c) => c.notNull())
          .addColumn('trader_id', 'bigint', (c) => c.notNull())
          .addColumn('position_id', 'text')
          .addColumn('leader_order_id', 'text')
          .addColumn('symbol', 'text', (c) => c.notNull())
          .addColumn('side', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('qty', real, (c) => c.notNull())
          .addColumn('price', real, (c) => c.notNull())
          .addColumn('fee', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('realized_pnl', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('reason', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('copy_orders_user').on('copy_orders').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('copy_applications')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('nickname', 'text', (c) => c.notNull())
          .addColumn('experience', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('reason', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('reviewed_at', 'bigint')
          .execute();
        await db.schema.createIndex('copy_applications_user').on('copy_applications').columns(['user_id', 'id']).execute();
        await db.schema
          .createTable('copy_jobs')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('last_run', 'bigint', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['copy_jobs', 'copy_applications', 'copy_orders', 'copy_positions', 'copy_follows', 'copy_traders']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // Issue 13: on PostgreSQL, user ids (UIDs) come from a sequence, so that several server processes can
    // sign users up at once without two reading the same max(id). SQLite keeps max(id) + 1 (one writer).
    '0040_pg_sequences': {
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`CREATE SEQUENCE users_uid_seq START WITH 10000001 MINVALUE 10000001`.execute(db);
        await sql`SELECT setval('users_uid_seq', GREATEST((SELECT max(id) FROM users WHERE role = 'user'), 10000000) + 1, false)`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') await sql`DROP SEQUENCE IF EXISTS users_uid_seq`.execute(db);
      },
    },
    // Issue 26 (Major 8): in-app notifications. One row per notice, written in the user's notification
    // language; (user_id, dedupe) is unique so an event seen twice (a frame published again, two
    // processes) records, pushes and mails once.
    '0041_notifications': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('notifications')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('module', 'text', (c) => c.notNull())
          .addColumn('dedupe', 'text', (c) => c.notNull())
          .addColumn('lang', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('params', 'text', (c) => c.notNull())
          .addColumn('read_at', 'bigint')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('notifications_dedupe').unique().on('notifications').columns(['user_id', 'dedupe']).execute();
        await db.schema.createIndex('notifications_user_time').on('notifications').columns(['user_id', 'created_at']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('notifications').ifExists().execute();
      },
    },
    // Issue 26 (withdrawal safety): the withdrawal address book (one row per user, coin, network and
    // address spelling-insensitive key) and each user's whitelist-only mode (on, and a requested
    // turn-off's time: off takes effect 24 h after it was asked for).
    '0042_withdraw_address_book': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('withdraw_addresses')
          .addColumn('id', rowId, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('coin', 'text', (c) => c.notNull())
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('address_key', 'text', (c) => c.notNull())
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('usable_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('withdraw_addresses_key').unique().on('withdraw_addresses').columns(['user_id', 'coin', 'network', 'address_key']).execute();
        await db.schema
          .createTable('withdraw_settings')
          .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('whitelist', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('whitelist_off_at', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('withdraw_settings').ifExists().execute();
        await db.schema.dropTable('withdraw_addresses').ifExists().execute();
      },
    },
    // Issue 28 (the projector, server/engine/projector.ts): the engine journal's sequence number up
    // to which the tables hold the engine's outcomes, written in the same transaction as the rows of
    // each batch, so a batch is applied once however often it is retried. One row per projector.
    '0043_engine_projection': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('engine_projection')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('seq', 'bigint', (c) => c.notNull())
          .addColumn('t', 'bigint', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('engine_projection').ifExists().execute();
      },
    },
  };
}

/** Serves the in-code migrations to Kysely's Migrator (no files on disk, so bundling cannot lose them). */
export class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

/** Brings the schema to the latest version; throws (start-up fails) if any migration fails. */
export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName = 'sqlite'): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
