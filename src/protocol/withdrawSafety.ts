import type { HelpLang } from './help.ts';

/**
 * The server's refusals of a withdrawal by the address book's whitelist mode and the daily limit
 * (issue 26), in the request's language (`Web-Lang`: en, zh, hk, jp, ko; English otherwise), as the
 * order rate limit answers. Amounts are formatted by the caller (USDT, exact).
 */
export type SafetyRefusal =
  | { kind: 'notWhitelisted' }
  | { kind: 'notYetUsable'; hours: number; minutes: number }
  | { kind: 'dailyLimit'; used: string; limit: string; value: string };

export function withdrawSafetyMsg(lang: HelpLang, r: SafetyRefusal): string {
  switch (r.kind) {
    case 'notWhitelisted':
      return {
        en: 'Whitelist mode is on: withdrawals can only go to addresses in your address book',
        zh: '白名单模式已开启：只能提现到地址簿中的地址',
        hk: '白名單模式已開啟：只能提現到地址簿中的地址',
        jp: 'ホワイトリストモードがオンです：アドレス帳のアドレスにのみ出金できます',
        ko: '화이트리스트 모드가 켜져 있습니다: 주소록에 있는 주소로만 출금할 수 있습니다',
      }[lang];
    case 'notYetUsable': {
      const t = { en: `${r.hours} h ${r.minutes} min`, zh: `${r.hours} 小时 ${r.minutes} 分钟`, hk: `${r.hours} 小時 ${r.minutes} 分鐘`, jp: `${r.hours} 時間 ${r.minutes} 分`, ko: `${r.hours}시간 ${r.minutes}분` }[lang];
      return {
        en: `This address was added while whitelist mode is on: it can be used 24 hours after it was added (${t} left)`,
        zh: `该地址是在白名单模式开启时添加的：添加 24 小时后才能使用（还剩 ${t}）`,
        hk: `該地址是在白名單模式開啟時加入的：加入 24 小時後才能使用（尚餘 ${t}）`,
        jp: `このアドレスはホワイトリストモード中に追加されました：追加から 24 時間後に使用できます（残り ${t}）`,
        ko: `이 주소는 화이트리스트 모드가 켜진 동안 추가되었습니다: 추가 후 24시간이 지나야 사용할 수 있습니다 (${t} 남음)`,
      }[lang];
    }
    case 'dailyLimit':
      return {
        en: `This withdrawal would exceed your daily withdrawal limit: ${r.used} of ${r.limit} USDT used in the last 24 hours, this one is worth ${r.value} USDT`,
        zh: `此笔提现将超出每日提现限额：过去 24 小时已用 ${r.used} / ${r.limit} USDT，本笔价值 ${r.value} USDT`,
        hk: `此筆提現將超出每日提現限額：過去 24 小時已用 ${r.used} / ${r.limit} USDT，本筆價值 ${r.value} USDT`,
        jp: `この出金は 1 日の出金上限を超えます：過去 24 時間の利用 ${r.used} / ${r.limit} USDT、今回の出金は ${r.value} USDT 相当です`,
        ko: `이 출금은 일일 출금 한도를 초과합니다: 최근 24시간 사용 ${r.used} / ${r.limit} USDT, 이번 출금은 ${r.value} USDT 상당입니다`,
      }[lang];
  }
}

const PLAIN = /^(\d+)(?:\.(\d+))?$/;

/** A plain non-negative decimal as (integer, decimals), exact; null otherwise. */
function parts(s: string): { n: bigint; d: number } | null {
  const m = PLAIN.exec(s.trim());
  if (!m) return null;
  const frac = m[2] ?? '';
  return { n: BigInt(`${m[1] ?? '0'}${frac}`), d: frac.length };
}

/** USDT has 6 decimals: the daily limit counts in its minor units. */
export const USDT_DECIMALS = 6;

/**
 * What `amount` of a coin is worth in USDT minor units at `price` (USDT per coin), exactly, rounded
 * up to the minor unit (a limit is never under-counted). The server and the form compute the daily
 * limit with this one function, so the form refuses exactly what the server would. Null for a
 * string that is not a plain decimal.
 */
export function usdtValueMinor(amount: string, price: string): bigint | null {
  const a = parts(amount);
  const p = parts(price);
  if (!a || !p) return null;
  const num = a.n * p.n * 10n ** BigInt(USDT_DECIMALS);
  const den = 10n ** BigInt(a.d + p.d);
  return (num + den - 1n) / den;
}

/** USDT minor units as a plain decimal ('20000', '12.5'), no trailing zeros. */
export function usdtText(minor: bigint): string {
  const neg = minor < 0n;
  const abs = (neg ? -minor : minor).toString().padStart(USDT_DECIMALS + 1, '0');
  const whole = abs.slice(0, -USDT_DECIMALS);
  const frac = abs.slice(-USDT_DECIMALS).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A plain decimal in USDT minor units (exact; more than 6 decimals rounded up), or null. */
export function usdtMinor(text: string): bigint | null {
  return usdtValueMinor(text, '1');
}
