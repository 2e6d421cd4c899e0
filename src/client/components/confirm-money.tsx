import { useState, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx';
import { Button, type ButtonSize } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';

/**
 * A button that moves money only after a confirmation stating the money (docs/product.md): the
 * trigger keeps its label, the dialog says what moves, and its confirm button does it. The dialog
 * closes as the action starts, so focus is back on the trigger (which shows the action under way)
 * before the action's result may take the trigger away: the page's focus recovery then moves it
 * on, as it would from any button.
 */
export function ConfirmMoneyButton({
  trigger,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
  size,
  className,
}: {
  /** The trigger's content: its icon and its label, as the screen names it. */
  trigger: ReactNode;
  title: string;
  /** What moves, in words: "You stake $50.00. Win: $95.00 after the 5% fee." */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
  size?: ButtonSize;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button
          size={size}
          // Marked busy rather than disabled while it runs: a disabled button drops the focus.
          aria-disabled={busy}
          className={cn('aria-disabled:cursor-wait aria-disabled:opacity-50', className)}
          onClick={(event) => {
            if (busy) event.preventDefault();
          }}
        >
          {busy ? busyLabel : trigger}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="border-accent/50">
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="space-y-2">{children}</div>
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">NOT NOW</Button>
          </AlertDialogCancel>
          <Button
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
