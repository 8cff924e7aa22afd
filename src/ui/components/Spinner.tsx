/** A small inline loading indicator; `label` is read by screen readers. */
export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span className="rf-spinner" role="status" aria-label={label ?? 'loading'} style={{ width: size, height: size }} />
  );
}
