import { useCallback } from 'react';
import type { ViewValue } from '../../core/viewState.ts';
import { useAppCore } from '../app/AppCoreProvider.tsx';
import { useCurrent } from './useCurrent.ts';

/**
 * A piece of screen-local view state kept in the core's view store (src/core/viewState.ts) instead
 * of useState: the tab, filter, page or dialog the user picked is an intent in the event log, and
 * a replay shows it. `valid` checks what the store holds (a replayed log is external data); an
 * unset or invalid value reads as `fallback`.
 */
export function useViewState<T>(key: string, fallback: T, valid: (v: ViewValue) => boolean): [T, (value: T) => void] {
  const { view } = useAppCore();
  const raw = useCurrent(view.changes$, () => view.get(key));
  // NOTE: `valid` is the check that makes the cast sound; T is JSON (an interface of strings has no index signature, hence no ViewValue bound).
  const value = raw !== undefined && valid(raw) ? (raw as T) : fallback;
  const set = useCallback((next: T) => view.set(key, next as ViewValue), [view, key]);
  return [value, set];
}

/** A guard for a value out of a fixed list (tabs, intervals). */
export const oneOf =
  <T extends string>(options: readonly T[]) =>
  (v: ViewValue): v is T =>
    typeof v === 'string' && (options as readonly string[]).includes(v);

/** A guard for a positive integer (a page number). */
export const isPage = (v: ViewValue): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1_000_000;

/** A guard for a flat record of strings with exactly the keys of `template` (a filter set). */
export const stringsLike =
  (template: object) =>
  (v: ViewValue): boolean =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(template).every((k) => typeof (v as Record<string, ViewValue>)[k] === 'string') && Object.keys(v).length === Object.keys(template).length;
