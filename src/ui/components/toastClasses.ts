/** sonner's class hooks: the close button inside the toast (AppToaster.css, issue 26). */
export const TOAST_CLASSES = { toast: 'rf-toast', closeButton: 'rf-toast-close' } as const;
export const TOAST_OPTIONS = { classNames: TOAST_CLASSES };
