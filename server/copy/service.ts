import { Code } from '../../src/protocol/envelope.ts';
import { toUnits } from '../../src/protocol/netting.ts';
import { COPY_MSG } from '../../src/protocol/copy.ts';
import type { CopyApplication, CopyApplyBody, CopyFollow, CopyFrameData, CopyOrder, CopyPosition, copyFollowBody } from '../../src/protocol/copy.ts';
import type { z } from 'zod';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { formatMinor, parseMinor, toMinor } from '../db/money.ts';
import { INSTRUMENTS } from '../market/instruments.ts';
import type { Wallet } from '../db/schema.ts';
import { Rejection } from '../http/errors.ts';
import { notional, scaled, shouldLiquidate } from '../trading/formulas.ts';
import type { TradingEngine } from '../trading/engine.ts';
import type { ExecutedFill } from '../trading/settle.ts';
import { availableOf, balanceOf } from '../wallet/wallet.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { followEquity, mirrorFill, moveTo } from './mirror.ts';
import type { CopyOrderRow } from './mirror.ts';
import type { Rules } from '../trading/formulas.ts';
import { closeCopyPart, COIN, CopySettlementError, emptyCopyTouched, fundFollow, returnCash } from './settle.ts';
import type { CopyCtx, CopyPositionRow, CopyTouched, FollowRow } from './settle.ts';
import { applicationDto, copyOrderDto, followDto, nicknameOf, positionDto } from './views.ts';
import { lockRows, transact } from '../db/tx.ts';

const bad = (msg: string, code: number = Code.badRequest): never => {
  throw new Rejection(code, msg);
};

export type FollowParsed = z.output<typeof copyFollowBody>;

/**
 * Copy trading on top of the trading engine: every operation runs in the engine's serial queue as
 * one database transaction (so it never interleaves with a fill), then pushes `copy` and `balance`
 * frames after the commit.
 */
export class CopyService {
  constructor(
    readonly db: Db,
    readonly engine: TradingEngine,
    private readonly bus: UserEventBus | undefined,
  ) {}

  private market = {
    rules: (s: string) => this.engine.rules(s),
    markPrice: (s: string) => this.engine.markPrice(s),
  };

  /** Runs `fn` in one transaction inside the engine's queue (queued = from a route; else already inside, from a fill listener). */
  private async tx<T>(fn: (c: CopyCtx) => Promise<T>, queued = true): Promise<T> {
    const t = emptyCopyTouched();
    const body = (trx: Db, now: number) => fn({ trx, now, t });
    const out = queued ? await this.engine.run((c) => body(c.trx, c.now)) : await this.engine.transact((c) => body(c.trx, c.now));
    await this.publish(t);
    return out;
  }

