import { fromPromise } from 'xstate';
import { closeMachine, type CloseRequest } from '../../machines/closeMachine.ts';
import { orderMachine, orderRulesOf, type OrderAck, type OrderInput, type PlaceOrderRequest } from '../../machines/orderMachine.ts';
import { tpslMachine, type TpslRequest } from '../../machines/tpslMachine.ts';
import type { ContractKind, SymbolInfo } from '../../protocol/market.ts';
import type { Order, Position } from '../../protocol/trading.ts';
import { newIdOf, row, tradePathOf, type IntentEvent, type ReplayScene } from './row.ts';

type ContractReq = { contract: ContractKind };
type OrderReq = { contract: ContractKind; input: OrderInput };

/** The contract a close / TP-SL intent is about: its position's, else the trade screen's. */
const contractOfIntent = (event: IntentEvent, scene: ReplayScene): ContractReq | null => {
  const c = (event.position as { contract?: unknown } | null | undefined)?.contract;
  if (c === 'perp' || c === 'std') return { contract: c };
  const trade = tradePathOf(scene.path);
  return trade ? { contract: trade.contract } : null;
};

/** A position in a dialog's context is the account's live data: the flow's own state is which position. */
const positionById = <C extends { position: { id: string } | null }>(c: C) => ({ ...c, position: c.position?.id ?? null });

/** The close / close-all dialog of a contract's positions (the trade screen, the futures account, the orders). */
export const close = row({
  logic: (deps, req: ContractReq) =>
    closeMachine.provide({
      actors: {
        close: fromPromise<Order, CloseRequest>(({ input, signal }) => deps.tradingApi(req.contract).closePositionWith(input, signal)),
        closeAll: fromPromise<Order[], void>(({ signal }) => deps.tradingApi(req.contract).closeAll(signal)),
      },
      guards: {
        confirmClose: () => deps.positionPrefs?.get().confirmClose ?? true,
        confirmCloseAll: () => deps.positionPrefs?.get().confirmCloseAll ?? true,
      },
      actions: {
        savePref: (_, params: { kind: 'close' | 'closeAll'; dontAsk: boolean }) => {
          if (params.dontAsk) deps.positionPrefs?.set(params.kind === 'close' ? { confirmClose: false } : { confirmCloseAll: false });
        },
      },
    }),
  input: (deps) => ({ newId: newIdOf(deps) }),
  key: (req) => `close:${req.contract}`,
  fromIntent: contractOfIntent,
  hashed: positionById,
});

/** A position's TP/SL dialog. */
export const tpsl = row({
  logic: (deps, req: ContractReq) =>
    tpslMachine.provide({
      actors: { save: fromPromise<Position, TpslRequest>(({ input, signal }) => deps.tradingApi(req.contract).setTpSl(input.positionId, input.tp, input.sl, signal)) },
    }),
  key: (req) => `tpsl:${req.contract}`,
  fromIntent: contractOfIntent,
  hashed: positionById,
});

/** The trade screen's order ticket. */
export const order = row({
  logic: (deps, req: OrderReq) =>
    orderMachine.provide({
      actors: { placeOrder: fromPromise<OrderAck, PlaceOrderRequest>(({ input, signal }) => deps.tradingApi(req.contract).placeOrder(input, signal)) },
    }),
  input: (_, req) => req.input,
  // The user-socket order frames of its contract move a placed ticket on (pending → filled / canceled).
  follow: (a, f, req) => {
    const o = f.type === 'order' ? ((f as { data?: unknown }).data as Order | null | undefined) : null;
    if (o && typeof o === 'object' && o.contract === req.contract) a.send({ type: 'order.frame', clientOrderId: o.clientOrderId, orderId: String(o.id), status: o.status });
  },
  // a new pair is a new ticket
  key: (req) => `order:${req.contract}:${req.input.symbol}`,
  // The trade screen's ticket: its contract and pair from the path, the pair's rules from the recorded instrument list.
  fromIntent: (_, scene, deps) => {
    const trade = tradePathOf(scene.path);
    const list = scene.answer('GET', '/market/symbols');
    const info = trade?.pair && Array.isArray(list) ? (list as SymbolInfo[]).find((i) => i?.symbol === trade.pair) : undefined;
    if (!trade || !info) return null;
    return { contract: trade.contract, input: { symbol: info.symbol, rules: orderRulesOf(info), newId: newIdOf(deps), draft: { leverage: Math.min(10, info.maxLever) } } };
  },
});
