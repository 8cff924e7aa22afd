/**
 * The path to go to after login. Only same-origin absolute paths are followed (`/x`, not
 * `//evil.com`, `/\\evil.com`, `/<tab>/evil.com` or `https://...`), so a crafted `?redirect=`
 * cannot send a fresh session off-site. Login and register themselves map to `/` (a
 * logged-in user is not shown them).
 */
export function safeRedirect(raw: string | null): string {
  if (raw === null || raw === '') return '/';
  // NOTE: URL parsing drops tabs and newlines and reads '\\' as '/', so '/\t/evil.com' or
  // '/\\evil.com' would become the protocol-relative '//evil.com': refuse them outright.
  for (const ch of raw) {
    const c = ch.charCodeAt(0);
    if (c < 0x20 || c === 0x7f || ch === '\\') return '/';
  }
  if (!raw.startsWith('/') || raw.startsWith('//')) return '/';
  const path = raw.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path === '/register') return '/';
  return raw;
}
