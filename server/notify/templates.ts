import type { HelpLang } from '../../src/protocol/help.ts';
import type { NotificationKind } from '../../src/protocol/notifications.ts';

/**
 * The words of every notice in the five notification languages (issue 26, Major 8). `{name}` is
 * replaced by the event's parameter of that name; a parameter ending in `Text` is itself a word of
 * {@link WORDS} (a side, a reason), looked up in the same language. Amounts arrive as the exact
 * decimal strings of the DTOs and are never reformatted through a float.
 */
interface Template {
  title: string;
  body: string;
}

const EN: Record<NotificationKind, Template> = {
  passwordChanged: { title: 'Login password changed', body: 'Your login password was {howText}. Withdrawals are locked for {hours} hours. If this was not you, reset your password now and contact support.' },
  withdrawalSubmitted: { title: 'Withdrawal submitted', body: 'Your withdrawal of {amount} {coin} ({network}) to {address} was submitted and awaits review.' },
  withdrawalApproved: { title: 'Withdrawal approved', body: 'Your withdrawal of {amount} {coin} ({network}) was approved and is on its way to {address}.' },
  withdrawalRejected: { title: 'Withdrawal rejected', body: 'Your withdrawal of {amount} {coin} ({network}) was rejected; {total} {coin} are back in your fund account.' },
  depositCredited: { title: 'Deposit credited', body: '{amount} {coin} ({network}) were credited to your fund account.' },
  orderFilled: { title: 'Order filled', body: 'Your {symbol} {sideText} order of {qty} was filled at an average price of {price}.' },
  liquidationWarning: { title: 'Liquidation risk', body: 'Your {symbol} {sideText} position is close to liquidation: its maintenance margin is {risk}% of its margin balance at the mark price {mark}. Add margin or reduce the position.' },
  liquidation: { title: 'Position liquidated', body: 'Your {symbol} {sideText} position of {qty} was liquidated at the mark price {price}.' },
  copyStopped: { title: 'Copy trading stopped', body: 'Your copy of {trader} has stopped: {reasonText}.' },
};

const ZH: Record<NotificationKind, Template> = {
  passwordChanged: { title: '登录密码已修改', body: '您的登录密码已{howText}。提现将被锁定 {hours} 小时。如非本人操作，请立即重置密码并联系客服。' },
  withdrawalSubmitted: { title: '提现已提交', body: '您提现 {amount} {coin}（{network}）至 {address} 的申请已提交，等待审核。' },
  withdrawalApproved: { title: '提现已通过', body: '您提现 {amount} {coin}（{network}）的申请已通过，正在发送至 {address}。' },
  withdrawalRejected: { title: '提现被拒绝', body: '您提现 {amount} {coin}（{network}）的申请被拒绝，{total} {coin} 已退回您的资金账户。' },
  depositCredited: { title: '充值已到账', body: '{amount} {coin}（{network}）已存入您的资金账户。' },
  orderFilled: { title: '订单已成交', body: '您的 {symbol} {sideText}单 {qty} 已全部成交，成交均价 {price}。' },
  liquidationWarning: { title: '强平风险', body: '您的 {symbol} {sideText}仓位接近强平：按标记价格 {mark}，维持保证金已占保证金余额的 {risk}%。请追加保证金或减仓。' },
  liquidation: { title: '仓位已被强平', body: '您的 {symbol} {sideText}仓位 {qty} 已按标记价格 {price} 被强制平仓。' },
  copyStopped: { title: '跟单已停止', body: '您对 {trader} 的跟单已停止：{reasonText}。' },
};

const HK: Record<NotificationKind, Template> = {
  passwordChanged: { title: '登入密碼已修改', body: '您的登入密碼已{howText}。提現將被鎖定 {hours} 小時。如非本人操作，請立即重設密碼並聯絡客服。' },
  withdrawalSubmitted: { title: '提現已提交', body: '您提現 {amount} {coin}（{network}）至 {address} 的申請已提交，等待審核。' },
  withdrawalApproved: { title: '提現已通過', body: '您提現 {amount} {coin}（{network}）的申請已通過，正在發送至 {address}。' },
  withdrawalRejected: { title: '提現被拒絕', body: '您提現 {amount} {coin}（{network}）的申請被拒絕，{total} {coin} 已退回您的資金帳戶。' },
  depositCredited: { title: '充值已到帳', body: '{amount} {coin}（{network}）已存入您的資金帳戶。' },
  orderFilled: { title: '訂單已成交', body: '您的 {symbol} {sideText}單 {qty} 已全部成交，成交均價 {price}。' },
  liquidationWarning: { title: '強平風險', body: '您的 {symbol} {sideText}倉位接近強平：按標記價格 {mark}，維持保證金已佔保證金餘額的 {risk}%。請追加保證金或減倉。' },
  liquidation: { title: '倉位已被強平', body: '您的 {symbol} {sideText}倉位 {qty} 已按標記價格 {price} 被強制平倉。' },
  copyStopped: { title: '跟單已停止', body: '您對 {trader} 的跟單已停止：{reasonText}。' },
};

