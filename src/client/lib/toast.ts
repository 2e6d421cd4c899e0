import { useSyncExternalStore } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from './ui-constants.ts';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast closes itself; the provider's default (5000) when left out. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
}

/**
 * The toast list lives outside React so that mutation callbacks, sockets and other non-component
 * code can raise a toast with a plain function call; the Toaster subscribes to it.
 */
let toasts: readonly ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: readonly ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function cancelRemoval(id: string): void {
  const timer = removalTimers.get(id);
  if (timer === undefined) return;
  clearTimeout(timer);
  removalTimers.delete(id);
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      setToasts(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Closes one toast, or every toast when no id is given. */
export function dismissToast(id?: string): void {
  const closing = toasts.filter((item) => item.open && (id === undefined || item.id === id));
  if (closing.length === 0) return;
  for (const item of closing) scheduleRemoval(item.id);
  setToasts(toasts.map((item) => (closing.includes(item) ? { ...item, open: false } : item)));
}

/**
 * Shows a toast. With the product's limit of one (docs/product.md#constants), it replaces whatever
 * toast is showing.
 */
export function toast(options: ToastOptions): ToastHandle {
  nextId += 1;
  const id = String(nextId);
  const next = [{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT);
  for (const item of toasts) {
    if (!next.includes(item)) cancelRemoval(item.id);
  }
  setToasts(next);
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): readonly ToastItem[] {
  return toasts;
}

export function useToast(): {
  toasts: readonly ToastItem[];
  toast: typeof toast;
  dismiss: typeof dismissToast;
} {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}
