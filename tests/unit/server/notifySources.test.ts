import { describe, expect, it } from 'vitest';
import { noticeOfFrame, shortAddress } from '../../../server/notify/sources.ts';
import { renderNotice } from '../../../server/notify/templates.ts';
import { HELP_LANGS } from '../../../src/protocol/help.ts';
import { NOTIFICATION_KINDS } from '../../../src/protocol/notifications.ts';

/** Which published frames mean a notice (issue 26, Major 8), and the templates in all five languages. */
describe('noticeOfFrame', () => {
  const wd = { id: 7, coin: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '20.000000', fee: '1.000000', total: '21.000000', txid: '', reason: '', time: 1, updatedAt: 1 };

  it('maps withdrawal steps, a credited deposit and an ended copy follow, and nothing else', () => {
    expect(noticeOfFrame(5, { type: 'withdrawal', data: { ...wd, status: 'pending' } })).toMatchObject({ userId: 5, kind: 'withdrawalSubmitted', dedupe: 'withdrawal-7-submitted' });
    expect(noticeOfFrame(5, { type: 'withdrawal', data: { ...wd, status: 'processing' } })?.kind).toBe('withdrawalApproved');
    expect(noticeOfFrame(5, { type: 'withdrawal', data: { ...wd, status: 'rejected' } })?.kind).toBe('withdrawalRejected');
    expect(noticeOfFrame(5, { type: 'withdrawal', data: { ...wd, status: 'completed' } })).toBeNull();
    expect(noticeOfFrame(5, { type: 'withdrawal', data: { ...wd, status: 'cancelled' } })).toBeNull();
    const dep = { id: 3, coin: 'BTC', network: 'Bitcoin', address: 'x', amount: '0.01000000', txid: 't', confirmations: 2, required: 2, time: 1, creditedAt: 2 };
    expect(noticeOfFrame(5, { type: 'deposit', data: { ...dep, status: 'credited' } })).toMatchObject({ kind: 'depositCredited', dedupe: 'deposit-3-credited', params: { amount: '0.01000000', coin: 'BTC' } });
    expect(noticeOfFrame(5, { type: 'deposit', data: { ...dep, status: 'confirming' } })).toBeNull();
    const follow = { id: 9, traderNickname: 'Ada', status: 'ended', endReason: 'stopLoss' };
    expect(noticeOfFrame(5, { type: 'copy', data: { event: 'follow', follow } })).toMatchObject({ kind: 'copyStopped', dedupe: 'copy-9-ended', params: { trader: 'Ada', reason: 'stopLoss' } });
    expect(noticeOfFrame(5, { type: 'copy', data: { event: 'follow', follow: { ...follow, status: 'active' } } })).toBeNull();
    expect(noticeOfFrame(5, { type: 'balance', data: {} })).toBeNull();
    expect(noticeOfFrame(5, { type: 'notification', data: {} })).toBeNull();
  });

  it('names an address by its ends', () => {
    expect(shortAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHq…gjLj6t');
    expect(shortAddress('short')).toBe('short');
  });
});

describe('renderNotice', () => {
  const params = { amount: '1.5', coin: 'USDT', network: 'TRC20', address: 'a…b', total: '2.5', symbol: 'BTCUSDT', side: 'long', qty: '0.1', price: '1', risk: '85.00', mark: '1', trader: 'Ada', reason: 'stopLoss', how: 'reset', hours: '48' };

  it('fills every placeholder of every kind in every language', () => {
    for (const lang of HELP_LANGS) {
      for (const kind of NOTIFICATION_KINDS) {
        const { title, body } = renderNotice(kind, lang, params);
        expect(title.length, `${lang} ${kind}`).toBeGreaterThan(0);
        expect(`${title} ${body}`, `${lang} ${kind}`).not.toMatch(/[{}]/);
      }
    }
  });

  it('translates the words a parameter names', () => {
    expect(renderNotice('copyStopped', 'en', params).body).toBe('Your copy of Ada has stopped: its stop-loss was reached.');
    expect(renderNotice('liquidation', 'zh', params).body).toBe('您的 BTCUSDT 多仓位 0.1 已按标记价格 1 被强制平仓。');
    expect(renderNotice('passwordChanged', 'en', params).body).toContain('was reset. Withdrawals are locked for 48 hours');
  });
});
