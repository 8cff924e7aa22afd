/**
 * The path to go to after login. Only same-origin absolute paths are followed (`/x`, not
 * `//evil.com` or `https://...`), so a crafted `?redirect=` cannot send a fresh session
 * off-site. Login and register themselves map to `/` (a logged-in user is not shown them).
 */
export function safeRedirect(raw: string | null): string {
  if (raw === null || raw === '') return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const path = raw.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path === '/register') return '/';
  return raw;
}
