import { useLocation } from 'react-router-dom';

/**
 * `/login?redirect={current path}` (SPEC §2). On the auth screens themselves the existing
 * redirect is kept instead of pointing back at /login.
 */
export function useLoginHref(): string {
  const { pathname, search } = useLocation();
  if (pathname === '/login' || pathname === '/register') {
    const keep = new URLSearchParams(search).get('redirect');
    return keep ? `/login?redirect=${encodeURIComponent(keep)}` : '/login';
  }
  return `/login?redirect=${encodeURIComponent(pathname + search)}`;
}
