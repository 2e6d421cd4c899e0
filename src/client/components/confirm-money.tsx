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

/**
 * A button that moves money only after a confirmation stating the money (docs/product.md): the
 * trigger keeps its label, the dialog says what moves, and its confirm button does it. The dialog
 * closes once the action succeeded; a failure leaves it open with the toast the action shows.
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
  /** Does it; calls `done` once it succeeded. */
  onConfirm: (done: () => void) => void;
  size?: ButtonSize;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size={size} className={className}>
          {trigger}
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
            aria-disabled={busy}
            className="aria-disabled:cursor-wait aria-disabled:opacity-50"
            onClick={() => {
              if (!busy) onConfirm(() => setOpen(false));
            }}
          >
            {busy ? busyLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
