import type { ReactNode } from 'react';
import { CircleAlert } from 'lucide-react';

export interface DepositProblemPanelProps {
  title: string | null;
  message: string;
  /** The panel's buttons: RETRY and CANCEL for a card, TRY AGAIN and CANCEL for crypto. */
  actions: ReactNode;
}

/** Why a deposit stopped, announced as an alert, with what the player can do next. */
export function DepositProblemPanel({ title, message, actions }: DepositProblemPanelProps) {
  return (
    <div className="space-y-5">
      <div
        role="alert"
        className="flex gap-3 rounded-lg border border-red-400/50 bg-red-950/40 p-4 text-red-50"
      >
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-300" />
        <div className="min-w-0 space-y-1">
          {title && <p className="font-display text-sm font-bold tracking-wider">{title}</p>}
          <p className="text-sm break-words">{message}</p>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{actions}</div>
    </div>
  );
}
