import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { KLINE_INTERVALS, type ContractKind, type KlineInterval } from '../../../protocol/market.ts';
import { oneOf, useViewState } from '../../hooks/useViewState.ts';
import { selectDepthChart } from '../../../streams/orderBookSelectors.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import type { ChartTheme } from '../../components/chart/CandleChart.tsx';
import { ChartPanel } from '../../components/chart/ChartPanel.tsx';
import { DepthChart } from '../../components/chart/DepthChart.tsx';
import { LatestTrades } from '../../components/orderbook/LatestTrades.tsx';
import { OrderBook } from '../../components/orderbook/OrderBook.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDevice, useKlineSetting, useTheme } from '../../hooks/usePrefs.ts';
import { klineColors } from '../../theme/klineColors.ts';
import { ACCOUNT_TABS, AccountTabs, type AccountTab } from './AccountTabs.tsx';
import { OrderPanel } from './OrderPanel.tsx';
import { DesktopTradeLayout } from './DesktopTradeLayout.tsx';
import { RulesPanel } from './RulesPanel.tsx';
import { TradeHeader } from './TradeHeader.tsx';
import { UnknownPair } from './UnknownPair.tsx';
import { useTradeMarket } from './useTradeMarket.ts';
import { useTradingAccount } from './useTradingAccount.ts';
import './trade.css';

export const DEFAULT_INTERVAL: KlineInterval = '15m';

/** Route base of each contract kind's trade screen. */
export const TRADE_BASE: Readonly<Record<ContractKind, string>> = { perp: '/mFutures', std: '/stdFuture' };

const CHART_TABS = ['chart', 'depth', 'info'] as const;
type ChartTab = (typeof CHART_TABS)[number];
const MOBILE_TABS = ['chart', 'book', 'trades', 'depth', 'info'] as const;
type MobileTab = (typeof MOBILE_TABS)[number];

