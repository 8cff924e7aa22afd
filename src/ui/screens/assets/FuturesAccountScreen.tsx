import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatBalance, formatNumber, formatPercent, trendOf } from '../../../format/number.ts';
import type { Position, WalletType } from '../../../protocol/trading.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { TransferDialog, useTransferDialog } from '../../components/transfer/TransferDialog.tsx';
import { WALLET_LABEL } from '../../components/transfer/walletLabels.ts';
import { useDevice } from '../../hooks/usePrefs.ts';
import { futuresSummary, type FuturesSummary } from '../../components/account/assetsModel.ts';
import { AssetsFrame } from '../../components/account/AssetsFrame.tsx';
import { useBalances, usePositions } from '../../components/account/useAccountData.ts';

const TRADE_PATH = { perp: '/mFutures', std: '/stdFuture' } as const;

function pnlClass(v: string | number): string {
  const tr = trendOf(v);
  return tr === 'up' ? 'acct-up' : tr === 'down' ? 'acct-down' : '';
}

function ContractCard({ s, onTransfer }: { s: FuturesSummary; onTransfer: (w: WalletType) => void }) {
  const { t } = useTranslation('assets');
  return (
    <section className="acct-card" data-testid={`futures-${s.contract}`}>
      <div className="assets-wallet__head">
        <h2 className="acct-card__title">{t(WALLET_LABEL[s.contract])}</h2>
        <span className="acct-links">
          <button type="button" className="acct-link" onClick={() => onTransfer(s.contract)}>
            {t('transfer')}
          </button>
          <Link className="acct-link" to={TRADE_PATH[s.contract]}>
            {t('trade')}
          </Link>
        </span>
      </div>
      <dl className="assets-summary">
        <div>
          <dt>{t('accountEquity')} (USDT)</dt>
          <dd data-testid={`futures-${s.contract}-equity`}>{formatBalance(s.equity, 'USDT')}</dd>
        </div>
        <div>
          <dt>{t('available')}</dt>
          <dd data-testid={`futures-${s.contract}-available`}>{formatBalance(s.available, 'USDT')}</dd>
        </div>
        <div>
          <dt>{t('marginInUse')}</dt>
          <dd>{formatBalance(s.marginInUse, 'USDT')}</dd>
        </div>
        <div>
          <dt>{t('unrealizedPnl')}</dt>
          <dd className={pnlClass(s.unrealizedPnl)} data-testid={`futures-${s.contract}-pnl`}>
            {formatBalance(s.unrealizedPnl, 'USDT')}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function PositionsList({ positions }: { positions: Position[] }) {
  const { t } = useTranslation('assets');
  const device = useDevice();
  if (positions.length === 0) return <EmptyState />;
  if (device === 'mobile') {
    return (
      <ul className="acct-cards">
        {positions.map((p) => (
          <li key={p.id} className="acct-item" data-testid="position-row">
            <div className="acct-item__head">
              <span>
                {p.symbol} <span className={p.side === 'long' ? 'acct-up' : 'acct-down'}>{t(p.side)} {p.leverage}x</span>
              </span>
              <span className="acct-muted">{t(p.contract === 'perp' ? 'contractPerp' : 'contractStd')}</span>
            </div>
            <div className="acct-item__row"><span>{t('size')}</span><b>{formatNumber(p.qty, 4)}</b></div>
            <div className="acct-item__row"><span>{t('entryPrice')}</span><b>{formatNumber(p.entryPrice, 2)}</b></div>
            <div className="acct-item__row"><span>{t('markPrice')}</span><b>{formatNumber(p.markPrice, 2)}</b></div>
            <div className="acct-item__row"><span>{t('liqPrice')}</span><b>{formatNumber(p.liquidationPrice, 2)}</b></div>
            <div className="acct-item__row"><span>{t('margin')}</span><b>{formatBalance(p.margin, 'USDT')}</b></div>
            <div className="acct-item__row">
              <span>{t('pnlReturn')}</span>
              <b className={pnlClass(p.unrealizedPnl)}>
                {formatBalance(p.unrealizedPnl, 'USDT')} ({formatPercent(p.returnPct)})
              </b>
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="acct-table-wrap">
      <table className="acct-table">
        <thead>
          <tr>
            <th scope="col">{t('symbol')}</th>
            <th scope="col">{t('contract')}</th>
            <th scope="col" className="num">{t('size')}</th>
            <th scope="col" className="num">{t('entryPrice')}</th>
            <th scope="col" className="num">{t('markPrice')}</th>
            <th scope="col" className="num">{t('liqPrice')}</th>
            <th scope="col" className="num">{t('margin')}</th>
            <th scope="col" className="num">{t('pnlReturn')}</th>
          </tr>
        </thead>
        <tbody>
          {positions.map((p) => (
            <tr key={p.id} data-testid="position-row">
              <td>
                {p.symbol} <span className={p.side === 'long' ? 'acct-up' : 'acct-down'}>{t(p.side)} {p.leverage}x</span>
              </td>
              <td>{t(p.contract === 'perp' ? 'contractPerp' : 'contractStd')}</td>
              <td className="num">{formatNumber(p.qty, 4)}</td>
              <td className="num">{formatNumber(p.entryPrice, 2)}</td>
              <td className="num">{formatNumber(p.markPrice, 2)}</td>
              <td className="num">{formatNumber(p.liquidationPrice, 2)}</td>
              <td className="num">{formatBalance(p.margin, 'USDT')}</td>
              <td className={`num ${pnlClass(p.unrealizedPnl)}`}>
                {formatBalance(p.unrealizedPnl, 'USDT')} ({formatPercent(p.returnPct)})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * /my/assets/futures-account: the standard and perpetual wallets (equity, available, margin in
 * use, unrealized PnL from the open positions) and the positions themselves, all live.
 */
export function FuturesAccountScreen() {
  const { t } = useTranslation('assets');
  const device = useDevice();
  const balances = useBalances();
  const { positions } = usePositions();
  const [transfer, setTransfer] = useTransferDialog();
  const setTransferTo = (to: WalletType) => setTransfer({ from: 'fund', to, coin: 'USDT' });
  const cards = useMemo(() => (['perp', 'std'] as const).map((c) => futuresSummary(balances.book, positions, c)), [balances.book, positions]);

  return (
    <AssetsFrame title={t('futuresTitle')} onTransfer={() => setTransferTo('perp')}>
      {balances.status === 'error' ? (
        <p className="acct-error" role="alert">
          {t('loadFailed', { msg: balances.error ?? '' })}
        </p>
      ) : null}
      {cards.map((s) => (
        <ContractCard key={s.contract} s={s} onTransfer={setTransferTo} />
      ))}
      <section className={device === 'mobile' ? '' : 'acct-card acct-card--flush'}>
        <h2 className={`acct-card__title${device === 'mobile' ? '' : ' assets-table-title'}`}>{t('positionsTitle')}</h2>
        <PositionsList positions={positions} />
      </section>
      <TransferDialog target={transfer} onClose={() => setTransfer(null)} book={balances.book} onDone={balances.refresh} />
    </AssetsFrame>
  );
}