  private async publish(t: CopyTouched): Promise<void> {
    const bus = this.bus;
    if (!bus) return;
    for (const id of t.orders) {
      const r = await this.db.selectFrom('copy_orders').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) continue;
      const order = copyOrderDto(r);
      const data: CopyFrameData = r.status === 'skipped' ? { event: 'skipped', order } : { event: 'order', order };
      bus.publish(r.user_id, { type: 'copy', data });
    }
    for (const id of t.follows) {
      const f = await this.db.selectFrom('copy_follows').selectAll().where('id', '=', id).executeTakeFirst();
      if (!f) continue;
      const data: CopyFrameData = { event: 'follow', follow: await this.followView(f) };
      bus.publish(f.user_id, { type: 'copy', data });
    }
    for (const key of t.balances) {
      const [u, w] = key.split('|') as [string, Wallet];
      const userId = Number(u);
      if (bus.listenerCount(userId) > 0) bus.publish(userId, { type: 'balance', data: await balanceOf(this.db, userId, w, COIN) });
    }
  }

  async followView(f: FollowRow): Promise<CopyFollow> {
    const positions = await this.db.selectFrom('copy_positions').selectAll().where('follow_id', '=', f.id).where('status', '=', 'open').execute();
    return followDto(f, positions, await nicknameOf(this.db, f.trader_id), this.market);
  }

  // ------------------------------------------------------------ follow / unfollow

  async follow(userId: number, b: FollowParsed): Promise<CopyFollow> {
    // A gateway process: the engine's queue runs it (server/broker/remoteEngine.ts).
    if (this.engine.remote) return this.engine.remote.call('copy.follow', userId, b);
    if (b.mode === 'fixed' && b.fixedAmount !== null) checkFixedFloor(b.fixedAmount, await this.minFixedAmount(b.traderId));
    const row = await this.tx(async (c) => {
      const trader = await c.trx.selectFrom('copy_traders').selectAll().where('user_id', '=', b.traderId).where('status', '=', 'active').executeTakeFirst();
      const dup = await c.trx.selectFrom('copy_follows').select('id').where('user_id', '=', userId).where('trader_id', '=', b.traderId).where('status', '=', 'active').executeTakeFirst();
      const values = newFollow(userId, b, { traderActive: trader !== undefined, following: dup !== undefined, available: await availableOf(c.trx, userId, b.from, COIN) }, c.now);
      const f = await c.trx.insertInto('copy_follows').values(values).returningAll().executeTakeFirstOrThrow();
      await fundFollow(c, userId, b.from, parseMinor(values.invested));
      c.t.follows.add(f.id);
      return f;
    });
    return this.followView(row);
  }

  /**
   * The smallest fixed amount per order that can copy a trade of `traderId`: the margin of one
   * minimum order (minimum quantity × last price / leverage, rounded up to the micro-USDT) on the
   * cheapest of the markets the trader has traded, at the highest leverage they used there (every
   * listed market at its highest leverage while they have no order). A fixed copy opens
   * `fixedAmount × the trader's leverage / price`, so a smaller amount could never open a copied
   * order. Null when no market has a price.
   */
  private async minFixedAmount(traderId: number): Promise<bigint | null> {
    const traded = await this.db
      .selectFrom('trade_orders')
      .select((eb) => ['symbol', eb.fn.max<number>('leverage').as('leverage')])
      .where('user_id', '=', traderId)
      .groupBy('symbol')
      .execute();
    return fixedFloorOf(traded.map((r) => ({ symbol: r.symbol, leverage: Number(r.leverage) })), (s) => this.engine.rules(s), (s) => this.engine.lastPrice(s));
  }

  /** Ends a follow: closes its copied positions at the mark (`closePositions`) or keeps them, and returns its cash. */
  async unfollow(userId: number, followId: number, closePositions: boolean): Promise<CopyFollow> {
    if (this.engine.remote) return this.engine.remote.call('copy.unfollow', userId, followId, closePositions);
    const row = await this.tx(async (c) => {
      const f = await c.trx.selectFrom('copy_follows').selectAll().$if(lockRows(c.trx), (q) => q.forUpdate()).where('id', '=', followId).where('user_id', '=', userId).executeTakeFirst();
      if (!f) return bad(COPY_MSG.followNotFound, Code.notFound);
      if (f.status !== 'active') bad(COPY_MSG.followEnded, Code.conflict);
      return this.endFollow(c, f, closePositions, 'user');
    });
    return this.followView(row);
  }

  private async endFollow(c: CopyCtx, f: FollowRow, closePositions: boolean, reason: 'user' | 'stopLoss'): Promise<FollowRow> {
    let follow = f;
    if (closePositions) {
      const positions = await c.trx.selectFrom('copy_positions').selectAll().where('follow_id', '=', f.id).where('status', '=', 'open').orderBy('opened_at').execute();
      for (const p of positions) {
        const rules = this.engine.rules(p.symbol);
        const mark = this.engine.markPrice(p.symbol);
        if (!rules || mark === undefined) return bad(COPY_MSG.noPrice);
        const priceU = scaled(mark, rules.pricePrecision);
        follow = await moveTo(c, follow, rules, p.contract, 0n, priceU, p.leverage, null);
      }
    }
    follow = { ...follow, status: 'ended', end_reason: reason, ended_at: c.now };
    await c.trx.updateTable('copy_follows').set({ status: 'ended', end_reason: reason, ended_at: c.now }).where('id', '=', f.id).execute();
    return returnCash(c, follow);
  }

  /** Closes one copied position at the mark (a kept one after unfollowing, or any open one). */
  async closePosition(userId: number, positionId: string): Promise<CopyPosition> {
    if (this.engine.remote) return this.engine.remote.call('copy.closePosition', userId, positionId);
    const id = await this.tx(async (c) => {
      const p = await c.trx.selectFrom('copy_positions').selectAll().where('id', '=', positionId).where('user_id', '=', userId).executeTakeFirst();
      if (!p || p.status !== 'open') return bad(COPY_MSG.positionNotFound, Code.notFound);
      const f = await c.trx.selectFrom('copy_follows').selectAll().$if(lockRows(c.trx), (q) => q.forUpdate()).where('id', '=', p.follow_id).executeTakeFirstOrThrow();
      const rules = this.engine.rules(p.symbol);
      const mark = this.engine.markPrice(p.symbol);
      if (!rules || mark === undefined) return bad(COPY_MSG.noPrice);
      await moveTo(c, f, rules, p.contract, 0n, scaled(mark, rules.pricePrecision), p.leverage, null);
      return p.id;
    });
    const row = await this.db.selectFrom('copy_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return positionDto(row, await nicknameOf(this.db, row.trader_id), true, this.market);
  }

  async follows(userId: number): Promise<CopyFollow[]> {
    const rows = await this.db.selectFrom('copy_follows').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
    const out: CopyFollow[] = [];
    for (const f of rows) {
      const v = await this.followView(f);
      if (f.status === 'active' || v.openPositions > 0) out.push(v);
    }
    return out;
  }

  async positions(userId: number): Promise<CopyPosition[]> {
    const rows = await this.db
      .selectFrom('copy_positions')
      .innerJoin('copy_follows', 'copy_follows.id', 'copy_positions.follow_id')
      .selectAll('copy_positions')
      .select('copy_follows.status as follow_status')
      .where('copy_positions.user_id', '=', userId)
      .where('copy_positions.status', '=', 'open')
      .orderBy('copy_positions.opened_at', 'desc')
      .execute();
    const out: CopyPosition[] = [];
    for (const r of rows) {
      const { follow_status, ...p } = r;
      out.push(positionDto(p, await nicknameOf(this.db, p.trader_id), follow_status === 'ended', this.market));
    }
    return out;
  }

  // ------------------------------------------------------------ mirroring

  /** The engine's fill listener: mirrors each execution of a lead trader for every active copy of them. */
  readonly onFills = async (fills: readonly ExecutedFill[]): Promise<void> => {
    for (const e of fills) {
      const follows = await this.db.selectFrom('copy_follows').select('id').where('trader_id', '=', e.userId).where('status', '=', 'active').orderBy('id').execute();
      if (follows.length === 0) continue;
      const rules = this.engine.rules(e.symbol);
      if (!rules) continue;
      for (const { id } of follows) {
        try {
          await this.tx(async (c) => {
            const f = await c.trx.selectFrom('copy_follows').selectAll().$if(lockRows(c.trx), (q) => q.forUpdate()).where('id', '=', id).executeTakeFirstOrThrow();
            if (f.status !== 'active') return;
            const after = await mirrorFill(c, f, rules, e);
            await this.checkStopLoss(c, after);
          }, false);
        } catch (err) {
          // One follow's failure never blocks the others (nor the trader's order, already committed).
          if (!(err instanceof Rejection) && !(err instanceof CopySettlementError)) throw err;
        }
      }
    }
  };

  /** Ends the follow (closing its positions) once its loss reaches its stop. */
  private async checkStopLoss(c: CopyCtx, f: FollowRow): Promise<boolean> {
    if (f.stop_loss === null || f.status !== 'active') return false;
    const positions = await c.trx.selectFrom('copy_positions').selectAll().where('follow_id', '=', f.id).where('status', '=', 'open').execute();
    if (!stopHit(f, followEquity(f, positions, (s) => this.engine.rules(s), (s) => this.engine.markPrice(s)).equity)) return false;
    await this.endFollow(c, f, true, 'stopLoss');
    return true;
  }

  /**
   * The periodic check (the feature job, on the server clock): copied positions whose equity fell
   * to the maintenance margin are liquidated at the mark (the copy loses exactly the margin), then
   * every copy with a stop is checked against its loss.
   */
  async checkAll(): Promise<void> {
    // The memory engine runs the check as one command (server/engine/memoryEngine.ts).
    if (this.engine.mirrorsCopies && this.engine.remote) return this.engine.remote.call('copy.checkAll');
    const open = await this.db.selectFrom('copy_positions').selectAll().where('status', '=', 'open').orderBy('opened_at').execute();
    for (const p of open) {
      const rules = this.engine.rules(p.symbol);
      const mark = this.engine.markPrice(p.symbol);
      if (!rules || mark === undefined) continue;
      const markU = scaled(mark, rules.pricePrecision);
      if (!shouldLiquidate(rules, p.side, parseMinor(p.cost), parseMinor(p.margin), parseMinor(p.qty), markU)) continue;
      await this.tx(async (c) => {
        const now = await c.trx.selectFrom('copy_positions').selectAll().where('id', '=', p.id).executeTakeFirst();
        if (!now || now.status !== 'open') return;
        const f = await c.trx.selectFrom('copy_follows').selectAll().$if(lockRows(c.trx), (q) => q.forUpdate()).where('id', '=', now.follow_id).executeTakeFirstOrThrow();
        await liquidateCopy(c, f, rules, now, markU);
      });
    }
    const stops = await this.db.selectFrom('copy_follows').select('id').where('status', '=', 'active').where('stop_loss', 'is not', null).execute();
    for (const { id } of stops) {
      await this.tx(async (c) => {
        const f = await c.trx.selectFrom('copy_follows').selectAll().$if(lockRows(c.trx), (q) => q.forUpdate()).where('id', '=', id).executeTakeFirstOrThrow();
        await this.checkStopLoss(c, f);
      });
    }
  }

  ordersPage(userId: number, page: number, pageSize: number): Promise<Page<CopyOrder>> {
    return pageOf(this.db.selectFrom('copy_orders').where('user_id', '=', userId), { page, pageSize }, ['created_at', 'id'], (qb) => qb.selectAll(), copyOrderDto);
  }

  // ------------------------------------------------------------ trader application (trader_apply)

  async application(userId: number): Promise<CopyApplication | null> {
    const r = await this.db.selectFrom('copy_applications').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst();
    return r ? applicationDto(r) : null;
  }

  async apply(userId: number, b: CopyApplyBody, now: number): Promise<CopyApplication> {
    const row = await transact(this.db, async (trx) => {
      const trader = await trx.selectFrom('copy_traders').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      if (trader) bad(COPY_MSG.alreadyTrader, Code.conflict);
      const open = await trx.selectFrom('copy_applications').select('id').where('user_id', '=', userId).where('status', '=', 'review').executeTakeFirst();
      if (open) bad(COPY_MSG.alreadyApplied, Code.conflict);
      return trx
        .insertInto('copy_applications')
        .values({ user_id: userId, nickname: b.nickname, experience: b.experience, status: 'review', reason: null, created_at: now, reviewed_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return applicationDto(row);
  }

  /** A reviewer's decision on the application under review: approval lists the user as a lead trader. */
  async review(userId: number, decision: 'approve' | 'reject', reason: string | undefined, now: number): Promise<CopyApplication> {
    const row = await transact(this.db, async (trx) => {
      const a = await trx.selectFrom('copy_applications').selectAll().where('user_id', '=', userId).where('status', '=', 'review').orderBy('id', 'desc').executeTakeFirst();
      if (!a) return bad(COPY_MSG.applicationNotFound, Code.notFound);
      const status = decision === 'approve' ? 'approved' : 'rejected';
      await trx.updateTable('copy_applications').set({ status, reason: reason ?? null, reviewed_at: now }).where('id', '=', a.id).execute();
      if (decision === 'approve') {
        await trx
          .insertInto('copy_traders')
          .values({ user_id: userId, nickname: a.nickname, bio: a.experience, simulated: 0, status: 'active', created_at: now })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ status: 'active', nickname: a.nickname }))
          .execute();
      }
      return { ...a, status, reason: reason ?? null, reviewed_at: now } as const;
    });
    const dto = applicationDto(row);
    this.bus?.publish(userId, { type: 'copy', data: { event: 'application', application: dto } satisfies CopyFrameData });
    return dto;
  }
}

/** Liquidates a copied position at the mark: the copy loses exactly its margin. */
export async function liquidateCopy(c: CopyCtx, f: FollowRow, rules: NonNullable<ReturnType<TradingEngine['rules']>>, p: CopyPositionRow, markU: bigint): Promise<void> {
  const qty = parseMinor(p.qty);
  const r = await closeCopyPart(c, f, rules, p, qty, notional(rules, markU, qty), true);
  const row = await c.trx.insertInto('copy_orders').values(liquidationCopyOrder(f, rules, p, markU, r, c.now)).returning('id').executeTakeFirstOrThrow();
  c.t.orders.push(row.id);
}

/** The copy_orders row of a copied position's liquidation at the mark (pure; shared with the in-memory engine). */
export function liquidationCopyOrder(f: FollowRow, rules: Rules, p: CopyPositionRow, markU: bigint, r: { fee: bigint; realized: bigint }, now: number): CopyOrderRow {
  const qty = parseMinor(p.qty);
  return {
    follow_id: f.id, user_id: f.user_id, trader_id: f.trader_id, position_id: p.id, leader_order_id: null, symbol: p.symbol, side: p.side === 'long' ? 'sell' : 'buy',
    action: 'close', qty: Number(qty) / 10 ** rules.qtyPrecision, price: Number(markU) / 10 ** rules.pricePrecision, fee: r.fee.toString(), realized_pnl: r.realized.toString(),
    status: 'filled', reason: null, created_at: now,
  };
}

/** A follow's stop is reached: its loss (invested - equity) is at least its stop-loss amount. Pure. */
export function stopHit(f: FollowRow, equity: bigint): boolean {
  return f.stop_loss !== null && f.status === 'active' && parseMinor(f.invested) - equity >= parseMinor(f.stop_loss);
}

/**
 * The smallest fixed amount per order that can copy a trade (see CopyService.minFixedAmount) from
 * the markets the trader traded with the highest leverage used there (every listed market at its
 * highest leverage when none), the rules and last prices. Pure; shared with the in-memory engine.
 */
export function fixedFloorOf(traded: readonly { symbol: string; leverage: number }[], rulesOf: (s: string) => Rules | undefined, lastOf: (s: string) => number | undefined): bigint | null {
  const markets = traded.length > 0 ? traded : INSTRUMENTS.map((i) => ({ symbol: i.info.symbol, leverage: i.info.maxLever }));
  let floor: bigint | null = null;
  for (const { symbol, leverage } of markets) {
    const rules = rulesOf(symbol);
    const price = lastOf(symbol);
    if (!rules || price === undefined || price <= 0 || !(leverage > 0)) continue;
    const margin = BigInt(Math.ceil((rules.minOrderQuantity * price * 1e6) / leverage - 1e-6));
    if (floor === null || margin < floor) floor = margin;
  }
  return floor;
}

/** A fixed amount below the floor cannot copy any order of the trader: refused, naming the floor. */
export function checkFixedFloor(fixedAmount: string, floor: bigint | null): void {
  if (floor !== null && toMinor(fixedAmount, COIN) < floor) bad(`${COPY_MSG.fixedTooSmall}${formatMinor(floor, COIN).replace(/\.?0+$/, '')} ${COIN}`);
}

/**
 * A new follow's row after the follow's refusals in the route's order (the trader is not listed,
 * oneself, already followed, the source wallet cannot pay the amount, the ratio): pure, shared with
 * the in-memory engine.
 */
export function newFollow(userId: number, b: FollowParsed, facts: { traderActive: boolean; following: boolean; available: bigint }, now: number): Omit<FollowRow, 'id'> {
  if (!facts.traderActive) bad(COPY_MSG.traderNotFound, Code.notFound);
  if (b.traderId === userId) bad(COPY_MSG.cannotFollowSelf);
  if (facts.following) bad(COPY_MSG.alreadyFollowing, Code.conflict);
  const amount = toMinor(b.amount, COIN);
  if (facts.available < amount) bad(COPY_MSG.insufficientBalance);
  const ratio = b.mode === 'ratio' ? (toUnits(b.ratio ?? '1', 9) ?? bad(COPY_MSG.ratioRange)) : null;
  return {
    user_id: userId, trader_id: b.traderId, status: 'active', end_reason: null, mode: b.mode, ratio_ppb: ratio === null ? null : ratio.toString(),
    fixed_amount: b.mode === 'fixed' && b.fixedAmount !== null ? toMinor(b.fixedAmount, COIN).toString() : null,
    max_per_order: b.maxPerOrder === null ? null : toMinor(b.maxPerOrder, COIN).toString(),
    stop_loss: b.stopLoss === null ? null : toMinor(b.stopLoss, COIN).toString(),
    source_wallet: b.from, invested: amount.toString(), cash: amount.toString(), realized_pnl: '0', fees: '0', created_at: now, ended_at: null,
  };
}
