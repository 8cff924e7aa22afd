import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MONEY_COINS, type MoneyCoin, type Network } from '../../../protocol/wallet.ts';
import { networksOf } from './walletModel.ts';

/** A labelled native select (keyboard and screen-reader friendly) of the money screens. */
export function PickField<V extends string>({ label, value, options, onChange, testId, disabled }: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (v: V) => void;
  testId: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="wal-field">
      <label className="wal-field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="wal-select" value={value} disabled={disabled} data-testid={testId} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Coin and network pickers; the network list follows the coin (CHAIN_RULES). */
export function CoinNetworkPickers({ coin, network, onCoin, onNetwork, disabled }: {
  coin: MoneyCoin;
  network: Network;
  onCoin: (c: MoneyCoin) => void;
  onNetwork: (n: Network) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('wallet');
  return (
    <div className="wal-pickers">
      <PickField label={t('assets:coin')} value={coin} testId="wal-coin" disabled={disabled} onChange={onCoin}
        options={MONEY_COINS.map((c) => ({ value: c, label: c }))} />
      <PickField label={t('network')} value={network} testId="wal-network" disabled={disabled} onChange={onNetwork}
        options={networksOf(coin).map((n) => ({ value: n, label: n }))} />
    </div>
  );
}
