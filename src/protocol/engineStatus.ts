import type { HelpLang } from './help.ts';

/**
 * The engine's own refusals (issue 28): a command the engine cannot make durable (its journal's
 * write failed: a full disk, an I/O error, the database away) is refused with code 503 and changes
 * nothing; the engine takes commands again once a journal write succeeds.
 */
export const ENGINE_MSG = {
  journalUnavailable: 'The exchange cannot record orders right now; nothing was changed, please try again shortly',
} as const;

/** {@link ENGINE_MSG.journalUnavailable} in the request's language (`Web-Lang`: en, zh, hk, jp, ko; English otherwise). */
export function journalUnavailableMsg(lang: HelpLang): string {
  switch (lang) {
    case 'zh':
      return '交易所暂时无法记录订单，本次操作未生效，请稍后再试';
    case 'hk':
      return '交易所暫時無法記錄訂單，今次操作未生效，請稍後再試';
    case 'jp':
      return '現在、取引所は注文を記録できません。何も変更されていません。しばらくしてから再度お試しください';
    case 'ko':
      return '거래소가 지금 주문을 기록할 수 없습니다. 아무것도 변경되지 않았습니다. 잠시 후 다시 시도해 주세요';
    default:
      return ENGINE_MSG.journalUnavailable;
  }
}
