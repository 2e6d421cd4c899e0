import { RotateCcw } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { DepositProblemPanel } from './deposit-problem-panel.tsx';

export interface CardErrorPanelProps {
  title: string;
  message: string;
  onCancel: () => void;
}

/**
 * The product's card error panel (docs/product.md#screens): RETRY reloads the page, so the next
 * attempt starts from a fresh payment form (and, with Stripe, a fresh Stripe.js); CANCEL goes back
 * to the amount entry.
 */
export function CardErrorPanel({ title, message, onCancel }: CardErrorPanelProps) {
  return (
    <DepositProblemPanel
      title={title}
      message={message}
      actions={
        <>
          <Button variant="ghost" onClick={onCancel}>
            CANCEL
          </Button>
          <Button onClick={() => window.location.reload()}>
            <RotateCcw aria-hidden="true" />
            RETRY
          </Button>
        </>
      }
    />
  );
}
