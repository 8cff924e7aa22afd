import { Link } from 'react-router-dom';
import type { HelpBlock } from '../../../protocol/help.ts';

/**
 * An article body rendered from structured blocks: every text is a React text node (markup in
 * the stored text shows literally, nothing is parsed as HTML) and a link only ever points inside
 * the site (the protocol's block schema allows site paths only; anything else is shown as text).
 */
export function HelpBlocks({ blocks }: { blocks: readonly HelpBlock[] }) {
  return (
    <div className="rf-help-body" data-testid="help-body">
      {blocks.map((b, i) => {
        switch (b.t) {
          case 'h':
            return <h2 key={i}>{b.text}</h2>;
          case 'p':
            return <p key={i}>{b.text}</p>;
          case 'ul':
            return (
              <ul key={i}>
                {b.items.map((it, j) => (
                  <li key={j}>{it}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={i}>
                {b.items.map((it, j) => (
                  <li key={j}>{it}</li>
                ))}
              </ol>
            );
          case 'note':
            return (
              <p key={i} className="rf-help-note" role="note">
                {b.text}
              </p>
            );
          case 'link':
            return /^\/(?!\/)/.test(b.to) ? (
              <p key={i}>
                <Link className="rf-help-cta" to={b.to}>
                  {b.text} →
                </Link>
              </p>
            ) : (
              <p key={i}>{b.text}</p>
            );
          default:
            return null;
        }
      })}
    </div>
  );
}
