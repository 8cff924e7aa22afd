import { useEffect } from 'react';
import { useMatches } from 'react-router-dom';
import type { RouteHandle } from '../app/routeTable.ts';

function isHandle(h: unknown): h is RouteHandle {
  return typeof h === 'object' && h !== null;
}

/**
 * The handle (name + SPEC §2 flags) of the deepest matched route. A matched leaf without a
 * name logs a warning and the app continues (SPEC §8).
 */
export function useRouteFlags(): RouteHandle {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const handle: RouteHandle = leaf && isHandle(leaf.handle) ? leaf.handle : {};
  const unnamed = leaf !== undefined && !handle.name ? leaf.pathname : null;
  useEffect(() => {
    if (unnamed !== null) console.warn(`[router] route without a name: ${unnamed}`);
  }, [unnamed]);
  return handle;
}
