/** One run of a text: `hit` when it is an occurrence of the searched term. */
export interface TextPart {
  text: string;
  hit: boolean;
}

/** `q` as a regular expression that matches its characters literally. */
function literal(q: string): RegExp {
  return new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
}

/**
 * `text` cut into runs, each occurrence of `q` (case-insensitive, literally: the user's text as
 * typed, not a pattern, like the server's search) one `hit` run. The runs put together are `text`;
 * an empty or blank `q` gives the whole text as one run. Pure: the help centre renders the hits as
 * `<mark>` elements (React text, never HTML).
 */
export function highlightParts(text: string, q: string): TextPart[] {
  const term = q.trim();
  if (term === '' || text === '') return text === '' ? [] : [{ text, hit: false }];
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(literal(term))) {
    const start = m.index;
    if (start > at) parts.push({ text: text.slice(at, start), hit: false });
    parts.push({ text: m[0], hit: true });
    at = start + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false });
  return parts;
}
