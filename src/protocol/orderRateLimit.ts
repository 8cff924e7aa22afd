import type { HelpLang } from './help.ts';

/**
 * Per-account order rate limits, as the big venues have them (Binance USDⓈ-M: orders per 10 s and
 * per minute): so one account cannot flood the trading engine. Budgets before RATE_LIMIT_SCALE.
 * Counted: every command that places or changes orders (place, edit, close, close-all, TP/SL);
 * cancels are not, so an account at its limit can still take its orders off the book.
 */
export const ORDER_RATE_RULES = {
  ordersPer10s: { limit: 300, windowMs: 10_000 },
  ordersPerMinute: { limit: 1200, windowMs: 60_000 },
} as const;

/** The refusal (code 429) in the request's language (`Web-Lang`: en, zh, hk, jp, ko; English otherwise). */
export function orderRateLimitMsg(lang: HelpLang, limit: number, windowMs: number): string {
  const seconds = Math.round(windowMs / 1000);
  const minute = seconds === 60;
  switch (lang) {
    case 'zh':
      return `下单过于频繁：每${minute ? '分钟' : ` ${seconds} 秒`}最多 ${limit} 笔订单，请稍后再试`;
    case 'hk':
      return `落單過於頻繁：每${minute ? '分鐘' : ` ${seconds} 秒`}最多 ${limit} 張訂單，請稍後再試`;
    case 'jp':
      return `注文が多すぎます：${minute ? '1 分' : `${seconds} 秒`}あたり最大 ${limit} 件です。しばらくしてから再度お試しください`;
    case 'ko':
      return `주문이 너무 많습니다: ${minute ? '1분' : `${seconds}초`}당 최대 ${limit}건입니다. 잠시 후 다시 시도해 주세요`;
    default:
      return `Too many orders: at most ${limit} per ${minute ? 'minute' : `${seconds} seconds`}, please try again shortly`;
  }
}
