import { Link } from 'react-router-dom';

/** Brand mark + word; always links home. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Link to="/" className="rf-logo" aria-label="RiskFree home">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path d="M9 22V10h7.5a4 4 0 0 1 0 8H13m3 0 5 4" fill="none" stroke="var(--on-accent)" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {!compact && <span className="rf-logo__word">RiskFree</span>}
    </Link>
  );
}
