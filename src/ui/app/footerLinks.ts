import { footerColumns, type FooterColumn } from './navTree.ts';

export type { FooterColumn };

/** The five desktop footer columns (SPEC §2), drawn from the one nav tree (src/ui/app/navTree.ts). */
export const FOOTER_COLUMNS: readonly FooterColumn[] = footerColumns();
