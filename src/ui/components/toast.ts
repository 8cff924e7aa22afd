import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;
type Message = Parameters<Sonner['info']>[0];
type Options = Parameters<Sonner['info']>[1];

/**
 * The app's toasts without sonner in the first paint's script (issue 30): sonner comes in its own
 * chunk with the shell's toaster (AppToaster.tsx, lazily) or with the first toast, whichever is
 * first; a toast asked for before it is here waits and is sent once it is (sonner's Toaster shows
 * the toasts sent before it mounted). The same calls as sonner's `toast` for what the app uses.
 */
let live: Sonner | null = null;
let loading: Promise<void> | null = null;
const waiting: ((t: Sonner) => void)[] = [];

/** Sonner's `toast` is here (the toaster's module hands it over as it loads). */
export function attachToaster(t: Sonner): void {
  live = t;
  for (const fn of waiting.splice(0)) fn(t);
}

function loadSonner(): Promise<void> {
  loading ??= import('sonner').then((m) => attachToaster(m.toast));
  return loading;
}

const run = (fn: (t: Sonner) => void): void => {
  if (live) {
    fn(live);
    return;
  }
  waiting.push(fn);
  void loadSonner();
};

export const toast = {
  info: (msg: Message, opts?: Options) => run((t) => t.info(msg, opts)),
  success: (msg: Message, opts?: Options) => run((t) => t.success(msg, opts)),
  error: (msg: Message, opts?: Options) => run((t) => t.error(msg, opts)),
  warning: (msg: Message, opts?: Options) => run((t) => t.warning(msg, opts)),
  dismiss: (id?: string | number) => run((t) => t.dismiss(id)),
  /** The toasts on screen (none before sonner is here: none can be). */
  getToasts: (): ReturnType<Sonner['getToasts']> => (live ? live.getToasts() : []),
};
