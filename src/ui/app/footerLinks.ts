import type { ShellKey } from './menus.ts';

export interface FooterColumn {
  title: ShellKey;
  links: readonly { label: ShellKey; to: string }[];
}

const detail = (id: number): string => `/help-detail/${id}`;
const list = (id: number): string => `/help-list/${id}`;

/**
 * The five desktop footer columns (SPEC §2). Every help-detail id (15, 16, 17, 53, 85, 86, 58,
 * 75, 80, 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10) and help-list id (23, 16, 18, 21, 22, 20,
 * 19) appears exactly once; tests/unit/ui/shell.footer.test.tsx checks it.
 */
export const FOOTER_COLUMNS: readonly FooterColumn[] = [
  {
    title: 'colAbout',
    links: [
      { label: 'aboutUs', to: detail(15) },
      { label: 'termsOfUse', to: detail(16) },
      { label: 'privacyPolicy', to: detail(17) },
      { label: 'contactUs', to: detail(53) },
      { label: 'announcements', to: list(23) },
    ],
  },
  {
    title: 'colProducts',
    links: [
      { label: 'convert', to: '/convert' },
      { label: 'market', to: '/market' },
      { label: 'stdFutures', to: '/stdFuture/BTCUSDT' },
      { label: 'mFutures', to: '/mFutures/BTCUSDT' },
      { label: 'copyGuide', to: detail(85) },
      { label: 'referralProgram', to: detail(86) },
    ],
  },
  {
    title: 'colRiskFree',
    links: [
      { label: 'riskFund', to: detail(58) },
      { label: 'compensationRules', to: detail(75) },
      { label: 'lossVoucher', to: detail(80) },
      { label: 'speedVoucher', to: detail(81) },
      { label: 'compensationFaq', to: list(16) },
    ],
  },
  {
    title: 'colSupport',
    links: [
      { label: 'beginnerGuide', to: list(18) },
      { label: 'depositWithdrawHelp', to: list(21) },
      { label: 'tradingGuide', to: list(22) },
      { label: 'accountHelp', to: list(20) },
      { label: 'faq', to: list(19) },
      { label: 'fees', to: detail(82) },
      { label: 'api', to: detail(83) },
      { label: 'listing', to: detail(84) },
    ],
  },
  {
    title: 'colLegal',
    links: [
      { label: 'riskDisclosure', to: detail(8) },
      { label: 'amlPolicy', to: detail(9) },
      { label: 'lawEnforcement', to: detail(14) },
      { label: 'cookiePolicy', to: detail(13) },
      { label: 'userAgreement', to: detail(11) },
      { label: 'futuresRules', to: detail(12) },
      { label: 'disclaimer', to: detail(10) },
    ],
  },
];

/** Last app version shown on the footer badges (SPEC §9). */
export const APP_VERSION = '1.1.7';