function cssVar(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/** The chart's colours from the theme's CSS variables, re-read on a theme switch. */
function useChartTheme(): ChartTheme {
  const { theme } = useTheme();
  const [value, setValue] = useState<ChartTheme>({ background: '#12161f', text: '#9aa4b5', grid: '#1c2230', border: '#262d3b' });
  useEffect(() => {
    setValue({ background: cssVar('--surface', '#12161f'), text: cssVar('--text-2', '#9aa4b5'), grid: cssVar('--border-soft', '#1c2230'), border: cssVar('--border', '#262d3b') });
  }, [theme]);
  return value;
}

/** /mFutures/:pair (USDT-M perpetual). */
export function MFuturesScreen() {
  return <TradeScreen contract="perp" />;
}

/** /stdFuture/:pair (standard futures). */
export function StdFutureScreen() {
  return <TradeScreen contract="std" />;
}

/**
 * The futures trade screen shared by both contract kinds (issue 4): header with pair switcher
 * and ticker; chart / depth / rules; order book and latest trades; order panel; account tabs.
 * Desktop is a three-column grid (min width 1200); below 1200 px the market views become tabs
 * and the order panel a section under them. The pair in the URL is stored as `trade_pair`.
 */
export function TradeScreen({ contract }: { contract: ContractKind }) {
  const { t } = useTranslation('trade');
  const core = useAppCore();
  const navigate = useNavigate();
  const params = useParams();
  const symbol = (params.pair ?? 'BTCUSDT').toUpperCase();
  // View state as intents (src/core/viewState.ts): recorded, and shown again by a replay.
  const [interval, setKlineInterval] = useViewState<KlineInterval>('trade.interval', DEFAULT_INTERVAL, oneOf(KLINE_INTERVALS));
  const market = useTradeMarket(symbol, contract, interval);
  const account = useTradingAccount(contract);
  const device = useDevice();
  const [kline] = useKlineSetting();
  const { up, down } = klineColors(kline.style, kline.direction);
  const chartTheme = useChartTheme();
  const [chartTab, setChartTab] = useViewState<ChartTab>('trade.chartTab', 'chart', oneOf(CHART_TABS));
  const [mobileTab, setMobileTab] = useViewState<MobileTab>('trade.mobileTab', 'chart', oneOf(MOBILE_TABS));
  const [accountTab, setAccountTab] = useViewState<AccountTab>('trade.accountTab', 'positions', oneOf(ACCOUNT_TABS));
  const [picked, setPicked] = useState<{ price: string; n: number } | null>(null);
  const newId = useCallback(() => core.newId(), [core]);

  useEffect(() => {
    core.device.setTradePair(symbol);
  }, [core, symbol]);

  const info = market.info;
  const last = market.ticker.ticker?.last ?? market.trades.items[0]?.price ?? null;
  const lastUp = (market.trades.items[0]?.side ?? 'buy') === 'buy';
  const depth = selectDepthChart(market.book, 100);
  const onPick = useCallback((s: string) => void navigate(`${TRADE_BASE[contract]}/${s}`), [navigate, contract]);
  const pickPrice = useCallback((price: string) => setPicked((p) => ({ price, n: (p?.n ?? 0) + 1 })), []);
  const panelId = useId();
  const [sideRequest, setSideRequest] = useState<{ side: 'buy' | 'sell'; n: number } | null>(null);
  const openPanel = useCallback(
    (side: 'buy' | 'sell') => {
      setSideRequest((r) => ({ side, n: (r?.n ?? 0) + 1 }));
      const el = document.getElementById(panelId);
      el?.scrollIntoView?.({ block: 'start' });
      el?.querySelector<HTMLInputElement>('input[inputmode="decimal"]')?.focus({ preventScroll: true });
    },
    [panelId],
  );
  const available = account.balance ? Number(account.balance.available) : null;
  const symbolsList = useMemo(() => market.symbols ?? [], [market.symbols]);

  if (market.symbols && !info) {
    return <UnknownPair pair={symbol} contract={contract} symbols={market.symbols} base={TRADE_BASE[contract]} />;
  }
  const pp = info?.pricePrecision ?? 2;
  const qp = info?.qtyPrecision ?? 3;

  const chart = (
    <ChartPanel
      candles={market.candles.items}
      interval={interval}
      onInterval={setKlineInterval}
      pricePrecision={pp}
      tickSize={info?.tickSize ?? 0.01}
      up={up}
      down={down}
      theme={chartTheme}
      resetKey={`${symbol}:${interval}`}
    />
  );
  const depthChart = <DepthChart bids={depth.bids} asks={depth.asks} up={up} down={down} text={chartTheme.text} pricePrecision={pp} height={device === 'desktop' ? 420 : 300} />;
  const book = <OrderBook book={market.book} tickSize={info?.tickSize ?? 0.01} qtyPrecision={qp} lastPrice={last} lastUp={lastUp} rows={device === 'desktop' ? 9 : 14} onPickPrice={pickPrice} />;
  const trades = <LatestTrades trades={market.trades.items} pricePrecision={pp} qtyPrecision={qp} rows={device === 'desktop' ? 14 : 30} />;
  const rules = info ? <RulesPanel info={info} contract={contract} /> : null;
  const panel = info ? (
    <OrderPanel
      info={info}
      loggedIn={account.loggedIn}
      available={available}
      lastPrice={last}
      markPrice={market.ticker.ticker?.mark ?? null}
      account={account}
      hotkeys={device === 'desktop'}
      pickedPrice={picked}
      sideRequest={sideRequest}
      contract={contract}
      onPlaced={account.refresh}
    />
  ) : null;

  if (device !== 'desktop') {
    const tabs: MobileTab[] = ['chart', 'book', 'trades', 'depth', 'info'];
    return (
      <div className="rf-trade rf-trade--mobile" data-contract={contract}>
        <TradeHeader symbol={symbol} contract={contract} symbols={market.symbols} info={info} ticker={market.ticker} onPick={onPick} />
        <Tabs label={t('marketViews')} active={mobileTab} onChange={setMobileTab} items={tabs.map((k) => ({ key: k, label: t(`tab_${k}`) }))} />
        <div className="rf-trade-view">
          {mobileTab === 'chart' && chart}
          {mobileTab === 'book' && book}
          {mobileTab === 'trades' && trades}
          {mobileTab === 'depth' && depthChart}
          {mobileTab === 'info' && rules}
        </div>
        <div className="rf-trade-panel" id={panelId}>{panel}</div>
        <AccountTabs contract={contract} account={account} symbols={symbolsList} newId={newId} tab={accountTab} onTab={setAccountTab} />
        {/* Issue 26: a fixed Buy / Sell bar; a tap sets the side and brings the order panel into view. */}
        {panel && (
          <div className="rf-trade-bar" data-testid="trade-bar">
            {(['buy', 'sell'] as const).map((side) => (
              <Button key={side} variant={side === 'buy' ? 'up' : 'down'} block aria-controls={panelId} onClick={() => openPanel(side)} data-testid={`trade-bar-${side}`}>
                {t(side === 'buy' ? 'buyLong' : 'sellShort')}
              </Button>
            ))}
          </div>
        )}
      </div>
    );
  }

  return (
    <DesktopTradeLayout
      contract={contract}
      head={<TradeHeader symbol={symbol} contract={contract} symbols={market.symbols} info={info} ticker={market.ticker} onPick={onPick} />}
      chart={
        <>
          <Tabs label={t('marketViews')} active={chartTab} onChange={setChartTab} items={(['chart', 'depth', 'info'] as const).map((k) => ({ key: k, label: t(`tab_${k}`) }))} />
          <div className="rf-trade-view">
            {chartTab === 'chart' && chart}
            {chartTab === 'depth' && depthChart}
            {chartTab === 'info' && rules}
          </div>
        </>
      }
      book={
        <>
          {book}
          {trades}
        </>
      }
      panel={panel}
      account={<AccountTabs contract={contract} account={account} symbols={symbolsList} newId={newId} tab={accountTab} onTab={setAccountTab} />}
    />
  );
}
