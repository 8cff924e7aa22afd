import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Group, Panel, Separator, type Layout, type LayoutChangedMeta } from 'react-resizable-panels';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { useCurrent } from '../../hooks/useCurrent.ts';

/**
 * The desktop trade screen's resizable layout (issue 14): three groups, each remembered per user
 * through core.tradeLayout (storage port, recorded):
 *
 *   columns: [ left                              | order ]
 *   rows (inside left): [ market ] over [ account ]
 *   market (inside rows): [ chart | book ]
 *
 * Separators are the library's focusable role="separator" handles (arrow keys resize, a double
 * click restores the default size); no panel is collapsible, so nothing disappears by accident.
 * Untouched groups keep the default sizes. The saved layout is read when the groups mount; they are
 * keyed by its owner, so a login or logout shows that person's layout.
 */
export function DesktopTradeLayout(props: { contract: string; head: ReactNode; chart: ReactNode; book: ReactNode; panel: ReactNode; account: ReactNode }) {
  const { t } = useTranslation('trade');
  const store = useAppCore().tradeLayout;
  const owner = useCurrent(store.owner$, store.owner);
  const saved = store.get();
  const remember = (group: string) => (layout: Layout, meta: LayoutChangedMeta) => {
    // A user's resize is stored; so is any later change of a group already stored (its size in
    // percent moves when a neighbouring group is resized or the window changes, while the panels
    // that keep their pixel width should come back at that width).
    if (meta.isUserInteraction) store.set(group, meta.requestedLayout ?? layout);
    else if (store.get()[group]) store.set(group, layout);
  };
  // The four areas in their wrappers, the same in both layouts below.
  const chart = <div className="rf-trade-main">{props.chart}</div>;
  const book = <div className="rf-trade-book">{props.book}</div>;
  const panel = <div className="rf-trade-panel">{props.panel}</div>;
  const account = <div className="rf-trade-account">{props.account}</div>;
  const frame = (columns: ReactNode, isStatic: boolean) => (
    <div className={isStatic ? 'rf-trade rf-trade--desktop rf-trade--static' : 'rf-trade rf-trade--desktop'} data-contract={props.contract} data-layout-owner={owner}>
      {props.head}
      <div className="rf-tl-columns">{columns}</div>
    </div>
  );
  // Without ResizeObserver (jsdom in unit tests) the panels library cannot measure: the same
  // panels at their default sizes, not resizable.
  if (typeof ResizeObserver === 'undefined') {
    return frame(
      <>
        {chart}
        {book}
        {panel}
        {account}
      </>,
      true,
    );
  }
  return frame(
    <Group key={`columns:${owner}`} id="trade-columns" orientation="horizontal" defaultLayout={saved.columns} onLayoutChanged={remember('columns')}>
      <Panel id="tl-left" minSize={760}>
        <Group key={`rows:${owner}`} id="trade-rows" orientation="vertical" defaultLayout={saved.rows} onLayoutChanged={remember('rows')}>
          <Panel id="tl-market" defaultSize="66" minSize={380}>
            <Group key={`market:${owner}`} id="trade-market" orientation="horizontal" defaultLayout={saved.market} onLayoutChanged={remember('market')}>
              <Panel id="tl-chart" minSize={440}>
                {chart}
              </Panel>
              <Separator id="sep-book" className="rf-tl-sep" aria-label={t('resizeBook')} />
              <Panel id="tl-book" defaultSize={300} minSize={240} maxSize={520} groupResizeBehavior="preserve-pixel-size">
                {book}
              </Panel>
            </Group>
          </Panel>
          <Separator id="sep-account" className="rf-tl-sep rf-tl-sep--row" aria-label={t('resizeAccount')} />
          <Panel id="tl-account" minSize={200}>
            {account}
          </Panel>
        </Group>
      </Panel>
      <Separator id="sep-order" className="rf-tl-sep" aria-label={t('resizeOrder')} />
      <Panel id="tl-order" defaultSize={320} minSize={280} maxSize={460} groupResizeBehavior="preserve-pixel-size">
        {panel}
      </Panel>
    </Group>,
    false,
  );
}
