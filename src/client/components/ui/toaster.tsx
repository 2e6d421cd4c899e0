import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { dismissToast, useToast, type ToastVariant } from '#client/lib/toast.ts';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD_PX,
} from '#client/lib/ui-constants.ts';

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-accent/50 bg-ink-850 text-slate-100',
  destructive: 'border-red-400/70 bg-red-950 text-red-50',
};

/**
 * Renders the toasts raised through `toast()`. Mounted once, by the app providers. Radix handles
 * the timer (paused while hovered or focused), swipe-right dismissal and the F8 hotkey.
 */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <Toast.Root
          key={id}
          open={open}
          duration={duration}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id);
          }}
          className={cn(
            'relative flex w-full items-start gap-3 rounded-lg border p-4 pr-11 shadow-[0_18px_50px_-12px_rgb(0_0_0/0.9)]',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out',
            variantClasses[variant],
          )}
        >
          <div className="grid gap-1">
            <Toast.Title className="font-display text-sm font-bold tracking-wide">
              {title}
            </Toast.Title>
            {description && (
              <Toast.Description className="text-sm opacity-90">{description}</Toast.Description>
            )}
          </div>
          <Toast.Close
            aria-label="Close"
            className="absolute top-3 right-3 inline-flex size-7 cursor-pointer items-center justify-center rounded-md opacity-80 transition hover:bg-white/10 hover:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        hotkey={[TOAST_HOTKEY]}
        className="fixed top-0 right-0 z-[100] flex w-full flex-col gap-2 p-4 outline-none sm:top-20 sm:right-4 sm:max-w-sm"
      />
    </Toast.Provider>
  );
}
