/**
 * The look of every text field and select. A module of its own: the lobby's filter bar uses it
 * before its first frame, without the forms' chunk (react-hook-form) that input.tsx belongs to.
 */
export const inputClasses =
  'block h-11 w-full min-w-0 rounded-md border border-ink-600 bg-ink-900/80 px-3 text-base text-slate-100 placeholder:text-slate-400 transition-colors hover:border-slate-500 focus-visible:border-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/60 aria-invalid:border-red-400 disabled:opacity-60 sm:text-sm';
