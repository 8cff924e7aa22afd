import { useTranslation } from 'react-i18next';

export interface ConnectionBadgeProps {
  /** Whether the market socket is open. */
  connected: boolean;
  /** True once the socket has been open at least once: before that the text says "Connecting…". */
  everConnected: boolean;
}

/**
 * The market socket indicator (issue "Live market data"): a quiet "Live" dot while the socket
 * is open, and a visible `role="status"` "Reconnecting…" banner while it is not, so prices
 * that stopped moving are never mistaken for a calm market.
 */
export function ConnectionBadge({ connected, everConnected }: ConnectionBadgeProps) {
  const { t } = useTranslation('market');
  if (connected) {
    return (
      <span className="mk-conn mk-conn--live" data-testid="market-conn" data-state="live">
        <span className="mk-conn__dot" aria-hidden="true" />
        {t('conn.live')}
      </span>
    );
  }
  return (
    <span className="mk-conn mk-conn--down" role="status" data-testid="market-conn" data-state="reconnecting">
      <span className="mk-conn__spinner" aria-hidden="true" />
      {t(everConnected ? 'conn.reconnecting' : 'conn.connecting')}
    </span>
  );
}
