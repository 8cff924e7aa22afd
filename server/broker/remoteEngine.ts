import type { Order, PlaceOrderParsed, Position } from '../../src/protocol/trading.ts';
import type { KlineInterval } from '../../src/protocol/market.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { copyServiceOf } from '../copy/routes.ts';
import type { CopyService } from '../copy/service.ts';
import type { Db } from '../db/connection.ts';
import { reject, SERVER_MSG } from '../http/errors.ts';
import type { MarketSource } from '../market/source.ts';
import { TradingEngine } from '../trading/engine.ts';
import type { FillListener } from '../trading/engine.ts';
import type { editOrder } from '../trading/orders.ts';
import { marketState } from './mirror.ts';
import type { EngineHandlers } from './rpc.ts';
import type { EngineClient } from './rpc.ts';

type EditBody = Parameters<typeof editOrder>[3];
type CloseBody = { positionId: string; qty?: number | undefined; price?: number | null | undefined; clientOrderId?: string | undefined };
type CloseAllFilter = { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined };
type TpslBody = { positionId: string; tp: number | null; sl: number | null };

/**
 * What the engine process answers over the broker: every trading command (through its one serial
 * queue, the only place orders are matched) and the market state gateways mirror.
 */
export function engineHandlers(engine: TradingEngine, source: MarketSource, epoch: string): EngineHandlers {
  const copy = (): CopyService => copyServiceOf({ db: engine.db }, engine) ?? reject(Code.notFound, SERVER_MSG.notFound);
  return {
    'market.state': () => marketState(source, epoch),
    'market.depth': (symbol: string) => source.snapshot(symbol, 1000) ?? null,
    'market.klines': (symbol: string, interval: KlineInterval, from: number | null, to: number | null, limit: number) =>
      source.klines(symbol, interval, from ?? undefined, to ?? undefined, limit),
    'trade.placeOrder': (userId: number, body: PlaceOrderParsed) => engine.placeOrder(userId, body),
    'trade.cancelOrder': (userId: number, by: { orderId?: string; clientOrderId?: string }) => engine.cancelOrder(userId, by),
    'trade.closePosition': (userId: number, body: CloseBody) => engine.closePosition(userId, body),
    'trade.closeAll': (userId: number, filter: CloseAllFilter) => engine.closeAll(userId, filter),
    'trade.editOrder': (userId: number, body: EditBody) => engine.editOrder(userId, body),
    'trade.setTpsl': (userId: number, body: TpslBody) => engine.setTpsl(userId, body),
    // Copy trading runs its commands in the engine's queue too (the service the copy feature built on this engine).
    'copy.follow': (userId: number, b: Parameters<CopyService['follow']>[1]) => copy().follow(userId, b),
    'copy.unfollow': (userId: number, followId: number, closePositions: boolean) => copy().unfollow(userId, followId, closePositions),
    'copy.closePosition': (userId: number, positionId: string) => copy().closePosition(userId, positionId),
  };
}

/**
 * The trading engine as a gateway sees it: every command is forwarded to the engine process and
 * answered with its envelope (a Rejection with the engine's code and message); reads (positions,
 * contract rules, orders) run here on the shared database with the mirrored market. It never
 * matches, never follows the market and runs no fee schedule: the engine does.
 */
export class RemoteTradingEngine extends TradingEngine {
  override readonly remote: EngineClient;

  constructor(
    opts: { db: Db; clock: { now(): number }; source: MarketSource },
    private readonly client: EngineClient,
  ) {
    super(opts);
    this.remote = client;
  }

  override start(): Promise<void> {
    return Promise.resolve();
  }

  override stop(): Promise<void> {
    return Promise.resolve();
  }

  override placeOrder(userId: number, body: PlaceOrderParsed): Promise<Order> {
    return this.client.call('trade.placeOrder', userId, body);
  }

  override cancelOrder(userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<Order> {
    return this.client.call('trade.cancelOrder', userId, by);
  }

  override closePosition(userId: number, body: CloseBody): Promise<Order> {
    return this.client.call('trade.closePosition', userId, body);
  }

  override closeAll(userId: number, filter: CloseAllFilter): Promise<Order[]> {
    return this.client.call('trade.closeAll', userId, filter);
  }

  override editOrder(userId: number, body: EditBody): Promise<Order> {
    return this.client.call('trade.editOrder', userId, body);
  }

  override setTpsl(userId: number, body: TpslBody): Promise<Position> {
    return this.client.call('trade.setTpsl', userId, body);
  }

  /** Fills happen in the engine: its own listeners (copy trading) see them there. */
  override onFills(_listener: FillListener): () => void {
    return () => {};
  }

  override markDirty(): void {}

  override runPeriodic(): Promise<void> {
    return Promise.resolve();
  }
}
