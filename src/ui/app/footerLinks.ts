import { footerColumns, type FooterColumn } from './navTree.ts';

export type { FooterColumn };

/** The five desktop footer columns (SPEC §2), drawn from the one nav tree (src/ui/app/navTree.ts). */
export const FOOTER_COLUMNS: readonly FooterColumn[] = footerColumns();

/** Last app version shown on the footer badges (SPEC §9). */
export const APP_VERSION = '1.1.7';
