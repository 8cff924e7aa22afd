import type { FeatureResources } from './defineResources.ts';
import { assets } from './resources/assets.ts';
import { auth } from './resources/auth.ts';
import { common } from './resources/common.ts';
import { compensation } from './resources/compensation.ts';
import { coupon } from './resources/coupon.ts';
import { home } from './resources/home.ts';
import { kyc } from './resources/kyc.ts';
import { market } from './resources/market.ts';
import { settings } from './resources/settings.ts';
import { shell } from './resources/shell.ts';
import { trade } from './resources/trade.ts';
import { replay } from './resources/replay.ts';
import { wallet } from './resources/wallet.ts';
import { convert } from './resources/convert.ts';
import { orderForm } from './resources/orderForm.ts';
import { positions } from './resources/positions.ts';
import { referral } from './resources/referral.ts';
import { help } from './resources/help.ts';
import { dashboard } from './resources/dashboard.ts';
import { copy } from './resources/copy.ts';


/**
 * Every feature's translations, one line per feature; the key becomes the i18next namespace
 * (`useTranslation('shell')`, `t('common:copySuccess')`). To add a feature: create
 * resources/<feature>.ts (see docs/UI.md) and add ONE line here.
 */
export const FEATURES = {
  common,
  shell,
  auth,
  home,
  market,
  settings,
  assets,
  trade,
  replay,
  compensation,
  kyc,
  coupon,
  wallet,
  convert,
  orderForm,
  positions,
  referral,
  help,
  dashboard,
  copy,
} satisfies Record<string, FeatureResources>;

export type Namespace = keyof typeof FEATURES;
