import { useTranslation } from 'react-i18next';
import type { Deposit, WithdrawalStatus } from '../../../protocol/wallet.ts';

type Tone = 'ok' | 'wait' | 'bad' | 'neutral';

function Chip({ tone, text, testId }: { tone: Tone; text: string; testId?: string }) {
  return (
    <span className={`wal-chip wal-chip--${tone}`} data-testid={testId}>
      {text}
    </span>
  );
}

/** A deposit's status: confirming n/m, credited, or below the minimum (not credited). */
export function DepositStatus({ d }: { d: Pick<Deposit, 'status' | 'confirmations' | 'required'> }) {
  const { t } = useTranslation('wallet');
  if (d.status === 'credited') return <Chip tone="ok" text={t('dep_credited')} testId="deposit-status" />;
  if (d.status === 'belowMinimum') return <Chip tone="bad" text={t('dep_belowMinimum')} testId="deposit-status" />;
  return <Chip tone="wait" text={t('dep_confirming', { n: d.confirmations, m: d.required })} testId="deposit-status" />;
}

const WD_TONE: Record<WithdrawalStatus, Tone> = { pending: 'wait', processing: 'wait', completed: 'ok', rejected: 'bad', cancelled: 'neutral' };

/** A withdrawal's status chip. */
export function WithdrawalStatusChip({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation('wallet');
  return <Chip tone={WD_TONE[status]} text={t(`wd_${status}`)} testId="withdrawal-status" />;
}

/** Any wallet-history row's status (deposit, withdrawal or transfer). */
export function HistoryStatus({ type, status }: { type: string; status: string }) {
  const { t } = useTranslation('wallet');
  if (type === 'deposit') {
    const tone: Tone = status === 'credited' ? 'ok' : status === 'belowMinimum' ? 'bad' : 'wait';
    const key = status === 'credited' ? 'dep_credited' : status === 'belowMinimum' ? 'dep_belowMinimum' : 'dep_confirming';
    return <Chip tone={tone} text={key === 'dep_confirming' ? t('dep_confirmingShort') : t(key)} testId="history-status" />;
  }
  if (type === 'withdrawal' && status in WD_TONE) return <Chip tone={WD_TONE[status as WithdrawalStatus]} text={t(`wd_${status}`)} testId="history-status" />;
  return <Chip tone="ok" text={t('tr_completed')} testId="history-status" />;
}