const JP: Record<NotificationKind, Template> = {
  passwordChanged: { title: 'ログインパスワードが変更されました', body: 'ログインパスワードが{howText}されました。出金は {hours} 時間ロックされます。お心当たりがない場合は、すぐにパスワードを再設定し、サポートにご連絡ください。' },
  withdrawalSubmitted: { title: '出金申請を受け付けました', body: '{amount} {coin}（{network}）の {address} への出金申請を受け付けました。審査をお待ちください。' },
  withdrawalApproved: { title: '出金が承認されました', body: '{amount} {coin}（{network}）の出金が承認され、{address} へ送金中です。' },
  withdrawalRejected: { title: '出金が却下されました', body: '{amount} {coin}（{network}）の出金は却下されました。{total} {coin} が資金口座に戻りました。' },
  depositCredited: { title: '入金が反映されました', body: '{amount} {coin}（{network}）が資金口座に入金されました。' },
  orderFilled: { title: '注文が約定しました', body: '{symbol} の{sideText}注文 {qty} が平均価格 {price} で約定しました。' },
  liquidationWarning: { title: 'ロスカットのリスク', body: '{symbol} の{sideText}ポジションがロスカットに近づいています：マーク価格 {mark} で維持証拠金が証拠金残高の {risk}% です。証拠金を追加するかポジションを減らしてください。' },
  liquidation: { title: 'ポジションがロスカットされました', body: '{symbol} の{sideText}ポジション {qty} がマーク価格 {price} でロスカットされました。' },
  copyStopped: { title: 'コピートレードが停止しました', body: '{trader} のコピーが停止しました：{reasonText}。' },
};

const KO: Record<NotificationKind, Template> = {
  passwordChanged: { title: '로그인 비밀번호가 변경되었습니다', body: '로그인 비밀번호가 {howText}되었습니다. 출금이 {hours}시간 동안 잠깁니다. 본인이 아니라면 즉시 비밀번호를 재설정하고 고객센터에 문의하세요.' },
  withdrawalSubmitted: { title: '출금 신청 완료', body: '{amount} {coin}({network})을(를) {address}(으)로 출금하는 신청이 접수되어 심사 중입니다.' },
  withdrawalApproved: { title: '출금 승인', body: '{amount} {coin}({network}) 출금이 승인되어 {address}(으)로 전송 중입니다.' },
  withdrawalRejected: { title: '출금 거절', body: '{amount} {coin}({network}) 출금이 거절되었습니다. {total} {coin}이(가) 자금 계정으로 반환되었습니다.' },
  depositCredited: { title: '입금 완료', body: '{amount} {coin}({network})이(가) 자금 계정에 입금되었습니다.' },
  orderFilled: { title: '주문 체결', body: '{symbol} {sideText} 주문 {qty}이(가) 평균 가격 {price}에 체결되었습니다.' },
  liquidationWarning: { title: '청산 위험', body: '{symbol} {sideText} 포지션이 청산에 가까워졌습니다: 마크 가격 {mark}에서 유지 증거금이 증거금 잔액의 {risk}%입니다. 증거금을 추가하거나 포지션을 줄이세요.' },
  liquidation: { title: '포지션 청산', body: '{symbol} {sideText} 포지션 {qty}이(가) 마크 가격 {price}에 청산되었습니다.' },
  copyStopped: { title: '카피 트레이딩 중지', body: '{trader} 카피가 중지되었습니다: {reasonText}.' },
};

/** The words a `…Text` parameter names. */
const WORDS: Record<HelpLang, Record<string, string>> = {
  en: { buy: 'buy', sell: 'sell', long: 'long', short: 'short', change: 'changed', reset: 'reset', user: 'you stopped it', stopLoss: 'its stop-loss was reached' },
  zh: { buy: '买', sell: '卖', long: '多', short: '空', change: '修改', reset: '重置', user: '您已手动停止', stopLoss: '已触发止损' },
  hk: { buy: '買', sell: '賣', long: '多', short: '空', change: '修改', reset: '重設', user: '您已手動停止', stopLoss: '已觸發止損' },
  jp: { buy: '買い', sell: '売り', long: 'ロング', short: 'ショート', change: '変更', reset: '再設定', user: 'ご自身で停止しました', stopLoss: 'ストップロスに達しました' },
  ko: { buy: '매수', sell: '매도', long: '롱', short: '숏', change: '변경', reset: '재설정', user: '직접 중지했습니다', stopLoss: '손절 한도에 도달했습니다' },
};

const TEMPLATES: Record<HelpLang, Record<NotificationKind, Template>> = { en: EN, zh: ZH, hk: HK, jp: JP, ko: KO };

/** The closing line of a notice mail: where the switches are. */
const MAIL_FOOTER: Record<HelpLang, string> = {
  en: 'You receive this because these notices are on in Settings > Preferences.',
  zh: '您收到此邮件是因为在 设置 > 偏好设置 中开启了此类通知。',
  hk: '您收到此郵件是因為在 設定 > 偏好設定 中開啟了此類通知。',
  jp: '設定 > 環境設定 でこの通知がオンになっているため、このメールをお送りしています。',
  ko: '설정 > 환경설정에서 이 알림이 켜져 있어 이 메일을 보내드립니다.',
};

function fill(text: string, lang: HelpLang, params: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name.endsWith('Text') ? name.slice(0, -4) : name];
    if (v === undefined) return whole;
    return name.endsWith('Text') ? (WORDS[lang][v] ?? v) : v;
  });
}

/** Title and body of a notice in `lang`; `params` hold the raw values (`side: 'buy'`, `amount: '10.5'`). */
export function renderNotice(kind: NotificationKind, lang: HelpLang, params: Readonly<Record<string, string>>): Template {
  const t = TEMPLATES[lang][kind];
  return { title: fill(t.title, lang, params), body: fill(t.body, lang, params) };
}

/** The plain-text mail of a notice. */
export function noticeMail(lang: HelpLang, title: string, body: string): { subject: string; text: string } {
  return { subject: title, text: `${body}\n\n${MAIL_FOOTER[lang]}` };
}
